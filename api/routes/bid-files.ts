import { OpenAPIHono, createRoute, z, type RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { StateDb } from '../../data/state/db.ts';
import { bidDoor, BID_SECURITY, NO_ACCOUNT_REPLY, type BidEnv, type OpenBidEnv } from '../bids/access.ts';
import { BidFileListSchema, BidFileSchema, FileLinkSchema, FilePageSchema, FileParams, LinkParams, LinkQuery, PageParams, UploadForm } from '../bids/file-schemas.ts';
import { addBidFile, type FileReadListener } from '../bids/file-intake.ts';
import { BID_FILE_FORMATS } from '../bids/file-reading.ts';
import type { BidFileStore } from '../bids/file-store.ts';
import { bidFile, fileById, listBidFiles, storedPage, type BidFile } from '../bids/files.ts';
import type { RenderedPage } from '../bids/render-page.ts';
import { BidParams } from '../bids/schemas.ts';
import { checkFileLink, signFileLink } from '../bids/signed-links.ts';
import { MAX_DOCUMENT_BYTES, readDocuments } from '../checkers/_runner/intake.ts';
import { AnalysisPoolFullError, type AnalysisPool } from '../checkers/_runner/pool.ts';
import { bodyMediaType, invalidInputAnswers } from '../middleware/request-checks.ts';
import { routeBodyLimit } from '../middleware/body-limit.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export type { FileReadListener } from '../bids/file-intake.ts';

export interface BidFileRoutesOptions {
  state: StateDb;
  /** Where the bytes and page renders are kept (`<dataDir>/state/bid-files`). */
  files: BidFileStore;
  /** The analysis threads files are read and drawn in (api/checkers/_runner/pool.ts). */
  pool: AnalysisPool;
  /** Signs the short-lived file links (api/bids/signed-links.ts). */
  linkSecret: string;
  /** The service's public base address, which file links start with. */
  publicUrl: string;
  now: () => Date;
  onFileRead: readonly FileReadListener[];
  /** Where a failing file-read listener is reported (the upload is still answered 201). */
  log: (error: unknown, c: Context) => void;
}

// Multipart framing (boundaries, part headers) on top of the largest file allowed.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const TOO_LARGE = `The file is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB, the most a bid file may be; upload a smaller file or split it.`;
const PAGE_IMAGE = 'render_page';

const noAccount = errorReply(NO_ACCOUNT_REPLY);
const bidNotVisible = errorReply('No such bid, or the caller is not a member of its organisation: the same reply for both.');
const fileNotFound = errorReply('No such bid visible to the caller, or the bid holds no such file.');
const tags = ['Bids'];
const accountCallers = BID_SECURITY;

const listFilesRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/files',
  tags,
  security: accountCallers,
  summary: 'Files of a bid',
  request: { params: BidParams },
  responses: {
    200: { description: 'Every file, oldest upload first, with how its text was read.', content: json(BidFileListSchema) },
    401: noAccount,
    404: bidNotVisible,
  },
});

const uploadFileRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/files',
  tags,
  security: accountCallers,
  summary: 'Upload a file to a bid',
  description:
    'Multipart field `file`: PDF, Word (.docx), plain text or an image, at most 25 MB, its type judged from the content. ' +
    'Its text is read once, page by page, before the reply. The same bytes are stored once. Owners, admins and members may upload.',
  middleware: [
    // Refuses an oversized body from its Content-Length, or while it streams, before it is read whole.
    routeBodyLimit({ maxSize: MAX_DOCUMENT_BYTES + MULTIPART_OVERHEAD_BYTES, onError: (c) => c.json({ detail: TOO_LARGE }, 413) }),
    bodyMediaType('multipart'),
  ] as const,
  request: { params: BidParams, body: { required: true, content: { 'multipart/form-data': { schema: UploadForm } } } },
  responses: {
    201: { description: 'The stored file; `read_status` says whether its text was read.', content: json(BidFileSchema) },
    400: errorReply('No file, an empty one, a type bid files do not take, a ZIP that holds no Word document, or a name that claims another type than the content.'),
    401: noAccount,
    403: errorReply("The caller's role may not change bids (viewers read only)."),
    404: bidNotVisible,
    413: errorReply('The file is over 25 MB.'),
    415: errorReply('The body is not multipart/form-data.'),
    422: errorReply('The file would decompress past the limits a document may use (a decompression bomb), or reading it needed more memory than a document may use; nothing was stored.'),
    503: errorReply('Every document reading process is busy; nothing was stored (`Retry-After` says when to try again).'),
  },
});

const fileLinkRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/files/{file_id}/url',
  tags,
  security: accountCallers,
  summary: 'A short-lived link to a bid file',
  description: 'The link serves the file without a session for 15 minutes; the reply states when it stops working.',
  request: { params: FileParams },
  responses: {
    200: { description: 'The signed link and its expiry.', content: json(FileLinkSchema) },
    401: noAccount,
    404: fileNotFound,
  },
});

const pageRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/files/{file_id}/pages/{n}',
  tags,
  security: accountCallers,
  summary: "A page of a bid file: its text and a link to its image",
  request: { params: PageParams },
  responses: {
    200: { description: "The page's text as read at upload, and where to get it drawn as PNG.", content: json(FilePageSchema) },
    400: errorReply('`n` is not a whole number from 1.'),
    401: noAccount,
    404: errorReply('No such bid or file visible to the caller, the file has fewer pages, or its text could not be read.'),
  },
});

const pageImageRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/files/{file_id}/pages/{n}/image',
  tags,
  security: accountCallers,
  summary: 'A page of a bid file drawn as PNG',
  description: 'Drawn on first request (PDF pages at 108 dpi; images upright) and kept.',
  request: { params: PageParams },
  responses: {
    200: { description: 'The page as PNG.', content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } } },
    400: errorReply('`n` is not a whole number from 1.'),
    401: noAccount,
    404: errorReply('No such bid or file visible to the caller, the file has fewer pages, or it has no fixed pages to draw (.docx, text).'),
    422: errorReply('The page could not be drawn.'),
    503: errorReply('Every document thread is busy (`Retry-After` says when to try again).'),
  },
});

