import { cacheKey, type ContentCache } from '../documents/content-cache.ts';
import { FIRST_PAGE_READ_VERSION, firstPage, type FirstPage } from './first-page.ts';

/** The content cache's checker name for page-1 reads. */
export const FIRST_PAGE_CACHE_CHECKER = 'page1';

/**
 * Page-1 reads kept per document (spec, Other checker rules: "classified by one page-1 read,
 * hash-cached"), so a document sent again in another identity check or pack is classified without being
 * read again. Each read is kept in the content cache under the document's SHA-256 and the read's version;
 * only what was read (text, boxes, image facts) is kept, never the document's bytes.
 */
export interface FirstPageStore {
  /** The stored reads of these documents, by SHA-256. */
  known(sha256s: readonly string[]): Map<string, FirstPage>;
  keep(sha256: string, read: FirstPage, now: Date): void;
}

export function firstPageStore(cache: ContentCache, version = FIRST_PAGE_READ_VERSION): FirstPageStore {
  const keyOf = (sha256: string) => cacheKey({ checker: FIRST_PAGE_CACHE_CHECKER, documents: [{ sha256 }], options: null, engineVersion: version });
  return {
    known(sha256s) {
      const reads = new Map<string, FirstPage>();
      for (const sha256 of new Set(sha256s)) {
        // A stored read that no longer fits the shape is left out, so the document is read again.
        const stored = firstPage.safeParse(cache.get(keyOf(sha256)));
        if (stored.success) reads.set(sha256, stored.data);
      }
      return reads;
    },
    keep(sha256, read, now) {
      cache.put(keyOf(sha256), read, now);
    },
  };
}
