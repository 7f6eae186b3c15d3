import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { MAX_FETCH_BYTES, SafeFetchError, type SafeFetcher } from '../../../lib/safe-fetch.ts';
import { acceptedList, DOCUMENT_FORMATS, sniffDocument, type DocumentFormat } from '../../documents/sniff.ts';
import type { IntakeDocument } from '../../documents/types.ts';
import { throwIfAtCap } from '../../usage/metered-call.ts';
import { base64Problem, formBodyProblem, hasJsonBody, parseJsonBody } from '../../schemas/common.ts';

/**
 * Document intake for every checker and bid upload (spec, Shared input conventions): multipart `file` or
 * `files`, JSON `{bytes_b64, filename}`, `{url}` (read through the SSRF-safe fetcher) or `{documents: [...]}`
 * of either. Each document is at most 25 MB (413, judged before anything is decoded or read on), never empty
 * (400), and of a format the checker reads, judged from its content by api/documents/sniff.ts and never from
 * its name (400 naming what was received).
 */

/** The spec's document size limit (Limits: 25 MB, uploads and URL fetches). */
export const MAX_DOCUMENT_BYTES = MAX_FETCH_BYTES;

/** What a checker takes (declared once per checker). */
export interface IntakeRules {
  /** The checker's requests as a plural subject of a sentence: "warrants", "identity checks". */
  checker: string;
  accepts: readonly DocumentFormat[];
  /** Documents per request: 1 for single-document checkers. */
  maxDocuments: number;
  /** How `{url}` documents are read: through the SSRF-safe fetcher, or not at all (warrants: 501). */
  url: { fetch: SafeFetcher } | 'unavailable';
  /**
   * Whether a JSON body's `text` field is a document (its UTF-8 bytes, judged like any other: plain text,
   * or HTML when it opens with a tag), for the checkers whose spec lists `text` (verify-references,
   * detect-ai-text, check-source-overlap). Default false: `text` stays an ordinary field.
   */
  textField?: boolean;
}

/** The documents of a request, and the request's other fields (form fields, or the JSON body's other keys) for the route's options. */
export interface Intake {
  documents: IntakeDocument[];
  fields: Record<string, unknown>;
}

/**
 * Reads a request's documents by the checker's rules. Throws `HTTPException` with `{detail}`-ready messages:
 * 400 (no document, an empty one, malformed base64, too many, a format not read, a refused URL),
 * 413 (over 25 MB), 501 (`{url}` where URL intake is unavailable), 502 (a URL that could not be read).
 */
export async function readDocuments(c: Context, rules: IntakeRules): Promise<Intake> {
  const raw = hasJsonBody(c) ? await fromJson(c, rules) : await fromMultipart(c, rules);
  if (raw.documents.length === 0) throw new HTTPException(400, { message: noDocument(rules) });
  if (raw.documents.length > rules.maxDocuments) {
    throw new HTTPException(400, { message: `${raw.documents.length} documents were sent; ${rules.checker} read at most ${rules.maxDocuments} documents in one request.` });
  }
  const documents: IntakeDocument[] = [];
  for (const [index, pending] of raw.documents.entries()) {
    const label = documentLabel(index, raw.documents.length, pending.filename);
    if (pending.fetches === true) throwIfAtCap(c);
    const bytes = await pending.read(label);
    if (bytes.byteLength === 0) throw new HTTPException(400, { message: `${label} is empty (0 bytes); send the file's content.` });
    if (bytes.byteLength > MAX_DOCUMENT_BYTES) throw new HTTPException(413, { message: tooLarge(label, bytes.byteLength) });
    const sniffed = await sniffDocument(bytes);
    if (sniffed.format === null || !rules.accepts.includes(sniffed.format)) {
      const received = sniffed.format === null ? sniffed.received : DOCUMENT_FORMATS[sniffed.format].received;
      throw new HTTPException(400, {
        message: `${label}: received ${received}; ${rules.checker} accept ${acceptedList(rules.accepts)}. The type is judged from the content, not the file name.`,
      });
    }
    documents.push({ bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: sniffed.kind, mime: sniffed.mime, filename: pending.filename });
  }
  return { documents, fields: raw.fields };
}

/** A document not read yet: how to get its bytes, and the name it came with. */
interface PendingDocument {
  filename: string | null;
  /** True when reading it fetches a URL: work a caller at its weekly cap is refused before it starts. */
  fetches?: boolean;
  read(label: string): Promise<Uint8Array>;
}

interface RawIntake {
  documents: PendingDocument[];
  fields: Record<string, unknown>;
}

async function fromMultipart(c: Context, rules: IntakeRules): Promise<RawIntake> {
  const mediaType = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'multipart/form-data') {
    throw new HTTPException(400, { message: `${noDocument(rules)} The request's Content-Type is ${mediaType ?? 'missing'}.` });
  }
  const problem = await formBodyProblem(c);
  if (problem !== null) throw new HTTPException(400, { message: problem });
  const form = await c.req.parseBody({ all: true });
  const documents: PendingDocument[] = [];
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(form)) {
    const values = Array.isArray(value) ? value : [value];
    if (name === 'file' || name === 'files' || name === 'files[]') {
      for (const entry of values) {
        if (typeof entry === 'string') throw new HTTPException(400, { message: `The form field ${name} holds text, not a file; attach the document as a file.` });
        documents.push({ filename: cleanFilename(entry.name), read: (label) => readUpload(entry, label) });
      }
    } else {
      fields[name] = value;
    }
  }
  return { documents, fields };
}

