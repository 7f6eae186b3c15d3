import { z } from '@hono/zod-openapi';

const checkName = z.enum(['document_number', 'birth_date', 'expiry_date', 'personal_number', 'composite']);

/** The machine-readable zone read on a document, without the holder's name, number or date of birth. */
export const identityZone = z
  .object({
    format: z.enum(['TD1', 'TD2', 'TD3', 'MRVA', 'MRVB']).describe('ICAO Doc 9303 layout: TD1 (3×30), TD2 (2×36), TD3 (2×44, passports), MRV-A (2×44) or MRV-B (2×36) visas'),
    document_code: z.string().describe('The document code as read, e.g. "P<", "ID", "IR", "V<"'),
    issuing_state: z.string().describe('ICAO code of the issuing state or organisation'),
    expires: z.string().nullable().describe('ISO expiry date, when the expiry date\'s own check digit verifies'),
    checks: z.array(z.object({ name: checkName, valid: z.boolean() })).describe('Each check digit of the layout and whether it verifies over the characters read'),
    valid: z.boolean().describe('Every check digit verifies. A failure means the zone was misread or the document altered: a signal to inspect the document'),
    corrections: z
      .array(z.object({ line: z.number().int(), column: z.number().int(), field: z.string(), read: z.string(), taken: z.string(), reason: z.string() }))
      .describe('Each character taken differently from what the zone reader read: where a field\'s type decides (a letter in a date), or where the two readings disagreed and a check digit or the line reader decided'),
    adjustments: z.array(z.string()).describe('How read lines were fitted to the layout\'s length (a run of fillers miscounted, characters outside the zone dropped)'),
    printed_agrees: z
      .object({ document_number: z.boolean().nullable(), date_of_birth: z.boolean().nullable(), expiry: z.boolean().nullable() })
      .describe('Whether the printed (visual-zone) document number, date of birth and expiry agree with the zone: false is a signal (an edited card, or a misread); null where the printed field was not read'),
    where: z.string(),
  })
  .openapi('IdentityZone');

/** One document of an identity check (spec, Identity-check result: documents). */
export const identityDocument = z
  .object({
    filename: z.string().nullable(),
    classified_type: z.string().describe('A document type of api/checkers/document-types.ts, or "unrecognised"'),
    shows: z.array(z.enum(['N', 'P', 'A', 'S'])).describe('N name, P photo, A address, S signature'),
    points: z.number().int(),
    counts: z.boolean(),
    note: z.string(),
    mrz: identityZone.nullable().describe('The machine-readable zone read on page 1, or null when none was readable'),
  })
  .openapi('IdentityDocument');

export const identityResult = z
  .object({
    scheme: z.object({ id: z.enum(['afp_100_point', 'austrac_safe_harbour']), name: z.string(), source: z.string() }),
    established: z.boolean(),
    rule: z.enum(['points_accumulation', 'category_path']),
    points: z.number().int().nullable(),
    target: z.number().int().nullable(),
    primaries: z.number().int().nullable(),
    satisfied_path: z.union([z.string(), z.record(z.string(), z.unknown())]).nullable(),
    reason: z.string(),
    documents: z.array(identityDocument),
    limitations: z.string(),
  })
  .openapi('IdentityCheckResult');

export type IdentityResult = z.infer<typeof identityResult>;
