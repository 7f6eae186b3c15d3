/**
 * Builds the labelled tender documents in fixtures/bids/ from their marked-up sources in fixtures/bids/sources/.
 * A source names its format, the header and footer printed on every page (PDF only) and its pages, separated by
 * a line `<<page>>`. Each requirement a person marked in it reads `[[kind m|text]]` (mandatory) or
 * `[[kind o|text]]` (not mandatory), with an optional weight: `[[criterion o 30|text]]`. The script writes the
 * document without the marks (.txt, .docx through `docx`, or .pdf through pdf-lib) and `<id>.labels.json` with
 * every marked requirement and its span in the page text as written.
 *
 *   node --import ./lib/node-guard.mjs scripts/bid-fixtures.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from 'docx';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { z } from 'zod';

const folder = path.join(import.meta.dirname, '..', 'fixtures', 'bids');
const kinds = ['clause', 'schedule', 'criterion', 'condition'] as const;

const headerSchema = z.object({
  format: z.enum(['text', 'docx', 'pdf']),
  title: z.string(),
  header: z.string().default(''),
  footer: z.string().default(''),
  held_out: z.enum(['yes', 'no']),
});

interface LabelledRequirement {
  kind: (typeof kinds)[number];
  mandatory: boolean;
  weight: number | null;
  page: number;
  start: number;
  end: number;
  text: string;
}

interface Source {
  id: string;
  meta: z.infer<typeof headerSchema>;
  pages: string[];
  labels: LabelledRequirement[];
}

const mark = /\[\[(clause|schedule|criterion|condition) (m|o)(?: (\d+(?:\.\d+)?))?\|([\s\S]*?)\]\]/g;

function parseSource(id: string, raw: string): Source {
  const [head, body] = raw.split(/\n---\n/, 2);
  if (head === undefined || body === undefined) throw new Error(`${id}: a source starts with key: value lines, then a line ---`);
  const meta = headerSchema.parse(Object.fromEntries(head.split('\n').map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()])));
  const labels: LabelledRequirement[] = [];
  const pages = body.split(/\n<<page>>\n/).map((marked, index) => {
    let text = '';
    let last = 0;
    for (const match of marked.matchAll(mark)) {
      text += marked.slice(last, match.index);
      const inner = match[4]!;
      labels.push({ kind: match[1] as LabelledRequirement['kind'], mandatory: match[2] === 'm', weight: match[3] ? Number(match[3]) : null, page: index + 1, start: text.length, end: text.length + inner.length, text: inner });
      text += inner;
      last = match.index + match[0].length;
    }
    text += marked.slice(last);
    if (text.includes('[[') || text.includes(']]')) throw new Error(`${id} page ${index + 1}: a mark is not closed`);
    return text;
  });
  return { id, meta, pages: pages.map((page, index) => (index === pages.length - 1 ? page.replace(/\n+$/, '') : page)), labels };
}

const pageSize = { width: 595, height: 842 };
const margin = { left: 56, right: 56, top: 60, bottom: 60 };
const bodySize = 10;
const leading = 13;

function wrap(text: string, font: PDFFont, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && font.widthOfTextAtSize(candidate, bodySize) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line !== '') lines.push(line);
  return lines;
}

async function renderPdf(source: Source): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setTitle(source.meta.title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const width = pageSize.width - margin.left - margin.right;
  for (const [index, text] of source.pages.entries()) {
    const page = pdf.addPage([pageSize.width, pageSize.height]);
    const stamp = (template: string, top: number): void => {
      if (template !== '') page.drawText(template.replace('{n}', String(index + 1)).replace('{N}', String(source.pages.length)), { x: margin.left, y: pageSize.height - top, size: 8, font });
    };
    stamp(source.meta.header, 30);
    stamp(source.meta.footer, pageSize.height - 30);
    let top = margin.top + bodySize;
    for (const paragraph of text.split('\n')) {
      if (paragraph.trim() === '') {
        top += leading / 2;
        continue;
      }
      if (paragraph.includes('\t')) {
        // A table row: cells at fixed columns, as a PDF lays out a table.
        const cells = paragraph.split('\t');
        const column = width / cells.length;
        for (const [cellIndex, cell] of cells.entries()) page.drawText(cell, { x: margin.left + cellIndex * column, y: pageSize.height - top, size: bodySize, font });
        top += leading;
        continue;
      }
      for (const line of wrap(paragraph, font, width)) {
        page.drawText(line, { x: margin.left, y: pageSize.height - top, size: bodySize, font });
        top += leading;
      }
      if (top > pageSize.height - margin.bottom) throw new Error(`${source.id} page ${index + 1} overflows: move text to another page`);
    }
  }
  return pdf.save({ useObjectStreams: false });
}

async function renderDocx(source: Source): Promise<Uint8Array> {
  const children: (Paragraph | Table)[] = [];
  const lines = source.pages.join('\n').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === '') continue;
    if (line.includes('\t')) {
      const rows: TableRow[] = [];
      while (index < lines.length && lines[index]!.includes('\t')) {
        rows.push(new TableRow({ children: lines[index]!.split('\t').map((cell) => new TableCell({ children: [new Paragraph(cell)] })) }));
        index++;
      }
      index--;
      children.push(new Table({ rows, width: { size: 100, type: WidthType.PERCENTAGE } }));
      continue;
    }
    children.push(new Paragraph({ children: [new TextRun(line)] }));
  }
  const document = new Document({ creator: 'fixtures', title: source.meta.title, sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(document));
}

async function build(): Promise<void> {
  const sources = readdirSync(path.join(folder, 'sources')).filter((name) => name.endsWith('.txt')).sort();
  for (const name of sources) {
    const id = name.replace(/\.txt$/, '');
    const source = parseSource(id, readFileSync(path.join(folder, 'sources', name), 'utf8'));
    if (source.meta.format !== 'pdf' && source.pages.length > 1) throw new Error(`${id}: only a PDF has more than one page`);
    const file = `${id}.${source.meta.format === 'text' ? 'txt' : source.meta.format}`;
    const bytes = source.meta.format === 'pdf' ? await renderPdf(source) : source.meta.format === 'docx' ? await renderDocx(source) : new TextEncoder().encode(`${source.pages[0]}\n`);
    writeFileSync(path.join(folder, file), bytes);
    const labels = { document: id, file, title: source.meta.title, format: source.meta.format, held_out: source.meta.held_out === 'yes', requirements: source.labels };
    writeFileSync(path.join(folder, `${id}.labels.json`), `${JSON.stringify(labels, null, 2)}\n`);
    console.log(`${file}: ${source.pages.length} page(s), ${source.labels.length} requirements`);
  }
}

await build();
