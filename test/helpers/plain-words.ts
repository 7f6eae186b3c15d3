// Words a person should never read on the site: the service's internal names and program values. Each pattern is
// swept over every built page's visible text and over the check page's rendered results.

export const RAW_WORDS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'snake_case name', pattern: /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g },
  { name: 'camelCase name', pattern: /\b[a-z]+[A-Z][a-z]+[A-Za-z]*\b/g },
  { name: 'program value', pattern: /(?<!-)\b(?:null|undefined|NaN|true|false)\b(?!-)/g },
  { name: 'ISO date or instant', pattern: /\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}[\d:.]*Z?)?\b/g },
  { name: 'bracketed internal name', pattern: /\[[a-z_]+\]/g },
  { name: 'header name', pattern: /\bSvc-[A-Z][a-z]+\b|\bIdempotency-Key\b|\bRateLimit-[A-Z][a-z]+\b/g },
  { name: 'CSV header', pattern: /\b[a-z]+(?:,[a-z_]+){2,}\b/g },
];

/** Each raw word found in `text`, as "what: the match". */
export function rawWords(text: string): string[] {
  return RAW_WORDS.flatMap(({ name, pattern }) => [...text.matchAll(pattern)].map((match) => `${name}: ${match[0]}`));
}
