// ESLint with typescript-eslint's type-checked rules; formatting is Prettier's (eslint-config-prettier
// turns off the rules that would disagree with it). `npm run lint` runs both.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'src/generated/', 'src/modules/types.generated.ts', 'bench/results/', '.data/', '.tmp/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { globals: globals.node, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Names starting with _ are deliberately unused (a field destructured away, a resolver's parent).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Fastify plugins and hooks, and Apollo plugin hooks, are async by contract, awaited or not.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The playground's page script runs in the browser.
    files: ['src/playground/browser.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    // The plain JavaScript scripts are outside the TypeScript project: linted without type information.
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests and benchmarks read answers as untyped JSON and check their shape: the rules against `any` would
    // ask for a cast before every use, which proves nothing more than the check itself.
    files: ['tests/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // Methods are handed around on purpose (a bound proxy in tests/kit/gateway.ts, a child's handles).
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  prettier,
);
