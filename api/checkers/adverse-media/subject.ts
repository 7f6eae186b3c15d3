import { classifyPage, documentTypePhrase } from '../document-types.ts';
import type { ReadTextResult } from '../read-text.ts';
import type { MediaSubject } from './media.ts';

/**
 * Who is screened: the subject as the caller names them, or as an identity document shows them. A passport
 * is read from its machine-readable zone (ICAO Doc 9303 part 4, the TD3 two-line zone: `P<` + issuing
 * state + SURNAME<<GIVEN<NAMES, then number, nationality, date of birth YYMMDD), which survives OCR better
 * than the printed fields; other identity documents from their labelled fields ("Surname", "Given names",
 * "Name", "Date of birth"), and a card that prints the holder's name unlabelled (a driver licence) from the
 * first line that reads as a name. Page-1 type comes from the identity checker's classifier.
 */

/** The person screened, and where their name came from. */
export interface Subject extends MediaSubject {
  /** `request`, or how the document gave the name: e.g. `australian_passport:machine_readable_zone`. */
  source: string;
}

export type SubjectFromDocument = { ok: true; subject: Subject } | { ok: false; detail: string };

/** Identity documents issued in Australia: their holder is taken to be in Australia. */
const AUSTRALIAN_TYPES = new Set<string>(['australian_passport', 'drivers_licence', 'proof_of_age_card', 'birth_certificate', 'birth_extract', 'citizenship_certificate', 'immicard', 'medicare_card']);
/** The documents a subject is read from: those whose purpose is to name their holder. */
const IDENTITY_TYPES = new Set<string>([...AUSTRALIAN_TYPES, 'foreign_passport']);
/** Cards that print the holder's name on a line of its own, without a label. */
const UNLABELLED_NAME_TYPES = new Set<string>(['drivers_licence', 'proof_of_age_card', 'immicard', 'medicare_card']);

/** ICAO nationality codes to ISO alpha-2 for the countries this service's users most often present; others give no country. */
const ICAO_TO_ALPHA2: Readonly<Record<string, string>> = {
  AUS: 'AU', NZL: 'NZ', GBR: 'GB', GBD: 'GB', GBN: 'GB', GBO: 'GB', IRL: 'IE', USA: 'US', CAN: 'CA', ZAF: 'ZA', IND: 'IN', SGP: 'SG',
  MYS: 'MY', IDN: 'ID', PHL: 'PH', CHN: 'CN', HKG: 'HK', JPN: 'JP', KOR: 'KR', THA: 'TH', VNM: 'VN', PNG: 'PG', FJI: 'FJ', D: 'DE',
  DEU: 'DE', FRA: 'FR', ITA: 'IT', ESP: 'ES', NLD: 'NL', BEL: 'BE', CHE: 'CH', SWE: 'SE', NOR: 'NO', DNK: 'DK', POL: 'PL', RUS: 'RU',
  UKR: 'UA', TUR: 'TR', GRC: 'GR', ISR: 'IL', ARE: 'AE', SAU: 'SA', EGY: 'EG', NGA: 'NG', KEN: 'KE', BRA: 'BR', ARG: 'AR', MEX: 'MX',
  COL: 'CO', PAK: 'PK', BGD: 'BD', LKA: 'LK', LBN: 'LB', IRN: 'IR', IRQ: 'IQ', AFG: 'AF', PRK: 'KP', SYR: 'SY', VEN: 'VE', NPL: 'NP',
  TWN: 'TW', MMR: 'MM', KHM: 'KH', LAO: 'LA', TON: 'TO', WSM: 'WS', SLB: 'SB', VUT: 'VU', KIR: 'KI', PRT: 'PT', AUT: 'AT', FIN: 'FI',
  HUN: 'HU', CZE: 'CZ', ROU: 'RO', BGR: 'BG', SRB: 'RS', HRV: 'HR', CHL: 'CL', PER: 'PE', ETH: 'ET', SDN: 'SD', SOM: 'SO', ZWE: 'ZW',
};

