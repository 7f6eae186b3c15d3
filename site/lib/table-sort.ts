// How a data table's rows compare when sorted by a column: by each cell's `data-sort` value when it has one
// (numbers and dates by value, not by their formatted text), else by its text as words.

/** Numbers by value, other keys as words (digits within them by value); an empty key (no value) last. */
export function compareKeys(a: string, b: string, ascending: boolean): number {
  if (a === '' || b === '') return (a === '' ? 1 : 0) - (b === '' ? 1 : 0);
  const [x, y] = [Number(a), Number(b)];
  const order = Number.isFinite(x) && Number.isFinite(y) ? x - y : a.localeCompare(b, 'en-AU', { numeric: true, sensitivity: 'base' });
  return ascending ? order : -order;
}
