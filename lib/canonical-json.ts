/**
 * JSON with object keys sorted at every depth and undefined members left out, so equal values serialise alike
 * whatever order their keys came in: the content cache's option hashes and the idempotency fingerprint use it.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== 'object' || Array.isArray(member)) return member;
    return Object.fromEntries(Object.entries(member as Record<string, unknown>).filter(([, inner]) => inner !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }) ?? 'null';
}
