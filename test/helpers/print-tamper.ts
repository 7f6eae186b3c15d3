import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';

/**
 * A printed figure rewritten in a real PDF's page content while everything else, the embedded e-invoice among
 * it, is kept: the edit a person makes who changes what an approver reads but not what accounting software books.
 *
 * Each page content stream is walked for its text-showing operators (Tj, TJ, ' and "), their strings decoded
 * through the font's ToUnicode map (or as single bytes for a simple font without one); every place the amount is
 * shown, in any grouping (1.234,56, 1,234.56, 1 234.56, 1234.56), has one digit replaced by another digit the same
 * font can show, and the string is written back as a hex string at the same place. Nothing is drawn over
 * anything: the old figure is gone from the page, not hidden. Any other printed text (an invoice number, a date)
 * is changed the same way by `withPrintedTextChanged`, one character of each match.
 */

interface ShownString {
  /** Which text-showing operator showed it (the strings of one TJ array share it). */
  operator: number;
  start: number;
  end: number;
  font: string;
  bytes: number[];
}

interface FontCodes {
  /** Bytes per character code. */
  width: 1 | 2;
  decode: Map<number, string>;
}

/**
 * The PDF with every printed occurrence of `amount` changed (the leading digit of its whole part, to the first
 * other digit every font showing it has); null when the page shows it nowhere or a font could show no other digit.
 * With `only`, just that occurrence (0-based, in page, content stream and text order) is changed and the others
 * are kept: the partial edit of a print that shows its total in several places.
 */
export async function withPrintedAmountChanged(bytes: Uint8Array, amount: number, only?: number): Promise<{ pdf: Uint8Array; printed: string; changed: number } | null> {
  const [whole, cents] = Math.abs(amount).toFixed(2).split('.') as [string, string];
  const pattern = printedAmountPattern(amount);
  const first = Number(whole[0]);
  const digits = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((step) => String((first + step) % 10)).filter((digit) => digit !== '0' || whole.length === 1);
  const copy = await withPrintedTextChanged(bytes, pattern, digits.map((digit) => () => ({ offset: 0, character: digit })), only);
  return copy && { pdf: copy.pdf, printed: `${digits[copy.edit]}${whole.slice(1)}.${cents}`, changed: copy.changed };
}

/** Every printed place of the amount, in any grouping (1.234,56, 1,234.56, 1 234.56, 1234.56), as a global pattern. */
export function printedAmountPattern(amount: number): RegExp {
  const [whole, cents] = Math.abs(amount).toFixed(2).split('.') as [string, string];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u0000').split('\u0000');
  return new RegExp(`(?<!\\d)(?<!\\d[.,])(${grouped.join(")[.,' \\u00a0\\u202f]?(")})[.,](${cents})(?!\\d)`, 'g');
}

/** One character of a matched text to replace: its offset in the match and the character put there. */
export type TextEdit = (matched: string) => { offset: number; character: string } | null;

/**
 * The PDF with every printed match of `pattern` (global; matched against the text each BT…ET block shows, one
 * operator's text apart from the next by U+0001) edited by the first of `edits` every font showing a match can
 * carry out, with which edit that was; null when the page shows no match or no edit could be made. With `only`,
 * just that occurrence is edited.
 */
export async function withPrintedTextChanged(bytes: Uint8Array, pattern: RegExp, edits: readonly TextEdit[], only?: number): Promise<{ pdf: Uint8Array; changed: number; edit: number } | null> {
  for (const [index, edit] of edits.entries()) {
    const document = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    const changed = rewritePages(document, pattern, edit, only === undefined ? () => true : (occurrence) => occurrence === only);
    if (changed === null) continue;
    if (changed === 0) return null;
    return { pdf: await document.save({ useObjectStreams: false, updateFieldAppearances: false }), changed, edit: index };
  }
  return null;
}

/** Which occurrences of the text to change, by their 0-based number in the document. */
type OccurrenceFilter = (occurrence: number) => boolean;

/** How many occurrences were changed in the document's page content; null when an edit could not be made or a font could not show its character. */
function rewritePages(document: PDFDocument, pattern: RegExp, edit: TextEdit, chosen: OccurrenceFilter): number | null {
  let changed = 0;
  const seen = { count: 0 };
  for (const page of document.getPages()) {
    const fonts = fontsOf(document.context, page.node.Resources());
    for (const ref of contentRefs(page.node.get(PDFName.of('Contents')))) {
      const stream = document.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      const content = decoded(stream);
      if (content === null) continue;
      const result = rewrite(content, fonts, pattern, edit, (occurrence) => chosen(seen.count + occurrence));
      if (result !== null) seen.count += result.seen;
      if (result === null) return null;
      if (result.changed === 0) continue;
      changed += result.changed;
      const dict = stream.dict.clone(document.context);
      dict.delete(PDFName.of('Filter'));
      dict.delete(PDFName.of('DecodeParms'));
      dict.set(PDFName.of('Length'), document.context.obj(result.content.length));
      document.context.assign(ref, PDFRawStream.of(dict, result.content));
    }
  }
  return changed;
}