const signedFileRoute = createRoute({
  method: 'get',
  path: '/v1/bid-files/{file_id}',
  tags,
  summary: 'A bid file, through a signed link',
  description: 'Needs no session: the link from GET /v1/bids/{bid}/files/{file_id}/url is the permission, until it expires.',
  request: { params: LinkParams, query: LinkQuery },
  responses: {
    200: { description: "The file's bytes, with the type judged from its content.", content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
    400: errorReply('The link lacks its expiry or signature.'),
    403: errorReply('The link has expired, or it was altered (any change to the file id, expiry or signature voids it).'),
    404: errorReply('The file the link was made for is gone.'),
  },
});

/**
 * Bid files (spec, Bids): upload, list, signed links that work without the session, and each page's text
 * and image. Mounted by `bidRoutes` (api/routes/bids.ts), whose account check covers `/v1/bids/*`; the
 * signed-link route lives outside that path on purpose.
 */
export function bidFileRoutes(options: BidFileRoutesOptions): OpenAPIHono<BidEnv> {
  const { state, files, pool, now } = options;
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const app = new OpenAPIHono<BidEnv>({ defaultHook: invalidInputAnswers<BidEnv>(400) });

  const intake = (c: Context<OpenBidEnv>) => ({ state, files, pool, onFileRead: options.onFileRead, log: (error: unknown) => options.log(error, c) });
  const door = bidDoor(app, state);

  door.read(listFilesRoute, async (c) => c.json({ files: await listBidFiles(state, c.var.bid.bid_id) }, 200));

  door.write(uploadFileRoute, async (c) => {
    const { documents } = await readDocuments(c, { checker: 'bid files', accepts: BID_FILE_FORMATS, maxDocuments: 1, url: 'unavailable' });
    const added = await addBidFile(intake(c), { bidId: c.var.bid.bid_id, accountId: c.get('accountId'), document: documents[0]!, now: now() });
    if (added.ok) return c.json(added.file, 201);
    if (added.retryAfterSeconds !== undefined) c.header('Retry-After', String(added.retryAfterSeconds));
    return c.json({ detail: added.detail }, added.status);
  });

  door.read(fileLinkRoute, async (c) => {
    const found = await fileOf(state, c, c.req.valid('param').file_id);
    if ('detail' in found) return c.json({ detail: found.detail }, 404);
    const at = now();
    const link = signFileLink(options.linkSecret, found.file.file_id, at);
    return c.json(
      { url: `${publicUrl}${link.pathAndQuery}`, expires_at: link.expiresAt.toISOString(), expires_in_seconds: Math.round((link.expiresAt.getTime() - at.getTime()) / 1000) },
      200,
    );
  });

  door.read(pageRoute, async (c) => {
    const { file_id: fileId, n } = c.req.valid('param');
    const found = await fileOf(state, c, fileId);
    if ('detail' in found) return c.json({ detail: found.detail }, 404);
    const { file } = found;
    if (file.read_status === 'failed') return c.json({ detail: `${file.filename} has no pages to show: ${file.read_detail}` }, 404);
    const page = await storedPage(state, file.file_id, n);
    if (page === null) return c.json({ detail: pageMissing(file, n) }, 404);
    const drawable = file.kind === 'pdf' || file.kind === 'image';
    return c.json(
      {
        file_id: file.file_id,
        n,
        page_count: file.page_count,
        text: page.text,
        source: page.source,
        image_url: drawable ? `${publicUrl}/v1/bids/${file.bid_id}/files/${file.file_id}/pages/${n}/image` : null,
      },
      200,
    );
  });

  door.read(pageImageRoute, pageImageHandler(options));
  app.openapi(signedFileRoute, signedFileHandler(options));

  return app;
}

function pageMissing(file: BidFile, n: number): string {
  if (n > file.page_count) return `${file.filename} has ${file.page_count} page${file.page_count === 1 ? '' : 's'}, so there is no page ${n}.`;
  return `The text of page ${n} of ${file.filename} was not kept: only the first pages of a long document are read.`;
}

/** The open bid's file `fileId`, or the sentence of its 404. */
async function fileOf(state: StateDb, c: Context<OpenBidEnv>, fileId: string): Promise<{ file: BidFile } | { detail: string }> {
  const bidId = c.var.bid.bid_id;
  const file = await bidFile(state, bidId, fileId);
  return file ? { file } : { detail: `This bid holds no file with this id; GET /v1/bids/${bidId}/files lists its files.` };
}

/** GET …/pages/{n}/image: a PDF or image page drawn in an analysis process on first request, then kept. */
function pageImageHandler({ state, files, pool, now }: BidFileRoutesOptions): RouteHandler<typeof pageImageRoute, OpenBidEnv> {
  return async (c) => {
    const { file_id: fileId, n } = c.req.valid('param');
    const found = await fileOf(state, c, fileId);
    if ('detail' in found) return c.json({ detail: found.detail }, 404);
    const { file } = found;
    if (file.kind !== 'pdf' && file.kind !== 'image') {
      return c.json({ detail: `${file.filename} is ${file.kind === 'docx' ? 'a Word document' : 'plain text'}, which has no fixed pages to draw; GET …/pages/${n} gives its text.` }, 404);
    }
    if (n > file.page_count) return c.json({ detail: pageMissing(file, n) }, 404);
    let png = await files.render(file.sha256, n);
    if (png === null) {
      let outcome;
      try {
        const bytes = await files.read(file.sha256);
        outcome = await pool.run<RenderedPage>({
          analysis: PAGE_IMAGE,
          documents: [{ bytes, sha256: file.sha256, kind: file.kind, mime: file.content_type, filename: file.filename }],
          options: { page: n },
          now: now().toISOString(),
        });
      } catch (error) {
        if (!(error instanceof AnalysisPoolFullError)) throw error;
        c.header('Retry-After', String(error.retryAfterSeconds));
        return c.json({ detail: error.message }, 503);
      }
      if (!outcome.ok) return c.json({ detail: `Page ${n} of ${file.filename} could not be drawn: ${outcome.detail}` }, outcome.failure === 'refused' ? outcome.status : 422);
      png = outcome.result.png;
      await files.putRender(file.sha256, n, png);
    }
    return c.body(png as Uint8Array<ArrayBuffer>, 200, { 'content-type': 'image/png', 'cache-control': 'private, max-age=3600' });
  };
}

/** GET /v1/bid-files/{file_id}: the bytes, for a link signed and not yet expired. */
function signedFileHandler({ state, files, now, linkSecret }: BidFileRoutesOptions): RouteHandler<typeof signedFileRoute, BidEnv> {
  return async (c) => {
    const { file_id: fileId } = c.req.valid('param');
    const { expires, signature } = c.req.valid('query');
    const at = now();
    const check = checkFileLink(linkSecret, fileId, expires, signature, at);
    if (!check.ok) {
      const detail =
        check.reason === 'expired'
          ? `This file link expired at ${check.expiredAt.toISOString()}; ask for a new one with GET /v1/bids/{bid}/files/{file_id}/url (links last 15 minutes).`
          : 'This file link is not valid: it was altered or cut short, or was not made by this service. Use the whole link GET /v1/bids/{bid}/files/{file_id}/url gives.';
      return c.json({ detail }, 403);
    }
    const file = await fileById(state, fileId);
    if (!file) return c.json({ detail: 'The file this link was made for is no longer held.' }, 404);
    const bytes = await files.read(file.sha256);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': file.content_type,
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
  };
}
