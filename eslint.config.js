// ESLint with typescript-eslint's type-checked rules, and graphql-eslint's on the public schema; formatting is
// Prettier's (eslint-config-prettier turns off the rules that would disagree with it). `npm run lint` runs both.
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CODE = ['**/*.{ts,mts,js,mjs,cjs}'];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'src/generated/',
      'src/modules/types.generated.ts',
      'src/rest/gql/',
      'tests/kit/gql/',
      'bench/results/',
      '.data/',
      '.tmp/',
      'coverage/',
      'schema/',
    ],
  },
  {
    // The public schema (docs/schema-evolution.md): names clients can rely on, a description on everything
    // the playground documents, and a reason with every deprecation.
    files: ['src/modules/**/*.graphql'],
    languageOptions: { parser: graphqlPlugin.parser, parserOptions: { graphQLConfig: { schema: 'src/modules/**/*.graphql' } } },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      '@graphql-eslint/naming-convention': [
        'error',
        {
          types: 'PascalCase',
          FieldDefinition: 'camelCase',
          InputValueDefinition: 'camelCase',
          Argument: 'camelCase',
          EnumValueDefinition: 'UPPER_CASE',
        },
      ],
      '@graphql-eslint/require-description': [
        'error',
        {
          types: true,
          rootField: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
          DirectiveDefinition: true,
        },
      ],
      '@graphql-eslint/require-deprecation-reason': 'error',
      '@graphql-eslint/no-unreachable-types': 'error',
      '@graphql-eslint/known-type-names': 'error',
    },
  },
  {
    files: CODE,
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
  },
  {
    files: CODE,
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
    // Tests and benchmarks read much as untyped JSON and check its shape: REST bodies, logs, metrics, and the
    // GraphQL documents sent as text (built at run time, or invalid on purpose). The rules against `any` would ask
    // for a cast before every use, which proves nothing more than the check itself. The typed documents'
    // answers (tests/kit/gql, docs/testing.md) need none of this.
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
  { files: CODE, ...prettier },
);
