import { z } from 'zod';
import { cacheKey, type ContentCache } from './_runner/content-cache.ts';
import { documentTypeNames, FIRST_PAGE_CLASSIFICATION_VERSION, type DocumentClassification } from './document-types.ts';

/** The content cache's checker name for page-1 classifications. */
export const FIRST_PAGE_CACHE_CHECKER = 'page1';

const isoDate = z.iso.date();
/** A stored classification, checked when it comes back from the state store. */
const storedClassification: z.ZodType<DocumentClassification> = z.strictObject({
  type: z.union([z.enum(documentTypeNames), z.literal('unrecognised')]),
  confidence: z.number().min(0).max(1),
  cues: z.array(z.string()),
  shows: z.array(z.enum(['N', 'P', 'A', 'S'])),
  expires: isoDate.nullable(),
  issued: isoDate.nullable(),
  issuerDigest: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
  transactionLines: z.number().int().nonnegative(),
  pensionCard: z.boolean(),
  zone: z
    .strictObject({
      format: z.enum(['TD1', 'TD2', 'TD3', 'MRVA', 'MRVB']),
      document_code: z.string().length(2),
      issuing_state: z.string().max(3),
      expires: isoDate.nullable(),
      checks: z.array(z.strictObject({ name: z.enum(['document_number', 'birth_date', 'expiry_date', 'personal_number', 'composite']), valid: z.boolean() })),
      valid: z.boolean(),
      corrections: z.array(z.strictObject({ line: z.number().int().positive(), column: z.number().int().positive(), field: z.string(), read: z.string().length(1), taken: z.string().length(1), reason: z.string() })),
      adjustments: z.array(z.string()),
      printed_agrees: z.strictObject({ document_number: z.boolean().nullable(), date_of_birth: z.boolean().nullable(), expiry: z.boolean().nullable() }),
      where: z.string(),
    })
    .nullable(),
});

/**
 * Page-1 classifications kept per document (spec, Other checker rules: "classified by one page-1 read,
 * hash-cached"), so a document sent again in another identity check or pack is not read again. Each is kept
 * in the content cache under the document's SHA-256 and FIRST_PAGE_CLASSIFICATION_VERSION. Only the
 * classification is kept (type, cue names, dates, a digest of the first line, counts), never the page's
 * text: an identity document's names and numbers must not outlive the request.
 */
export interface FirstPageStore {
  /** The stored classifications of these documents, by SHA-256. */
  known(sha256s: readonly string[]): Promise<Map<string, DocumentClassification>>;
  keep(sha256: string, classification: DocumentClassification, now: Date): Promise<void>;
}

export function firstPageStore(cache: ContentCache, version = FIRST_PAGE_CLASSIFICATION_VERSION): FirstPageStore {
  const keyOf = (sha256: string) => cacheKey({ checker: FIRST_PAGE_CACHE_CHECKER, documents: [{ sha256 }], options: null, engineVersion: version });
  return {
    async known(sha256s) {
      const classifications = new Map<string, DocumentClassification>();
      for (const sha256 of new Set(sha256s)) {
        // A stored value that no longer fits the shape is left out, so the document is read again.
        const stored = storedClassification.safeParse(await cache.get(keyOf(sha256)));
        if (stored.success) classifications.set(sha256, stored.data);
      }
      return classifications;
    },
    async keep(sha256, classification, now) {
      await cache.put(keyOf(sha256), classification, now);
    },
  };
}
