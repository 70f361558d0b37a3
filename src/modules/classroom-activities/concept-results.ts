import { createHash } from 'node:crypto';

/**
 * Identifies a concept result within its session: the same answer sent again (a retried finish_lesson,
 * a re-run import) is the same result, and the unique (session, fingerprint) index keeps it once.
 */
export function conceptResultFingerprint(conceptId: number, questionType: string, metadata: unknown): string {
  return createHash('sha256')
    .update(canonicalJson([conceptId, questionType, metadata]))
    .digest('base64url');
}

/**
 * JSON with object keys sorted, so that key order does not change the fingerprint. Written with its own
 * stack (values are client data); the text is the same as a recursive writer's, so that fingerprints
 * stored before stay valid.
 */
function canonicalJson(root: unknown): string {
  const out: string[] = [];
  // Pending work, last first: a value still to write, or text to copy.
  const todo: ({ text: string } | { value: unknown })[] = [{ value: root }];
  while (todo.length > 0) {
    const item = todo.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const { value } = item;
    if (Array.isArray(value)) {
      todo.push({ text: ']' });
      for (let index = value.length - 1; index >= 0; index -= 1) {
        todo.push({ value: value[index] });
        if (index > 0) todo.push({ text: ',' });
      }
      out.push('[');
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      todo.push({ text: '}' });
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, item] = entries[index]!;
        todo.push({ value: item }, { text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` });
      }
      out.push('{');
    } else {
      out.push(JSON.stringify(value) ?? 'null');
    }
  }
  return out.join('');
}