export function subjectFromText(read: ReadTextResult): SubjectFromDocument {
  const document = read.documents[0];
  const text = document?.pages.map((page) => page.text).join('\n') ?? '';
  if (document === undefined || text.trim() === '') {
    return { ok: false, detail: 'No text could be read from the document, so no name to screen. Send a clearer scan of the identity page, or give `name` instead.' };
  }
  const classification = classifyPage({ page: 1, width: 0, height: 0, source: document.pages[0]?.source ?? 'text_layer', items: [], text: document.pages[0]?.text ?? text, confidence: 1 }, { isImage: document.kind === 'image', largestImageShare: 0 });
  const type = classification.type;
  const mrz = readMachineReadableZone(text);
  if (mrz !== null) {
    return { ok: true, subject: { name: mrz.name, aliases: [], dob: mrz.dob ?? labelledDateOfBirth(text), country: mrz.country, employer: null, role: null, source: `${type}:machine_readable_zone` } };
  }
  if (type === 'unrecognised' || !IDENTITY_TYPES.has(type)) {
    const what = type === 'unrecognised' ? 'The document was not recognised as an identity document' : `The document reads as ${documentTypePhrase(type)}, not an identity document`;
    return { ok: false, detail: `${what}, so there is no holder to screen. Send a passport or driver licence, or give \`name\` instead.` };
  }
  const labelled = readLabelledName(text) ?? (UNLABELLED_NAME_TYPES.has(type) ? readNameLine(text) : null);
  if (labelled === null) {
    return { ok: false, detail: `The document reads as ${documentTypePhrase(type)} but no holder's name was found on it. Send a clearer copy, or give \`name\` instead.` };
  }
  return {
    ok: true,
    subject: { name: labelled, aliases: [], dob: labelledDateOfBirth(text), country: AUSTRALIAN_TYPES.has(type) ? 'AU' : null, employer: null, role: null, source: `${type}:printed_fields` },
  };
}

interface MachineReadable {
  name: string;
  dob: string | null;
  country: string | null;
}

/**
 * The TD3 zone: line 1 `P` + type filler + issuing state (3) + name field (39); line 2 number (9) + check +
 * nationality (3) + birth date YYMMDD + check + sex + expiry. OCR drops and adds spaces, so each line is
 * matched with spaces removed. A birth year is put in the century that makes it not in the future of the
 * document's expiry (Doc 9303 leaves the century to the reader).
 */
export function readMachineReadableZone(text: string): MachineReadable | null {
  const lines = text.split('\n').map((line) => line.replace(/\s+/g, '').toUpperCase());
  const first = lines.findIndex((line) => /^P[A-Z<][A-Z<]{3}[A-Z<]{10,}$/.test(line) && line.includes('<<'));
  if (first === -1) return null;
  const nameField = lines[first]!.slice(5);
  const [surname = '', given = ''] = nameField.split('<<');
  const name = [given.replace(/<+/g, ' ').trim(), surname.replace(/<+/g, ' ').trim()].filter((part) => part !== '').map(titleCase).join(' ');
  if (name === '') return null;
  const second = lines.slice(first + 1).find((line) => /^[A-Z0-9<]{9}[0-9<][A-Z<]{3}\d{6}/.test(line));
  const nationality = second?.slice(10, 13).replace(/<+$/, '') ?? lines[first]!.slice(2, 5).replace(/<+$/, '');
  let dob: string | null = null;
  if (second !== undefined) {
    const [yy, mm, dd] = [second.slice(13, 15), second.slice(15, 17), second.slice(17, 19)].map(Number) as [number, number, number];
    const expiryYy = Number(second.slice(21, 23));
    // A holder is born before the document expires: a two-digit year after the expiry's is last century.
    const century = Number.isFinite(expiryYy) && yy > expiryYy ? 1900 : 2000;
    if (mm >= 1 && mm <= 12 && dd >= 1 && dd <= 31) dob = `${century + yy}-${String(mm).padStart(2, '0')}-${String(dd).padStart(2, '0')}`;
  }
  return { name, dob, country: ICAO_TO_ALPHA2[nationality] ?? null };
}