function contentRefs(contents: PDFObject | undefined): PDFRef[] {
  if (contents instanceof PDFRef) return [contents];
  if (contents instanceof PDFArray) return contents.asArray().filter((item): item is PDFRef => item instanceof PDFRef);
  return [];
}

function decoded(stream: PDFRawStream): Uint8Array | null {
  const filter = stream.dict.get(PDFName.of('Filter'));
  if (filter === undefined) return stream.contents;
  if (filter instanceof PDFName && filter.asString() === '/FlateDecode') return new Uint8Array(inflateSync(stream.contents));
  return null;
}

/** Each font resource's code width and character codes, from its ToUnicode map or, for a simple font, its bytes. */
function fontsOf(context: PDFContext, resources: PDFDict | undefined): Map<string, FontCodes> {
  const fonts = new Map<string, FontCodes>();
  const dict = resources?.lookupMaybe(PDFName.of('Font'), PDFDict);
  if (!dict) return fonts;
  for (const [name, value] of dict.entries()) {
    const font = context.lookup(value);
    if (!(font instanceof PDFDict)) continue;
    const composite = font.get(PDFName.of('Subtype'))?.toString() === '/Type0';
    const toUnicode = context.lookup(font.get(PDFName.of('ToUnicode')));
    const codes: FontCodes = { width: composite ? 2 : 1, decode: new Map() };
    if (toUnicode instanceof PDFRawStream) {
      const cmap = decoded(toUnicode);
      if (cmap) readCMap(new TextDecoder('latin1').decode(cmap), codes);
    } else if (!composite) {
      for (let code = 32; code < 127; code++) codes.decode.set(code, String.fromCharCode(code));
    }
    fonts.set(name.asString(), codes);
  }
  return fonts;
}

function readCMap(text: string, codes: FontCodes): void {
  const unicode = (hex: string) => String.fromCharCode(...(hex.match(/.{4}/g) ?? [hex]).map((unit) => parseInt(unit, 16)));
  const space = /begincodespacerange\s*<([0-9a-fA-F]+)>/.exec(text);
  if (space) codes.width = space[1]!.length > 2 ? 2 : 1;
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const pair of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) codes.decode.set(parseInt(pair[1]!, 16), unicode(pair[2]!));
  }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const range of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<[0-9a-fA-F]+>|\[[^\]]*\])/g)) {
      const [low, high] = [parseInt(range[1]!, 16), parseInt(range[2]!, 16)];
      const targets = range[3]!.startsWith('[') ? [...range[3]!.matchAll(/<([0-9a-fA-F]+)>/g)].map((match) => unicode(match[1]!)) : null;
      const first = targets ? 0 : parseInt(range[3]!.slice(1, -1), 16);
      for (let code = low; code <= high && code - low < 65_536; code++) codes.decode.set(code, targets ? (targets[code - low] ?? '') : String.fromCharCode(first + code - low));
    }
  }
}

/**
 * The content with the pattern's text edited wherever its text shows it and `chosen` takes the occurrence (numbered from 0
 * in this stream), with how many occurrences it saw; null when a chosen occurrence's edit cannot be made or its font cannot show the new character.
 */
function rewrite(content: Uint8Array, fonts: Map<string, FontCodes>, pattern: RegExp, edit: TextEdit, chosen: OccurrenceFilter): { content: Uint8Array; changed: number; seen: number } | null {
  const shown = shownStrings(content);
  // The text of each BT…ET block, one character per code, with where each character came from.
  const edits = new Map<ShownString, Map<number, number>>();
  let changed = 0;
  let seen = 0;
  for (const block of groupedByBlock(shown)) {
    const characters: { text: string; string: ShownString; index: number }[] = [];
    let operator = -1;
    for (const string of block) {
      const font = fonts.get(string.font);
      if (!font) continue;
      // Each operator's text apart from the next: a table's cells are shown one by one and "380,00" "0,00" is not one figure.
      if (string.operator !== operator && characters.length > 0) characters.push({ text: '\u0001', string, index: -1 });
      operator = string.operator;
      for (let index = 0; index + font.width <= string.bytes.length; index += font.width) {
        const code = font.width === 2 ? string.bytes[index]! * 256 + string.bytes[index + 1]! : string.bytes[index]!;
        characters.push({ text: font.decode.get(code) ?? '\u0000', string, index });
      }
    }
    const text = characters.map((character) => (character.text.length === 1 ? character.text : '\u0000')).join('');
    for (const match of text.matchAll(pattern)) {
      if (!chosen(seen++)) continue;
      const change = edit(match[0]);
      if (change === null) return null;
      const at = characters[match.index + change.offset]!;
      if (at.index === -1) return null;
      const font = fonts.get(at.string.font)!;
      const code = [...font.decode.entries()].find(([, value]) => value === change.character)?.[0];
      if (code === undefined) return null;
      const string = edits.get(at.string) ?? new Map<number, number>();
      string.set(at.index, code);
      edits.set(at.string, string);
      changed++;
    }
  }
  if (changed === 0) return { content, changed, seen };
  const parts: Uint8Array[] = [];
  let cursor = 0;
  for (const string of [...edits.keys()].sort((a, b) => a.start - b.start)) {
    const font = fonts.get(string.font)!;
    const bytes = [...string.bytes];
    for (const [index, code] of edits.get(string)!) {
      if (font.width === 2) [bytes[index], bytes[index + 1]] = [code >> 8, code & 0xff];
      else bytes[index] = code;
    }
    parts.push(content.subarray(cursor, string.start), new TextEncoder().encode(`<${bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('')}>`));
    cursor = string.end;
  }
  parts.push(content.subarray(cursor));
  return { content: Buffer.concat(parts), changed, seen };
}

