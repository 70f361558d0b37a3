import { createHash } from 'node:crypto';

/**
 * Identifies a concept result within its session: the same answer sent again (a retried finish_lesson,
 * a re-run import) is the same result, and the unique (session, fingerprint) index keeps it once.
 */
export function conceptResultFingerprint(conceptId: number, questionType: string, metadata: unknown): string {
  return createHash('sha256').update(canonicalJson([conceptId, questionType, metadata])).digest('base64url');
}

/** JSON with object keys sorted, so that key order does not change the fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
