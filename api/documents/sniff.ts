import { fileTypeFromBuffer } from 'file-type';
import { DOCX_ENTRY_LIMIT } from './limits.ts';
import type { DocumentKind } from './types.ts';

/**
 * What a document is, judged from its content and never from its name: the formats a checker or a bid file
 * may be, and what arrived when it is none of them (api/checkers/_runner/intake.ts refuses those).
 */

/** The formats a checker may declare it reads. */
export type DocumentFormat = 'pdf' | 'png' | 'jpeg' | 'webp' | 'bmp' | 'tiff' | 'docx' | 'text' | 'html';

/** Each format's kind, its name in a list of what is accepted, and how a refusal names it when received. */
export const DOCUMENT_FORMATS: Record<DocumentFormat, { kind: DocumentKind; name: string; received: string }> = {
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

/** What the content says a document is: a format a checker may read, or a description of what it is instead. */
export type Sniffed = { format: DocumentFormat; kind: DocumentKind; mime: string } | { format: null; received: string };

/** The formats as a sentence lists them: "PDF, PNG, JPEG, WebP, BMP or TIFF". */
export function acceptedList(accepts: readonly DocumentFormat[]): string {
  const names = accepts.map((format) => DOCUMENT_FORMATS[format].name);
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
    if (format !== undefined) return { format, kind: DOCUMENT_FORMATS[format].kind, mime: detected.mime };
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