function groupedByBlock(shown: (ShownString | 'BT')[]): ShownString[][] {
  const blocks: ShownString[][] = [[]];
  for (const item of shown) {
    if (item === 'BT') blocks.push([]);
    else blocks.at(-1)!.push(item);
  }
  return blocks;
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([...'()<>[]{}/%'].map((character) => character.charCodeAt(0)));

/** The strings shown by text operators, in order, each with its byte span and the font in force; 'BT' where a text block begins. */
function shownStrings(content: Uint8Array): (ShownString | 'BT')[] {
  const result: (ShownString | 'BT')[] = [];
  let pending: ShownString[] = [];
  let lastName = '';
  let font = '';
  let operators = 0;
  let position = 0;
  while (position < content.length) {
    const byte = content[position]!;
    if (WHITESPACE.has(byte)) {
      position++;
    } else if (byte === 0x25) {
      while (position < content.length && content[position] !== 0x0a && content[position] !== 0x0d) position++;
    } else if (byte === 0x28) {
      const { end, bytes } = literalString(content, position);
      pending.push({ operator: -1, start: position, end, font, bytes });
      position = end;
    } else if (byte === 0x3c && content[position + 1] !== 0x3c) {
      const end = content.indexOf(0x3e, position) + 1;
      const hex = new TextDecoder('latin1').decode(content.subarray(position + 1, end - 1)).replace(/\s+/g, '');
      const padded = hex.length % 2 === 0 ? hex : `${hex}0`;
      pending.push({ operator: -1, start: position, end, font, bytes: (padded.match(/../g) ?? []).map((pair) => parseInt(pair, 16)) });
      position = end;
    } else if (byte === 0x2f) {
      let end = position + 1;
      while (end < content.length && !WHITESPACE.has(content[end]!) && !DELIMITERS.has(content[end]!)) end++;
      lastName = new TextDecoder('latin1').decode(content.subarray(position, end));
      position = end;
    } else if (DELIMITERS.has(byte)) {
      position += byte === 0x3c || byte === 0x3e ? (content[position + 1] === byte ? 2 : 1) : 1;
    } else {
      let end = position;
      while (end < content.length && !WHITESPACE.has(content[end]!) && !DELIMITERS.has(content[end]!)) end++;
      const word = new TextDecoder('latin1').decode(content.subarray(position, end));
      position = end;
      operators++;
      if (word === 'Tf') font = lastName;
      else if (word === 'BT') result.push('BT');
      else if (word === 'Tj' || word === 'TJ' || word === "'" || word === '"') result.push(...pending.map((string) => ({ ...string, font, operator: operators })));
      else if (word === 'ID') position = inlineImageEnd(content, position);
      if (!/^[-+.\d]+$/.test(word)) pending = [];
    }
  }
  return result;
}

/** A literal string's end and bytes, its escapes and balanced parentheses read as ISO 32000-1 §7.3.4.2 says. */
function literalString(content: Uint8Array, start: number): { end: number; bytes: number[] } {
  const bytes: number[] = [];
  let depth = 0;
  let position = start;
  const escapes: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c };
  while (position < content.length) {
    const byte = content[position]!;
    if (byte === 0x5c) {
      const next = content[position + 1]!;
      if (next >= 0x30 && next <= 0x37) {
        let digits = '';
        let cursor = position + 1;
        while (digits.length < 3 && content[cursor]! >= 0x30 && content[cursor]! <= 0x37) digits += String.fromCharCode(content[cursor++]!);
        bytes.push(parseInt(digits, 8) & 0xff);
        position = cursor;
        continue;
      }
      if (next === 0x0d || next === 0x0a) position += next === 0x0d && content[position + 2] === 0x0a ? 3 : 2;
      else {
        bytes.push(escapes[next] ?? next);
        position += 2;
      }
      continue;
    }
    if (byte === 0x28) depth++;
    if (byte === 0x29) depth--;
    if (depth === 0) return { end: position + 1, bytes };
    if (position > start) bytes.push(byte);
    position++;
  }
  return { end: position, bytes };
}

/** Past an inline image's data, which may hold any bytes, to the `EI` that ends it. */
function inlineImageEnd(content: Uint8Array, from: number): number {
  for (let position = from + 1; position + 1 < content.length; position++) {
    if (content[position] === 0x45 && content[position + 1] === 0x49 && WHITESPACE.has(content[position - 1]!) && (position + 2 >= content.length || WHITESPACE.has(content[position + 2]!))) return position + 2;
  }
  return content.length;
}
