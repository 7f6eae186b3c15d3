// A table's rows as CSV (RFC 4180): the rows are read from the page's JSON twin by a dotted path, so the
// download holds the data as the API publishes it, not the page's formatted text; the header names each column
// in words (lib/glossary.ts), as a spreadsheet shows it to a person.
import { fieldName } from '../../lib/glossary.ts';

/** The value at a dotted path (`expiring.rows`) of a JSON twin, as a list of rows: an object alone is one row. */
export function rowsAt(twin: unknown, path: string): Record<string, unknown>[] {
  let value = twin;
  for (const step of path.split('.')) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
  }
  if (Array.isArray(value)) return value.filter((row): row is Record<string, unknown> => row !== null && typeof row === 'object');
  if (value !== null && typeof value === 'object') return [value as Record<string, unknown>];
  throw new Error(`The JSON twin has no rows at ${path}.`);
}

/** A field as one CSV cell: lists joined by "; ", objects as JSON, nothing as an empty cell, quoted when it must be. */
function cell(value: unknown): string {
  const text = value === null || value === undefined ? ''
    : Array.isArray(value) ? value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join('; ')
    : typeof value === 'object' ? JSON.stringify(value)
    : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as CSV: a header naming every field any row has (first seen first), a line per row, CRLF line ends. */
export function toCsv(rows: readonly Record<string, unknown>[]): string {
  const fields = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return [fields.map(fieldName), ...rows.map((row) => fields.map((field) => row[field]))].map((line) => line.map(cell).join(',')).join('\r\n') + '\r\n';
}