async function readUpload(file: File, label: string): Promise<Uint8Array> {
  if (file.size > MAX_DOCUMENT_BYTES) throw new HTTPException(413, { message: tooLarge(label, file.size) });
  return new Uint8Array(await file.arrayBuffer());
}

async function fromJson(c: Context, rules: IntakeRules): Promise<RawIntake> {
  const body = await parseJsonBody(c);
  if (body.kind === 'malformed') throw new HTTPException(400, { message: body.detail });
  if (body.kind === 'empty' || !isRecord(body.value)) throw new HTTPException(400, { message: noDocument(rules) });
  if (rules.textField === true && 'text' in body.value) return fromJsonText(body.value);
  const { documents: listed, bytes_b64: encoded, url, filename: _filename, ...fields } = body.value;
  const single = encoded !== undefined || url !== undefined;
  if (listed !== undefined && single) throw new HTTPException(400, { message: 'Send either `documents` or a single `bytes_b64`/`url`, not both.' });
  const entries: unknown[] = listed === undefined ? (single ? [body.value] : []) : Array.isArray(listed) ? listed : [listed];
  const documents = entries.map((entry, index) => jsonDocument(entry, index, entries.length, rules));
  return { documents, fields };
}

function fromJsonText(body: Record<string, unknown>): RawIntake {
  const { text, filename, ...fields } = body;
  if (typeof text !== 'string') throw new HTTPException(400, { message: '`text` must be a string: the document\'s text.' });
  for (const other of ['bytes_b64', 'url', 'documents']) {
    if (other in fields) throw new HTTPException(400, { message: `The body has both text and ${other}; send one document.` });
  }
  const bytes = new TextEncoder().encode(text);
  return { documents: [{ filename: typeof filename === 'string' ? cleanFilename(filename) : null, read: async () => bytes }], fields };
}

function jsonDocument(entry: unknown, index: number, count: number, rules: IntakeRules): PendingDocument {
  const where = count === 1 && index === 0 ? 'The body' : `documents[${index}]`;
  if (!isRecord(entry)) throw new HTTPException(400, { message: `${where} must be an object with bytes_b64 (and filename) or url.` });
  const filename = typeof entry['filename'] === 'string' ? cleanFilename(entry['filename']) : null;
  const { bytes_b64: encoded, url } = entry;
  if (encoded !== undefined && url !== undefined) throw new HTTPException(400, { message: `${where} has both bytes_b64 and url; send one of them.` });
  if (typeof encoded === 'string') {
    return { filename, read: async (label) => decodeBase64(encoded, label) };
  }
  if (typeof url === 'string') {
    if (rules.url === 'unavailable') {
      throw new HTTPException(501, { message: `${rules.checker} do not read documents from a URL; upload the file (multipart field \`file\`) or send its bytes as bytes_b64.` });
    }
    const fetcher = rules.url.fetch;
    return { filename: filename ?? urlFilename(url), fetches: true, read: (label) => fetchDocument(fetcher, url, label) };
  }
  throw new HTTPException(400, { message: `${where} has no document: give bytes_b64 (the file's bytes as base64) or url.` });
}

/** Decodes base64 after judging its size from its length alone, so an oversized document is refused undecoded. */
function decodeBase64(encoded: string, label: string): Uint8Array {
  const compact = encoded.replace(/[\t\n\r ]/g, '');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const decodedSize = Math.floor((compact.length * 3) / 4) - padding;
  if (decodedSize > MAX_DOCUMENT_BYTES) throw new HTTPException(413, { message: tooLarge(label, decodedSize) });
  const problem = base64Problem(compact);
  if (problem !== null) throw new HTTPException(400, { message: `${label}: bytes_b64 ${problem}.` });
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

async function fetchDocument(fetcher: SafeFetcher, url: string, label: string): Promise<Uint8Array> {
  try {
    const response = await fetcher(url);
    return new Uint8Array(response.body.buffer, response.body.byteOffset, response.body.byteLength);
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    const status = error.kind === 'refused' ? 400 : error.kind === 'too_large' ? 413 : 502;
    throw new HTTPException(status, { message: `${label}: ${error.message}` });
  }
}

function noDocument(rules: IntakeRules): string {
  const files = rules.maxDocuments === 1 ? 'the multipart field `file`' : 'the multipart field `files` (one part per document)';
  const json = rules.maxDocuments === 1 ? '`{bytes_b64, filename}`' : '`{documents: [{bytes_b64, filename}, …]}`';
  return `No document was sent; upload it in ${files}, or send JSON ${json}.`;
}

function documentLabel(index: number, count: number, filename: string | null): string {
  const name = filename === null ? '' : ` (${filename})`;
  return count === 1 ? `The document${name}` : `Document ${index + 1}${name}`;
}

function tooLarge(label: string, bytes: number): string {
  return `${label} is ${(bytes / (1024 * 1024)).toFixed(1)} MB; documents are limited to 25 MB (${MAX_DOCUMENT_BYTES} bytes). Send a smaller file, or fewer pages.`;
}

/** The name a caller gave, as metadata only: its last path segment without control characters, at most 200 characters. */
function cleanFilename(name: string): string | null {
  const cleaned = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return cleaned === '' ? null : cleaned;
}

function urlFilename(url: string): string | null {
  try {
    return cleanFilename(decodeURIComponent(new URL(url).pathname));
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
