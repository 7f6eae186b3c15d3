import { z } from '@hono/zod-openapi';
import { BidParams } from './schemas.ts';

/** Wire schemas of the bid file routes (api/routes/bid-files.ts). */

const instant = z.iso.datetime({ offset: true });

export const FileParams = BidParams.extend({
  file_id: z.string().openapi({ param: { name: 'file_id', in: 'path' }, description: 'The file id (`file_…`).', example: 'file_0a1b2c3d4e5f6071' }),
});

export const PageParams = FileParams.extend({
  n: z.coerce
    .number({ error: 'must be a page number: a whole number from 1' })
    .int({ error: 'must be a page number: a whole number from 1' })
    .min(1, { error: 'must be a page number: a whole number from 1' })
    .openapi({ param: { name: 'n', in: 'path' }, description: 'The page number, from 1.', example: 1, type: 'integer' }),
});

export const LinkParams = z.object({
  file_id: z.string().openapi({ param: { name: 'file_id', in: 'path' }, description: 'The file id the link was made for.' }),
});

export const LinkQuery = z.object({
  expires: z.string({ error: 'is missing: use the whole link GET /v1/bids/{bid}/files/{file_id}/url gave' }).openapi({ param: { name: 'expires', in: 'query' }, description: 'Unix seconds the link stops working at.' }),
  signature: z.string({ error: 'is missing: use the whole link GET /v1/bids/{bid}/files/{file_id}/url gave' }).openapi({ param: { name: 'signature', in: 'query' }, description: 'The service\'s signature of the file id and expiry.' }),
});

export const UploadForm = z.object({
  file: z
    .custom<File>((value) => value instanceof File, { error: 'must be one file, sent as the multipart/form-data field "file"' })
    .openapi({ type: 'string', format: 'binary', description: 'PDF, Word (.docx), plain text or an image (PNG, JPEG, WebP, BMP, TIFF), at most 25 MB.' }),
});

export const BidFileSchema = z
  .object({
    file_id: z.string(),
    bid_id: z.string(),
    filename: z.string().openapi({ description: 'The name the file was uploaded with (metadata only).' }),
    kind: z.enum(['pdf', 'image', 'docx', 'text', 'html']).openapi({ description: 'What the content is, judged from the bytes, never from the name.' }),
    content_type: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string().openapi({ description: 'The bytes are stored once under this hash, whichever bids hold them.' }),
    page_count: z.number().int().openapi({ description: 'Pages the document has (1 for .docx, text and images).' }),
    pages_read: z.number().int().openapi({ description: 'Pages whose text is kept (the first 500 of a longer PDF).' }),
    read_status: z.enum(['read', 'failed']).openapi({ description: '`failed`: the file is kept but its text could not be read (`read_detail` says why).' }),
    read_detail: z.string().nullable(),
    uploaded_by: z.string().openapi({ description: 'Email address of the member who uploaded it.' }),
    uploaded_at: instant,
  })
  .openapi('BidFile');

export const BidFileListSchema = z.object({ files: z.array(BidFileSchema) }).openapi('BidFileList');

export const FileLinkSchema = z
  .object({
    url: z.string().openapi({ description: 'Serves the file\'s bytes to anyone holding it, without a session, until `expires_at`.' }),
    expires_at: instant,
    expires_in_seconds: z.number().int(),
  })
  .openapi('BidFileLink');

export const FilePageSchema = z
  .object({
    file_id: z.string(),
    n: z.number().int(),
    page_count: z.number().int(),
    text: z.string().openapi({ description: 'The page\'s text as read when the file was uploaded (empty for a page without any).' }),
    source: z.enum(['text_layer', 'ocr']).openapi({ description: '`ocr` when the text was read from the page\'s image.' }),
    image_url: z
      .string()
      .nullable()
      .openapi({ description: 'The page drawn as PNG (same session); null for .docx and text, which have no fixed pages to draw.' }),
  })
  .openapi('BidFilePage');
