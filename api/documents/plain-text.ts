import * as cheerio from 'cheerio';
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode } from 'domhandler';
import type { PageText } from './types.ts';

/** Elements that start a new line when a browser lays the page out. */
const lineBreakingElements =
  'p, div, li, tr, h1, h2, h3, h4, h5, h6, table, section, article, header, footer, dt, dd, blockquote, pre, address, ' +
  'main, nav, aside, figure, figcaption, form, fieldset, ul, ol, dl, details, summary';

/**
 * Text with no page geometry (plain text, HTML, .docx) as one page without boxes: lines trimmed, runs of
 * blank lines folded to one. Width and height are 0 because such text has no page size.
 */
export function textPage(text: string): PageText {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \u00a0]+/g, ' ').trimEnd());
  const folded = lines.filter((line, index) => line.trim() !== '' || (index > 0 && lines[index - 1]!.trim() !== '')).join('\n').trim();
  return { page: 1, width: 0, height: 0, source: 'text_layer', items: [], text: folded, confidence: 1 };
}

/** The visible text of an HTML document, a line per block element and a tab between table cells. */
export function htmlText(html: string): string {
  const $ = cheerio.load(html);
  $('script, style, noscript, template, head').remove();
  return visibleText($, $.root());
}

/**
 * The visible text of a parsed document's element (`htmlText` for a page already parsed), a line per block
 * element and a tab between table cells. It changes the element in place.
 */
export function visibleText($: CheerioAPI, root: Cheerio<AnyNode>): string {
  // Source line breaks and indentation inside text are not visible breaks: fold them before adding the real ones.
  root
    .find('*')
    .addBack()
    .not('pre, pre *')
    .contents()
    .each((_, node) => {
      if (node.type === 'text') node.data = node.data.replace(/\s+/g, ' ');
    });
  root.find('br').replaceWith('\n');
  root.find('td, th').append('\t');
  root.find(lineBreakingElements).append('\n');
  if (root.is(lineBreakingElements)) root.append('\n');
  return root.text().replace(/\t\n/g, '\n');
}
