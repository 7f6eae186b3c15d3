import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import type { WarrantBundle } from './bundle.ts';
import { describeWhere, groupOrder, groupTitles, signalsOf } from './report-md.ts';

/** A4 in points, with a 42 pt margin. */
const pageWidth = 595.28;
const pageHeight = 841.89;
const margin = 42;
const textWidth = pageWidth - 2 * margin;
const maxPages = 2;
/** Space a horizontal rule takes (Sheet.rule). */
const ruleHeight = 12;

const bandColours: Record<WarrantBundle['risk_band'], RGB> = {
  low: rgb(0.18, 0.49, 0.2),
  medium: rgb(0.85, 0.55, 0.05),
  high: rgb(0.78, 0.16, 0.16),
  insufficient: rgb(0.45, 0.45, 0.45),
  error: rgb(0.3, 0.3, 0.38),
};
const severityColours = { high: bandColours.high, medium: bandColours.medium, low: rgb(0.2, 0.4, 0.65), info: rgb(0.45, 0.45, 0.45) } as const;
const ink = rgb(0.1, 0.1, 0.12);
const grey = rgb(0.4, 0.4, 0.42);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  mono: PDFFont;
}

/** Common symbols outside WinAnsi spelt in ASCII; anything else a standard font cannot encode becomes "?". */
const spelt: Record<string, string> = { '→': '->', '←': '<-', '≠': '!=', '≤': '<=', '≥': '>=', '≈': '~', '−': '-' };

function encodable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  return [...text.replace(/[\t\r\n]+/g, ' ')].map((char) => (supported.has(char.codePointAt(0)!) ? char : (spelt[char] ?? '?'))).join('');
}

/** Greedy word wrap to `width`; a word longer than a line (a hash, a URL) is cut where it overflows. */
function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of encodable(font, text).split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A run of wrapped text: drawn only once it is known to fit, so a block never splits across pages. */
interface Paragraph {
  lines: string[];
  font: PDFFont;
  size: number;
  colour: RGB;
  indent: number;
  gapAfter: number;
}

function paragraph(font: PDFFont, size: number, text: string, options: { colour?: RGB; indent?: number; gapAfter?: number } = {}): Paragraph {
  const indent = options.indent ?? 0;
  return { lines: wrap(font, size, text, textWidth - indent), font, size, colour: options.colour ?? ink, indent, gapAfter: options.gapAfter ?? 4 };
}

const lineHeight = (block: Paragraph): number => block.size * 1.3;
const blockHeight = (blocks: Paragraph[]): number => blocks.reduce((sum, block) => sum + block.lines.length * lineHeight(block) + block.gapAfter, 0);

class Sheet {
  readonly pages: PDFPage[] = [];
  private y = 0;
  private readonly document: PDFDocument;
  private readonly footer: string;
  private readonly fonts: Fonts;

  constructor(document: PDFDocument, fonts: Fonts, footer: string) {
    this.document = document;
    this.fonts = fonts;
    this.footer = footer;
    this.newPage();
  }

  newPage(): void {
    const page = this.document.addPage([pageWidth, pageHeight]);
    this.pages.push(page);
    this.y = pageHeight - margin;
    page.drawText(encodable(this.fonts.regular, `${this.footer} · page ${this.pages.length}`), { x: margin, y: margin / 2, size: 7.5, font: this.fonts.regular, color: grey });
  }

  get room(): number {
    return this.y - margin;
  }

  get page(): PDFPage {
    return this.pages.at(-1)!;
  }

  /** Draws the blocks at the cursor (the caller has checked they fit). */
  draw(blocks: Paragraph[]): void {
    for (const block of blocks) {
      for (const line of block.lines) {
        this.y -= lineHeight(block);
        this.page.drawText(line, { x: margin + block.indent, y: this.y + block.size * 0.25, size: block.size, font: block.font, color: block.colour });
      }
      this.y -= block.gapAfter;
    }
  }

  /** A filled band across the text width with white text: the risk band. */
  drawBand(label: string, colour: RGB, font: PDFFont): void {
    const height = 30;
    this.y -= height;
    this.page.drawRectangle({ x: margin, y: this.y, width: textWidth, height, color: colour });
    this.page.drawText(encodable(font, label), { x: margin + 10, y: this.y + 10, size: 14, font, color: rgb(1, 1, 1) });
    this.y -= 8;
  }

  rule(): void {
    this.y -= ruleHeight / 3;
    this.page.drawLine({ start: { x: margin, y: this.y }, end: { x: pageWidth - margin, y: this.y }, thickness: 0.6, color: rgb(0.8, 0.8, 0.82) });
    this.y -= (ruleHeight * 2) / 3;
  }
}