const SURNAME = /^\s*(?:surname|family name|last name)\s*[:\s]\s*([A-Za-z][A-Za-z' -]{0,60})$/im;
const GIVEN = /^\s*(?:given names?|given name\(s\)|first names?|forenames?)\s*[:\s]\s*([A-Za-z][A-Za-z' -]{0,60})$/im;
const FULL_NAME = /^\s*(?:full name|name)\s*[:\s]\s*([A-Za-z][A-Za-z' -]{2,80})$/im;
const DATE_OF_BIRTH = /\b(?:date of birth|DOB|birth date)\b\s*[:\s]\s*(\d{1,2})[/.\s-](\d{1,2}|[A-Za-z]{3,9})[/.\s-](\d{4})/i;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function readLabelledName(text: string): string | null {
  const surname = SURNAME.exec(text)?.[1]?.trim();
  const given = GIVEN.exec(text)?.[1]?.trim();
  if (surname) return titleCase(given ? `${given} ${surname}` : surname);
  const full = FULL_NAME.exec(text)?.[1]?.trim();
  return full ? titleCase(full) : null;
}

/** Words no holder's name is made of: a card's headings, issuers and labels. */
const NOT_NAME_WORDS = /\b(AUSTRALIA|AUSTRALIAN|NEW|SOUTH|WALES|VICTORIA|QUEENSLAND|WESTERN|TASMANIA|NORTHERN|TERRITORY|CAPITAL|GOVERNMENT|DRIVER|DRIVERS|LICENCE|LICENSE|LEARNER|PROVISIONAL|PHOTO|CARD|PROOF|AGE|ADULT|PASSPORT|CERTIFICATE|SERVICE|TRANSPORT|ROADS|VICROADS|DEPARTMENT|CLASS|EXPIRY|STREET|ROAD|AVENUE|CRESCENT)\b/i;

/** The first line of two to four capitalised words with no heading or address word: the holder of a card that does not label the name. */
function readNameLine(text: string): string | null {
  for (const line of text.split('\n').map((candidate) => candidate.trim())) {
    if (/^(?:[A-Z][A-Za-z'’-]+\s+){1,3}[A-Z][A-Za-z'’-]+$/.test(line) && !NOT_NAME_WORDS.test(line)) return titleCase(line);
  }
  return null;
}

function labelledDateOfBirth(text: string): string | null {
  const found = DATE_OF_BIRTH.exec(text);
  if (found === null) return null;
  const month = /^\d+$/.test(found[2]!) ? Number(found[2]) : MONTHS.indexOf(found[2]!.slice(0, 3).toLowerCase()) + 1;
  const day = Number(found[1]);
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${found[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function titleCase(name: string): string {
  return name
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .replace(/(^|[\s'’-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}

/**
 * A name as news writes it: "SMITH, John" (the order lists and forms use) becomes "John SMITH", so the
 * article search and the mention finder look for given names first. Anything else is kept as given.
 */
export function naturalOrder(name: string): string {
  const parts = /^\s*([\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,2})\s*,\s*([\p{L}'’.-]+(?:\s+[\p{L}'’.-]+){0,3})\s*$/u.exec(name);
  return parts ? `${parts[2]} ${parts[1]}` : name.trim();
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const ALPHA2_BY_NAME = new Map<string, string>();
for (const first of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
  for (const second of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    const code = `${first}${second}`;
    const named = regionNames.of(code);
    if (named !== undefined && named !== code && named !== 'Unknown Region') ALPHA2_BY_NAME.set(named.toLowerCase(), code);
  }
}

/** A caller's country ("AU", "au", "Australia") as ISO alpha-2, or null when it names no country. */
export function countryCode(country: string): string | null {
  const trimmed = country.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) return ALPHA2_BY_NAME.has((regionNames.of(trimmed.toUpperCase()) ?? '').toLowerCase()) ? trimmed.toUpperCase() : null;
  return ALPHA2_BY_NAME.get(trimmed.toLowerCase()) ?? ICAO_TO_ALPHA2[trimmed.toUpperCase()] ?? null;
}
