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