/** The one-or-two-page PDF scorecard of a warrant (GET /v1/warrants/{id}/report.pdf). */
export async function warrantReportPdf(bundle: WarrantBundle): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(`Forensic warrant ${bundle.warrant_id}`);
  document.setSubject('Forensic inspection scorecard: signals for review, not a verdict');
  document.setProducer('pdf-lib');
  document.setCreator(`Document verification service ${bundle.engine_version}`);
  // The report's own dates are the inspection's, so the same warrant always renders the same bytes.
  document.setCreationDate(new Date(bundle.inspected_at));
  document.setModificationDate(new Date(bundle.inspected_at));
  const fonts: Fonts = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
    mono: await document.embedFont(StandardFonts.Courier),
  };
  const sheet = new Sheet(document, fonts, `${bundle.warrant_id} · ${bundle.permalink}`);
  const { summary } = bundle;

  sheet.draw([
    paragraph(fonts.bold, 18, 'Forensic warrant', { gapAfter: 2 }),
    paragraph(fonts.regular, 9, `${bundle.warrant_id} · inspected ${bundle.inspected_at} · engine ${bundle.engine_version} (inspection ${bundle.inspection_version})`, { colour: grey, gapAfter: 8 }),
    paragraph(fonts.bold, 10, `File: ${bundle.filename ?? '(no name given)'} (${bundle.file_kind}, ${bundle.size_bytes} bytes${summary.pages !== null ? `, ${summary.pages} page(s)` : ''}${summary.revisions !== null ? `, ${summary.revisions} revision(s)` : ''})`, { gapAfter: 2 }),
    paragraph(fonts.mono, 8.5, `SHA-256 ${bundle.sha256}`, { gapAfter: 2 }),
    paragraph(fonts.regular, 9, `Producer: ${summary.producer ?? 'not stated'} · Creator: ${summary.creator ?? 'not stated'}`, { colour: grey, gapAfter: 8 }),
  ]);
  sheet.drawBand(`Risk band: ${bundle.risk_band.toUpperCase()}   ·   inspection quality: ${bundle.inspection_quality}`, bandColours[bundle.risk_band], fonts.bold);
  sheet.draw([
    paragraph(fonts.bold, 11, summary.headline, { gapAfter: 4 }),
    paragraph(fonts.bold, 9.5, 'Recommended action', { gapAfter: 1 }),
    paragraph(fonts.regular, 9.5, bundle.recommended_action, { gapAfter: 4 }),
    paragraph(fonts.regular, 8.5, `How the band was chosen: ${summary.band_rule}`, { colour: grey, gapAfter: 2 }),
    paragraph(fonts.regular, 8.5, `Signals: ${groupOrder.map((group) => `${summary.counts[group]} ${group}`).join(', ')}.`, { colour: grey, gapAfter: 2 }),
  ]);
  sheet.rule();

  const limitations = [paragraph(fonts.bold, 9.5, 'Limitations', { gapAfter: 1 }), paragraph(fonts.regular, 8.5, bundle.limitations, { colour: grey, gapAfter: 0 })];
  const leftOut = (count: number): Paragraph => paragraph(fonts.regular, 8.5, `${count} more signal(s) did not fit on this scorecard: the full list is in the warrant at ${bundle.permalink}.`, { colour: grey, gapAfter: 6 });
  const ordered = groupOrder.flatMap((group) => signalsOf(bundle, group).map((signal, index) => ({ group, signal, first: index === 0 })));
  if (ordered.length === 0) sheet.draw([paragraph(fonts.regular, 9.5, 'No signals were raised.', { gapAfter: 6 })]);
  for (const [index, { group, signal, first }] of ordered.entries()) {
    const blocks = [
      ...(first ? [paragraph(fonts.bold, 11, `${groupTitles[group]} (${summary.counts[group]})`, { gapAfter: 3 })] : []),
      paragraph(fonts.bold, 9.5, `${signal.severity.toUpperCase()}  ${signal.code}: ${signal.title}`, { colour: severityColours[signal.severity], gapAfter: 1 }),
      paragraph(fonts.regular, 9, signal.found, { indent: 10, gapAfter: 1 }),
      paragraph(fonts.regular, 8, `Where: ${describeWhere(signal.where)}`, { colour: grey, indent: 10, gapAfter: 6 }),
    ];
    const remaining = ordered.length - index - 1;
    // On the last page keep room for the limitations and, if signals remain, the line saying so.
    const reserve = sheet.pages.length === maxPages ? ruleHeight + blockHeight(limitations) + (remaining > 0 ? blockHeight([leftOut(remaining)]) : 0) : 0;
    if (blockHeight(blocks) + reserve > sheet.room) {
      if (sheet.pages.length === maxPages) {
        sheet.draw([leftOut(ordered.length - index)]);
        break;
      }
      sheet.newPage();
    }
    sheet.draw(blocks);
  }
  if (ruleHeight + blockHeight(limitations) > sheet.room && sheet.pages.length < maxPages) sheet.newPage();
  sheet.rule();
  sheet.draw(limitations);
  return document.save({ useObjectStreams: false });
}
