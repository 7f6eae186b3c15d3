import { z } from '@hono/zod-openapi';
import { errorReply, json } from './openapi-content.ts';

/**
 * Wire pieces every document checker route shares (spec, Shared input conventions and Document checkers):
 * the document fields of a JSON body and of a multipart body, the `stream` and `fresh` switches, the SSE
 * reply, and the error replies. The document fields are declared as text here; api/checkers/_runner/intake.ts
 * checks and decodes them (400 malformed or empty, 413 over 25 MB before decoding).
 */

export const documentBytes = z.string().openapi({
  type: 'string',
  format: 'byte',
  description: "The document's bytes, base64-encoded (standard or URL-safe alphabet); at most 25 MB once decoded.",
});
export const documentFilename = z.string().max(1000).openapi({ description: 'The file name, kept as metadata only: the type is judged from the content.' });
export const documentUrl = z.string().max(2048).openapi({ description: 'A public http(s) address to read the document from (SSRF-guarded, redirects checked hop by hop; 25 MB at most).' });

/** One document of a `documents` list. */
export const jsonDocument = z
  .strictObject({ bytes_b64: documentBytes.optional(), url: documentUrl.optional(), filename: documentFilename.optional() })
  .openapi('DocumentInput', { description: 'A document: `bytes_b64` (with `filename`), or `url`.' });

/** A file part of a multipart body. */
export const uploadedFile = z
  .custom<File>((value) => value instanceof File, { message: 'must be a file part, not text' })
  .openapi({ type: 'string', format: 'binary' });

/** A query switch: `1`/`true` on, `0`/`false` off. */
export function querySwitch(description: string) {
  return z
    .enum(['1', 'true', '0', 'false'], { error: 'must be 1, true, 0 or false' })
    .optional()
    .transform((value) => value === '1' || value === 'true')
    .openapi({ type: 'boolean', description });
}

export const streamSwitch = querySwitch('`1` answers with Server-Sent Events: `received`, heartbeats while it works, then `result` (the reply) or `error` (`{detail}`). Streamed calls are never replayed by Idempotency-Key.');
export const freshSwitch = querySwitch('`1` inspects again even when identical bytes were inspected before (the stored result is replaced).');

/** `fresh` as a document checker's MCP tool takes it: a JSON boolean, sent on as the route's query switch. */
export const freshArgument = z.boolean().optional().describe('true: inspect again even if identical bytes were checked before');

/** The reply of a checker: its JSON body, or with `stream=1` an event stream whose `result` event carries that body. */
export function checkerReply<T extends z.ZodType>(schema: T, description: string) {
  return {
    description,
    content: {
      'application/json': { schema },
      'text/event-stream': {
        schema: z.string().openapi({ description: 'With `stream=1`: events `received`, `working` (or `inspecting`) heartbeats, then `result` with the JSON reply, or `error` with `{detail}`.' }),
      },
    },
  };
}

/** The error replies every document checker may give. */
export const checkerErrors = {
  400: errorReply('No document, an empty one, malformed base64, too many documents, or a type the checker does not read (`detail` names what was received); or a URL the SSRF guard refuses.'),
  413: errorReply('A document, or the body a URL answered with, is over 25 MB.'),
  415: errorReply('The body is neither JSON nor multipart/form-data.'),
  422: errorReply('The body does not match the schema (`detail` names the field), or the document could not be analysed (time or memory limit).'),
  429: errorReply('The weekly allowance is used up; `Retry-After` says when it comes back.'),
  502: errorReply('A `url` document could not be fetched.'),
  503: errorReply('Every analysis slot is busy and the queue is full, or the usage meter is unreachable; `Retry-After` says when to try again.'),
} as const;
