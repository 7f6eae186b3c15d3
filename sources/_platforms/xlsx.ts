/**
 * The cells of one named sheet of an Office Open XML workbook (.xlsx): a ZIP (jszip) of XML parts (cheerio in
 * XML mode). Enough of the format for published registers: shared and inline strings, numbers, and the
 * `_xHHHH_` escapes Excel writes for control characters, which are kept as written so a reader can split on
 * them. Styles are not read: a date is the number Excel stores.
 */
import * as cheerio from 'cheerio';
import JSZip from 'jszip';

export type SheetCell = string | number | null;

async function part(zip: JSZip, path: string): Promise<cheerio.CheerioAPI> {
  const file = zip.file(path);
  if (!file) throw new Error(`the workbook has no ${path}`);
  return cheerio.load(await file.async('string'), { xml: true });
}

/** "C12" → 2 (zero-based column of a cell reference). */
function columnIndex(reference: string): number {
  let index = 0;
  for (const letter of /^[A-Z]+/.exec(reference)?.[0] ?? '') index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/** The rows of the sheet named `sheetName`, each an array of cells by column (gaps are null). */
export async function readSheet(bytes: Uint8Array, sheetName: string): Promise<SheetCell[][]> {
  const zip = await JSZip.loadAsync(bytes);
  const workbook = await part(zip, 'xl/workbook.xml');
  const sheet = workbook('sheet').filter((_, element) => workbook(element).attr('name') === sheetName).first();
  if (sheet.length === 0) throw new Error(`the workbook has no sheet named "${sheetName}" (${workbook('sheet').map((_, e) => workbook(e).attr('name')).get().join(', ')})`);
  const relationId = sheet.attr('r:id');
  const relations = await part(zip, 'xl/_rels/workbook.xml.rels');
  const target = relations('Relationship').filter((_, element) => relations(element).attr('Id') === relationId).attr('Target');
  if (!target) throw new Error(`the workbook names no part for sheet "${sheetName}"`);
  const sheetPath = target.startsWith('/') ? target.slice(1) : `xl/${target}`;

  const shared: string[] = [];
  if (zip.file('xl/sharedStrings.xml')) {
    const strings = await part(zip, 'xl/sharedStrings.xml');
    // a rich-text string is several runs (<r><t>…</t></r>); its text is theirs joined
    strings('si').each((_, si) => {
      shared.push(strings(si).find('t').map((__, t) => strings(t).text()).get().join(''));
    });
  }

  const xml = await part(zip, sheetPath);
  const rows: SheetCell[][] = [];
  xml('sheetData > row').each((_, row) => {
    const cells: SheetCell[] = [];
    xml(row).children('c').each((__, c) => {
      const cell = xml(c);
      const index = columnIndex(cell.attr('r') ?? '');
      const type = cell.attr('t');
      const raw = cell.children('v').text();
      let value: SheetCell = null;
      if (type === 's') value = shared[Number(raw)] ?? null;
      else if (type === 'inlineStr') value = cell.find('is t').map((___, t) => xml(t).text()).get().join('');
      else if (type === 'str' || type === 'e') value = raw;
      else if (type === 'b') value = raw === '1' ? 'TRUE' : 'FALSE';
      else if (raw !== '') value = Number(raw);
      if (index < 0) return;
      while (cells.length < index) cells.push(null);
      cells[index] = value === '' ? null : value;
    });
    rows.push(cells);
  });
  return rows;
}
