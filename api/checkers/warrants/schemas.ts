import { z } from '@hono/zod-openapi';
import { documentBytes, documentFilename, documentUrl, freshSwitch, streamSwitch, uploadedFile } from '../../schemas/checkers.ts';
import { malformedInputParams, sandboxField, strictQuery } from '../../schemas/common.ts';
import { warrantBundle } from './bundle.ts';
import { WARRANT_ID_PATTERN } from './store.ts';

/**
 * The warrant routes' wire schemas (spec, Warrant). The warrant is declared as the bundle's fields in one
 * object, so /openapi.json (and the MCP tools published from it) shows a plain object rather than the
 * analysis extended by reference (`allOf`).
 */
export const WarrantSchema = z.object(warrantBundle.shape).openapi('Warrant');

export const WarrantBody = z
  .strictObject({
    bytes_b64: documentBytes.optional(),
    filename: documentFilename.optional(),
    url: documentUrl.optional().openapi({ description: 'Not available for warrants: answers 501. Upload the file or send bytes_b64.' }),
    sandbox: sandboxField,
  })
  .openapi('WarrantRequest');

export const WarrantForm = z.object({ file: uploadedFile.optional().openapi({ description: 'The PDF or image to inspect.' }) });

export const WarrantQuery = strictQuery({ stream: streamSwitch, fresh: freshSwitch });

const warrantId = z
  .string()
  .refine((value) => WARRANT_ID_PATTERN.test(value), { message: 'is not a warrant id (`warrant_` and 16 lowercase hex characters)', params: malformedInputParams })
  .openapi({ param: { name: 'warrant_id', in: 'path' }, example: 'warrant_3f1c0a9b7d2e4f68' });

export const WarrantIdParams = z.object({ warrant_id: warrantId });
export const WarrantReadQuery = strictQuery({
  format: z.enum(['json', 'md'], { error: 'must be json or md' }).default('json').openapi({ description: '`json` (default): the bundle; `md`: the report as Markdown.' }),
});
export const WarrantCheckQuery = strictQuery({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be the file\'s SHA-256 as 64 lowercase hex characters' }).openapi({ description: 'The SHA-256 of the file, lowercase hex.' }),
});
export const WarrantCheckSchema = z
  .object({
    cached: z.boolean(),
    warrant_id: z.string().optional(),
    permalink: z.string().optional(),
  })
  .openapi('WarrantCacheCheck');

export const WarrantFeedbackBody = z
  .strictObject({
    verdict: z.enum(['up', 'down'], { error: 'must be up or down' }),
    note: z.string().trim().max(2000, { error: 'must be at most 2000 characters' }).optional(),
  })
  .openapi('WarrantFeedbackRequest');
export const WarrantFeedbackSchema = z
  .object({ feedback_id: z.string(), warrant_id: z.string(), verdict: z.enum(['up', 'down']), note: z.string().nullable(), recorded_at: z.string() })
  .openapi('WarrantFeedback');
