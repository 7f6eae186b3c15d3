import { z } from '@hono/zod-openapi';
import { locatePage, spanBox, type LocatedPage } from './page-lines.ts';
import { parseSettings } from './settings.ts';
import type { ExtractedField, OptionInput } from './types.ts';

export const groundingSettings = z.object({}).strict().openapi('GroundingSettings');

export const groundedField = z
  .object({
    page: z.number().int().nullable().describe('Page the value was found on, or null when the text does not show it'),
    bbox: z.array(z.number()).length(4).nullable().describe('[x, y, width, height] in PDF points from the top-left; null on scans and when not found'),
    text_layer_match: z.boolean().describe("The value's text was found in the PDF text layer"),
    matched_text: z.string().nullable().describe('The text as the page shows it (e.g. "1,250.00" for 1250)'),
  })
  .openapi('GroundedField');

export const groundingOutput = z.record(z.string(), groundedField).openapi('GroundingOutput');

export type GroundedField = z.infer<typeof groundedField>;

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Where each extracted value sits: the forms the value can take on a page (an amount with or without
 * thousands separators, an ISO date as the page may print it) are looked for on the field's page first,
 * then on the others. Only the text layer gives a box; a value read by OCR gets `bbox: null`.
 */
export async function grounding(input: OptionInput): Promise<Record<string, GroundedField>> {
  parseSettings(groundingSettings, input.settings);
  const located = input.pages.map(locatePage);
  const result: Record<string, GroundedField> = {};
  for (const [name, field] of Object.entries(input.fields)) result[name] = groundField(field, located);
  return result;
}

function groundField(field: ExtractedField, pages: LocatedPage[]): GroundedField {
  const notFound: GroundedField = { page: null, bbox: null, text_layer_match: false, matched_text: null };
  const pattern = valuePattern(field.value);
  if (!pattern) return notFound;
  const ordered = [...pages.filter((page) => page.page === field.page), ...pages.filter((page) => page.page !== field.page)];
  for (const page of ordered) {
    const match = pattern.exec(page.text);
    if (!match) continue;
    const start = match.index;
    const matched = match[1]!;
    if (page.source !== 'text_layer') return { page: page.page, bbox: null, text_layer_match: false, matched_text: matched };
    return { page: page.page, bbox: spanBox(page, start, start + matched.length), text_layer_match: true, matched_text: matched };
  }
  return notFound;
}

/**
 * A case-insensitive pattern whose group 1 is any printed form of the value, standing alone: not inside
 * a longer word or number (540 is not found in 2,540.00).
 */
export function valuePattern(value: ExtractedField['value']): RegExp | null {
  const forms = typeof value === 'number' ? amountForms(value) : typeof value === 'string' && value.trim() !== '' ? [...dateForms(value.trim()), value.trim()] : [];
  if (forms.length === 0) return null;
  const alternatives = [...new Set(forms)].sort((a, b) => b.length - a.length).map((form) => escape(form).replace(/\s+/g, '\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}])(?<!\\p{N}[,.])(${alternatives.join('|')})(?![\\p{L}\\p{N}])(?![,.]\\p{N})`, 'iu');
}

function amountForms(value: number): string[] {
  const fixed = Math.abs(value).toFixed(2);
  const grouped = Number(fixed).toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const forms = [fixed, grouped];
  if (Number.isInteger(value)) forms.push(String(Math.abs(value)), Math.abs(value).toLocaleString('en-AU'));
  return value < 0 ? forms.flatMap((form) => [`-${form}`, `(${form})`, form]) : forms;
}

function dateForms(value: string): string[] {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!iso) return [];
  const [, year, month, day] = iso as unknown as [string, string, string, string];
  const d = String(Number(day));
  const m = String(Number(month));
  const name = months[Number(month) - 1]!;
  const short = name.slice(0, 3);
  // Month-first (US) forms only where they cannot be read as another day-first date.
  const monthFirst = Number(day) > 12 || day === month ? [`${month}/${day}/${year}`, `${m}/${d}/${year}`] : [];
  return [
    ...monthFirst,
    `${day}-${short}-${year}`,
    `${d}-${short}-${year}`,
    `${short} ${d}, ${year}`,
    `${day}/${month}/${year}`,
    `${d}/${m}/${year}`,
    `${day}-${month}-${year}`,
    `${day}.${month}.${year}`,
    `${day}/${month}/${year.slice(2)}`,
    `${d} ${name} ${year}`,
    `${day} ${name} ${year}`,
    `${d} ${short} ${year}`,
    `${day} ${short} ${year}`,
    `${name} ${d}, ${year}`,
  ];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
