// Every data table of the site, once the page has loaded: its column headings become buttons that sort
// the rows (aria-sort says how), and a table naming its rows' path in the page's JSON twin gets a
// "Download CSV" button. A table of four columns or more has each cell labelled with its column's heading, so
// on a phone its rows stack (site.css), every number beside its heading instead of off the screen to the right.
// Without JavaScript the tables keep their published order, scroll sideways on a phone and no button shows.
import { rowsAt, toCsv } from '../lib/csv.ts';
import { compareKeys } from '../lib/table-sort.ts';

/** A cell's sort key: its `data-sort` (numbers and dates by value), else its text. */
function sortKey(row: HTMLTableRowElement, column: number): string {
  const cell = row.cells[column];
  return cell?.dataset.sort ?? cell?.textContent?.trim() ?? '';
}

function makeSortable(table: HTMLTableElement): void {
  const headings = Array.from(table.tHead?.rows[0]?.cells ?? []);
  const body = table.tBodies[0];
  if (!body || body.rows.length < 2) return;
  headings.forEach((heading, column) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'sort';
    button.append(...Array.from(heading.childNodes));
    heading.append(button);
    button.addEventListener('click', () => {
      const ascending = heading.getAttribute('aria-sort') !== 'ascending';
      for (const other of headings) other.removeAttribute('aria-sort');
      heading.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      const rows = Array.from(body.rows);
      rows.sort((a, b) => compareKeys(sortKey(a, column), sortKey(b, column), ascending));
      body.append(...rows);
    });
  });
}

function addCsvDownload(table: HTMLTableElement, twinHref: string, path: string): void {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'csv';
  button.textContent = 'Download CSV';
  button.setAttribute('aria-label', `Download CSV: ${table.caption?.textContent?.trim() ?? 'this table'}`);
  const status = document.createElement('span');
  status.setAttribute('role', 'status');
  button.addEventListener('click', async () => {
    status.textContent = '';
    try {
      const reply = await fetch(twinHref);
      if (!reply.ok) throw new Error(`the data file answered ${reply.status}`);
      const csv = toCsv(rowsAt(await reply.json(), path));
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const page = location.pathname.split('/').filter(Boolean).join('-') || 'home';
      link.download = `${page}-${path.replaceAll('.', '-').replaceAll('_', '-')}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      status.textContent = `The download failed (${error instanceof Error ? error.message : String(error)}); the JSON twin linked above holds the same rows.`;
    }
  });
  const actions = document.createElement('p');
  actions.className = 'table-actions';
  actions.append(button, ' ', status);
  (table.closest('.table-scroll') ?? table).after(actions);
}

/** Columns from which a table's rows stack on a narrow screen. */
const STACK_FROM_COLUMNS = 4;

function labelCells(table: HTMLTableElement): void {
  const headings = Array.from(table.tHead?.rows[0]?.cells ?? []).map((heading) => heading.textContent?.trim() ?? '');
  if (headings.length < STACK_FROM_COLUMNS) return;
  for (const body of Array.from(table.tBodies)) {
    for (const row of Array.from(body.rows)) Array.from(row.cells).forEach((cell, column) => { cell.dataset.label = headings[column] ?? ''; });
  }
  table.classList.add('stackable');
}

const twin = document.querySelector<HTMLLinkElement>('link[rel="alternate"][type="application/json"]')?.href;
for (const table of document.querySelectorAll<HTMLTableElement>('main table')) {
  labelCells(table);
  makeSortable(table);
  if (twin && table.dataset.csv) addCsvDownload(table, twin, table.dataset.csv);
}
