import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { MAX_FETCH_BYTES, SafeFetchError, type SafeFetcher } from '../../lib/safe-fetch.ts';
import { throwIfAtCap } from '../usage/metered-call.ts';
import { base64Problem, formBodyProblem, hasJsonBody, parseJsonBody } from '../schemas/common.ts';
import { DOCX_ENTRY_LIMIT } from './limits.ts';
import type { DocumentKind, IntakeDocument } from './types.ts';

/**
 * Document intake for every checker (spec, Shared input conventions): multipart `file` or `files`, JSON
 * `{bytes_b64, filename}`, `{url}` (read through the SSRF-safe fetcher) or `{documents: [...]}` of either.
 * Each document is at most 25 MB (413, judged before anything is decoded or read on), never empty (400),
 * and of a format the checker reads, judged from its content and never from its name (400 naming what was
 * received).
 */

/** The spec's document size limit (Limits: 25 MB, uploads and URL fetches). */
export const MAX_DOCUMENT_BYTES = MAX_FETCH_BYTES;

/** The formats a checker may declare it reads. */
export type DocumentFormat = 'pdf' | 'png' | 'jpeg' | 'webp' | 'bmp' | 'tiff' | 'docx' | 'text' | 'html';

const FORMATS: Record<DocumentFormat, { kind: DocumentKind; name: string; received: string }> = {
  pdf: { kind: 'pdf', name: 'PDF', received: 'a PDF' },
  png: { kind: 'image', name: 'PNG', received: 'a PNG image' },
  jpeg: { kind: 'image', name: 'JPEG', received: 'a JPEG image' },
  webp: { kind: 'image', name: 'WebP', received: 'a WebP image' },
  bmp: { kind: 'image', name: 'BMP', received: 'a BMP image' },
  tiff: { kind: 'image', name: 'TIFF', received: 'a TIFF image' },
  docx: { kind: 'docx', name: 'Word (.docx)', received: 'a Word document (.docx)' },
  text: { kind: 'text', name: 'plain text', received: 'plain text' },
  html: { kind: 'html', name: 'HTML', received: 'an HTML page' },
};

/** file-type's extensions for the formats above. */
const FORMAT_OF_EXTENSION: Record<string, DocumentFormat> = { pdf: 'pdf', png: 'png', jpg: 'jpeg', webp: 'webp', bmp: 'bmp', tif: 'tiff' };
/** Names for some formats no checker reads, so a refusal says what arrived. */
const OTHER_RECEIVED: Record<string, string> = {
  zip: 'a ZIP archive',
  gif: 'a GIF image',
  heic: 'a HEIC image',
  avif: 'an AVIF image',
  doc: 'a Word 97-2003 document (.doc)',
  cfb: 'an Office 97-2003 document',
  xlsx: 'an Excel workbook (.xlsx)',
  pptx: 'a PowerPoint presentation (.pptx)',
  rtf: 'an RTF document',
  gz: 'a gzip archive',
  '7z': 'a 7-Zip archive',
  rar: 'a RAR archive',
  exe: 'a Windows program',
  mp4: 'an MP4 video',
  mp3: 'an MP3 audio file',
};

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

/** What the content says a document is: a format a checker may read, or a description of what it is instead. */
export type Sniffed = { format: DocumentFormat; kind: DocumentKind; mime: string } | { format: null; received: string };

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
      const received = sniffed.format === null ? sniffed.received : FORMATS[sniffed.format].received;
      throw new HTTPException(400, {
        message: `${label}: received ${received}; ${rules.checker} accept ${acceptedList(rules.accepts)}. The type is judged from the content, not the file name.`,
      });
    }
    documents.push({ bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: sniffed.kind, mime: sniffed.mime, filename: pending.filename });
  }
  return { documents, fields: raw.fields };
}

