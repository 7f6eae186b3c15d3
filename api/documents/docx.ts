import mammoth from 'mammoth';
import { guardDocx } from './guard.ts';
import { textPage } from './plain-text.ts';
import type { PageText } from './types.ts';

/**
 * The text of a .docx as one page (a .docx has no fixed pages; Word lays them out when it opens the file),
 * paragraphs one to a line, without boxes. The container is checked by the guarded open first (guard.ts:
 * entries, names and inflated sizes), so mammoth only ever reads a bounded Word document. Throws
 * DocumentRefused for one that is not, and mammoth's error for bytes it cannot read.
 */
export async function readDocxText(bytes: Uint8Array): Promise<PageText> {
  await guardDocx(bytes);
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  return textPage(value);
}
