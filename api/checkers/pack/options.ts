import { z } from 'zod';
import { documentTypeNames, type DocumentType } from '../document-types.ts';
import schemesFile from './schemes.json' with { type: 'json' };

const documentType = z.enum(documentTypeNames as [DocumentType, ...DocumentType[]], {
  error: (issue) => `${JSON.stringify(issue.input)} is not a document type this checker knows; known types: ${documentTypeNames.join(', ')}`,
});

/** A slot whose meaning depends on a date (most recent, previous consecutive, current): per accepted type, how old its page-1 date may be. */
const recency = z.strictObject({ within_days: z.partialRecord(documentType, z.number().int().positive()), why: z.string().min(1) });

const slot = z
  .strictObject({ key: z.string().min(1).max(64), label: z.string(), accepts: z.array(documentType).min(1), optional: z.boolean().default(false), recency: recency.optional() })
  .refine((slot) => Object.keys(slot.recency?.within_days ?? {}).every((type) => (slot.accepts as string[]).includes(type)), { message: 'a recency rule names only types the slot accepts' });

/** The packs file, checked when the module loads. */
export const packSchemes = z
  .record(
    z.string(),
    z.strictObject({
      name: z.string(),
      source: z.string(),
      slots: z.array(slot).min(1),
      flags: z.array(z.strictObject({ code: z.string(), types: z.array(documentType).min(1), min_transaction_lines: z.number().int().nonnegative(), message: z.string(), source: z.string() })),
    }),
  )
  .parse(schemesFile);

export type PackScheme = (typeof packSchemes)[string];
export type PackSlot = PackScheme['slots'][number];
export const packSchemeIds = Object.keys(packSchemes);

/** A custom requirement: a type name, or a slot of its own that several types may fill. */
export const packRequirement = z.union([documentType, z.strictObject({ key: z.string().min(1).max(64), accepts: z.array(documentType).min(1), optional: z.boolean().optional() })]);

/** The pack options a route checks before the analysis runs: a published scheme, or the caller's own requirements. */
export const packOptions = z
  .strictObject({
    scheme: z.enum(packSchemeIds as [string, ...string[]]).optional(),
    requirements: z.array(packRequirement).min(1).max(20).optional(),
  })
  .refine((options) => (options.scheme === undefined) !== (options.requirements === undefined), { message: 'Give either scheme or requirements (not both, not neither).' });

export type PackOptions = z.infer<typeof packOptions>;
