import { sha256Hex } from './hash.ts';
import { normaliseForKey } from './text.ts';

export interface KeyParts {
  source: string;
  jurisdiction: string;
  buyer: string | null;
  reference: string | null;
  title: string;
  url: string;
}

/**
 * The permanent key of a tender: 32 hex of SHA-256 over the normalised jurisdiction, buyer and published
 * reference, so the same notice keeps its key from night to night and across re-crawls. A tender that
 * publishes neither reference nor buyer gets `f` + 32 hex over source, URL and title. With a buyer but no
 * reference the title stands in for the reference, so one buyer's unreferenced tenders do not collide.
 */
export function tenderKey(parts: KeyParts): string {
  const buyer = normaliseForKey(parts.buyer);
  const reference = normaliseForKey(parts.reference);
  if (!buyer && !reference) {
    return `f${sha256Hex(['fallback', parts.source, parts.url.trim(), normaliseForKey(parts.title)].join('\u001f')).slice(0, 32)}`;
  }
  const referencePart = reference || `title:${normaliseForKey(parts.title)}`;
  return sha256Hex([normaliseForKey(parts.jurisdiction), buyer, referencePart].join('\u001f')).slice(0, 32);
}

export const TENDER_KEY_PATTERN = /^f?[0-9a-f]{32}$/;

/**
 * A buyer name as the buyer key reads it: lower-cased, runs of ASCII whitespace collapsed to one space, ends
 * trimmed. Exactly the `buyer_name_normalised` macro of data/models/_macros.sql (RE2's `\s` is `[\t\n\f\r ]`).
 */
export function normaliseBuyerName(name: string): string {
  return name.replace(/[\t\n\f\r ]+/g, ' ').replace(/^ | $/g, '').toLowerCase();
}

/**
 * The permanent key of a buyer: one per published spelling per jurisdiction (no alias merging; case and
 * whitespace are not spellings), e.g. `au-nsw-3f2a9c1b7d4e`. The same as the SQL macro `buyer_key` in
 * data/models/_macros.sql; null for a blank name.
 */
export function buyerKey(jurisdiction: string, name: string): string | null {
  const normalised = normaliseBuyerName(name);
  if (!normalised) return null;
  return `${jurisdiction.toLowerCase()}-${sha256Hex(`${jurisdiction}|${normalised}`).slice(0, 12)}`;
}

export const BUYER_KEY_PATTERN = /^[a-z]{2}(?:-[a-z]{2,3})?-[0-9a-f]{12}$/;
