/**
 * PDF date strings (ISO 32000-1 §7.9.4, `D:YYYYMMDDHHmmSSOHH'mm'`) and XMP dates (ISO 8601) to instants.
 * A date that does not follow either form is `malformed`; a missing offset is read as UTC.
 */
export type ParsedDate = { kind: 'ok'; instant: number; text: string } | { kind: 'malformed'; text: string };

const pdfDate = /^D?:?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz+-])(?:(\d{2})'?(\d{2})?'?)?)?\s*$/;
const isoDate = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?)?)?\s*(?:([Zz+-])(?:(\d{2}):?(\d{2})?)?)?$/;

export function parsePdfDate(text: string): ParsedDate {
  return parseWith(pdfDate, text);
}

export function parseXmpDate(text: string): ParsedDate {
  return parseWith(isoDate, text);
}

function parseWith(pattern: RegExp, text: string): ParsedDate {
  const match = pattern.exec(text.trim());
  if (!match) return { kind: 'malformed', text };
  const [year, month = 1, day = 1, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map((part, index) => (part === undefined ? [0, 1, 1, 0, 0, 0][index]! : Number(part)));
  if (month! < 1 || month! > 12 || day! < 1 || day! > 31 || hour! > 23 || minute! > 59 || second! > 59) return { kind: 'malformed', text };
  const sign = match[7] === '-' ? -1 : 1;
  const offsetMinutes = match[7] === undefined || /z/i.test(match[7]) ? 0 : sign * (Number(match[8] ?? 0) * 60 + Number(match[9] ?? 0));
  const instant = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!) - offsetMinutes * 60_000;
  if (new Date(Date.UTC(year!, month! - 1, day!)).getUTCDate() !== day) return { kind: 'malformed', text };
  return { kind: 'ok', instant, text };
}