/** The formats as a sentence lists them: "PDF, PNG, JPEG, WebP, BMP or TIFF". */
export function acceptedList(accepts: readonly DocumentFormat[]): string {
  const names = accepts.map((format) => FORMATS[format].name);
  return names.length <= 1 ? (names[0] ?? 'nothing') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** How much of a document type detection reads: magic numbers, a ZIP's first entries, the opening of a text. */
const SNIFF_BYTES = 64 * 1024;
/** How far into a file readers look for the `%PDF-` header (pdf.js and qpdf: 1,024 bytes). */
const PDF_HEADER_WINDOW = 1024;
/** Formats whose signature opens the file and which readers open as such: they win over a PDF header behind them. */
const OPENING_SIGNATURES = new Set(['zip', 'docx', 'xlsx', 'pptx', 'odt', 'epub', 'png', 'jpg', 'webp', 'bmp', 'tif', 'gif', 'gz', '7z', 'rar', 'cfb', 'exe']);

/**
 * What the bytes are, from their content, reading only a bounded prefix and (for a ZIP) its end-of-central-
 * directory record: `file-type`'s magic numbers over the first 64 KB, and a PDF when `%PDF-` starts within
 * the first 1,024 bytes of a file that opens with no container's or image's signature; a ZIP is a Word document when its
 * central directory names `word/document.xml` (read here only when the directory fits the prefix; a larger
 * one is taken as a Word document to be checked), and is refused at once, nothing inflated, when the
 * directory counts more entries than a Word document is read with. What a Word document's entries inflate
 * to (and, for a large directory, whether it holds the Word part) is the guarded open's to check in the
 * analysis process (guard.ts): nothing of the container is inflated on the server's thread. Bytes file-type cannot name are plain text when they
 * decode as UTF-8 without control characters, and HTML when that text opens with an HTML tag.
 */
export async function sniffDocument(bytes: Uint8Array): Promise<Sniffed> {
  const detected = await fileTypeFromBuffer(bytes.subarray(0, SNIFF_BYTES));
  // A PDF header within the first 1,024 bytes makes a PDF, as pdf.js and qpdf read it, unless the file opens
  // with a container's or an image's own signature: junk before the header (which warrants report) can look
  // like a weaker magic number, such as an MP3 frame's.
  if ((detected === undefined || !OPENING_SIGNATURES.has(detected.ext)) && Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, PDF_HEADER_WINDOW)).includes('%PDF-')) {
    return { format: 'pdf', kind: 'pdf', mime: 'application/pdf' };
  }
  if (detected !== undefined) {
    const format = FORMAT_OF_EXTENSION[detected.ext];
    if (format !== undefined) return { format, kind: FORMATS[format].kind, mime: detected.mime };
    if (detected.ext === 'zip' || detected.ext === 'docx') {
      const directory = zipDirectory(bytes);
      if (directory !== null && directory.entries > DOCX_ENTRY_LIMIT) return { format: null, received: `a ZIP archive of ${directory.entries} entries (a Word document is read with at most ${DOCX_ENTRY_LIMIT})` };
      if (directory?.holdsWordDocument === false) return { format: null, received: 'a ZIP archive' };
      return { format: 'docx', kind: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' };
    }
    // XHTML and SVG are XML to file-type; XHTML is still a page of text.
    if (detected.ext !== 'xml') return { format: null, received: OTHER_RECEIVED[detected.ext] ?? `a file of type ${detected.mime}` };
  }
  const text = leadingText(bytes);
  if (text === null) return { format: null, received: 'binary data of a type that could not be recognised' };
  if (/^\s*(<!--[\s\S]*?-->\s*)*(<\?xml[^>]*>\s*)?(<!doctype\s+html|<html[\s>])/i.test(text)) return { format: 'html', kind: 'html', mime: 'text/html' };
  if (detected?.ext === 'xml') return { format: null, received: 'an XML file' };
  return { format: 'text', kind: 'text', mime: 'text/plain' };
}

/**
 * What a ZIP's end-of-central-directory record states (its Zip64 record's when the 16-bit fields are full),
 * found in the last 64 KB + 22 bytes where the record must sit: the entry count, and, when the directory itself
 * is no larger than the sniffing prefix, whether an entry is named `word/document.xml` (null when the
 * directory is larger: the analysis process reads it). Null when there is no record. Nothing is inflated.
 */
function zipDirectory(bytes: Uint8Array): { entries: number; holdsWordDocument: boolean | null } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = bytes.byteLength - 22; at >= Math.max(0, bytes.byteLength - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) !== 0x06054b50) continue;
    let entries = view.getUint16(at + 10, true);
    let size = view.getUint32(at + 12, true);
    let offset = view.getUint32(at + 16, true);
    if ((entries === 0xffff || offset === 0xffffffff) && at >= 20 && view.getUint32(at - 20, true) === 0x07064b50) {
      const zip64At = Number(view.getBigUint64(at - 12, true));
      if (zip64At + 56 <= bytes.byteLength && view.getUint32(zip64At, true) === 0x06064b50) {
        entries = Number(view.getBigUint64(zip64At + 32, true));
        size = Number(view.getBigUint64(zip64At + 40, true));
        offset = Number(view.getBigUint64(zip64At + 48, true));
      }
    }
    if (entries > DOCX_ENTRY_LIMIT || size > SNIFF_BYTES || offset + size > bytes.byteLength) return { entries, holdsWordDocument: null };
    return { entries, holdsWordDocument: directoryNames(bytes, offset, size).includes('word/document.xml') };
  }
  return null;
}

/** The entry names of a central directory of `size` bytes at `offset` (at most the sniffing prefix). */
function directoryNames(bytes: Uint8Array, offset: number, size: number): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const names: string[] = [];
  for (let at = offset; at + 46 <= offset + size && view.getUint32(at, true) === 0x02014b50; ) {
    const nameLength = view.getUint16(at + 28, true);
    names.push(Buffer.from(bytes.buffer, bytes.byteOffset + at + 46, Math.min(nameLength, offset + size - at - 46)).toString('utf8'));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return names;
}

/** The first 64 KB as text, or null when they are not UTF-8 text (invalid sequences, NUL or other control bytes). */
function leadingText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    // `stream: true` lets a character cut at the 64 KB boundary pass; anything else invalid throws.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 64 * 1024), { stream: true });
  } catch {
    return null;
  }
  return /[\u0000-\u0008\u000e-\u001f\u007f]/.test(text) ? null : text.replace(/^\ufeff/, '');
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
