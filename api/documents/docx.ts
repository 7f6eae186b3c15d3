import mammoth from 'mammoth';
import { textPage } from './plain-text.ts';
import type { PageText } from './types.ts';

/**
 * The text of a .docx as one page (a .docx has no fixed pages; Word lays them out when it opens the file),
 * paragraphs one to a line, without boxes. Throws for bytes that are not a readable .docx.
 */
export async function readDocxText(bytes: Uint8Array): Promise<PageText> {
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  return textPage(value);
}
