import type { PageText, TextItem } from '../../documents/types.ts';
import { mrzDate, type ParsedMrz } from './mrz.ts';

/**
 * The holder's fields as the card or data page prints them (its visual zone), read from the page's OCR
 * text by their labels: the labels of ICAO data pages in the issuing state's language and English, and the
 * numbered fields of North American licences (AAMVA's card design standard: 1 family name, 2 given names,
 * 3 date of birth, 4b expiry, 4d licence number, 8 address). A field whose label is not found is null;
 * nothing is guessed from position alone. US documents print dates month first; others day first.
 *
 * These are compared with the machine-readable zone (`printedAgreement`), never stored: an identity
 * result keeps only whether they agree.
 */
export interface PrintedFields {
  name: string | null;
  date_of_birth: string | null;
  document_number: string | null;
  expiry: string | null;
  address: string | null;
}

const BIRTH_LABEL = /DATE OF BIRTH|BIRTH ?DATE|DATE DE NAISSANCE|GEBURTSTAG|GEBURTSDATUM|FECHA DE NACIMIENTO|DATA DI NASCITA|DATA DE NASCIMENTO|GEBOORTEDATUM|\bDOB\b|\b3 ?DOB\b|\bNE\(E\) LE\b|\bBIRTHDATE/;
const EXPIRY_LABEL = /DATE OF EXPIRY|EXPIRY|EXPIRATION|EXPIRES|\bEXP\b|\b4B ?EXP|VALID (UNTIL|THRU|THROUGH|TO)|VALIDE JUSQU|G[UÜ]LTIG BIS|V[AÁ]LIDO HASTA|SCADENZA|GELDIG TOT/;
const NUMBER_LABEL = /PASSPORT (CARD )?(NO|NUMBER|N°)|DOCUMENT (NO|NUMBER|N°)|DOC ?NO|LIC(ENSE|ENCE)? ?(NO|#|NUMBER)|\bLIC#|\b4D ?(NUMBER|DL|LIC|NO)?|CARD (NO|NUMBER)|USCIS ?#|\bA ?#|\bN° ?:|\bNO\. ?:?|PASS-NR|AUSWEIS-?NR/;
const SURNAME_LABEL = /\bSURNAME\b|\bNOM\b|\bNAME\b(?! ?\/)|APELLIDOS|COGNOME|FAMILY NAME|\b1 (?=[A-Z]{2,})/;
const GIVEN_LABEL = /GIVEN NAMES?|PR[EÉ]NOMS?|VORNAMEN|NOMBRE|\bNOME\b|FIRST NAME|\b2 (?=[A-Z]{2,})/;
const ADDRESS_LABEL = /\bADDRESS\b|\bADRESSE\b|\bANSCHRIFT\b|DOMICILIO|INDIRIZZO|\b8 (?=\d)/;

const MONTHS: Readonly<Record<string, number>> = { JAN: 1, FEB: 2, FEV: 2, MAR: 3, APR: 4, AVR: 4, MAY: 5, MAI: 5, JUN: 6, JUIN: 6, JUL: 7, JUIL: 7, AUG: 8, AOU: 8, AOUT: 8, SEP: 9, OCT: 10, NOV: 11, DEC: 12 };

export function readPrintedFields(page: PageText | null, monthFirst: boolean): PrintedFields {
  const after = page !== null && page.items.length > 0 ? byLayout(page.items) : byLines(page?.text ?? '');
  const date = (text: string) => firstDate(text, monthFirst);
  const surname = after(SURNAME_LABEL, nameWords);
  const given = after(GIVEN_LABEL, nameWords);
  return {
    name: surname && given ? `${given} ${surname}` : (surname ?? given),
    date_of_birth: after(BIRTH_LABEL, date),
    document_number: after(NUMBER_LABEL, documentNumber),
    expiry: after(EXPIRY_LABEL, date),
    address: after(ADDRESS_LABEL, (text) => (/\d/.test(text) && /[A-Z]{3}/.test(text) ? text.replace(/^[^A-Z0-9]+/, '') : null)),
  };
}

type Finder = (label: RegExp, pick: (text: string) => string | null) => string | null;

/**
 * A label's value where a card prints it: after the label in the same run, in the next run to its right on
 * the same line, or in a run just below it that overlaps its column (a licence prints "4b EXP" over its date).
 */
function byLayout(items: readonly TextItem[]): Finder {
  const upper = items.map((item) => ({ ...item, text: item.text.toUpperCase().replace(/\s+/g, ' ') }));
  return (label, pick) => {
    for (const item of upper) {
      const found = label.exec(item.text);
      if (!found) continue;
      const inline = pick(item.text.slice(found.index + found[0].length));
      if (inline !== null) return inline;
      const middle = item.y + item.height / 2;
      const right = upper.filter((other) => other !== item && other.x >= item.x + item.width - item.height && Math.abs(other.y + other.height / 2 - middle) < item.height * 0.6).sort((a, b) => a.x - b.x);
      const below = upper
        .filter((other) => other.y > item.y + item.height * 0.5 && other.y < item.y + item.height * 3 && other.x < item.x + item.width + item.height && other.x + other.width > item.x - item.height)
        .sort((a, b) => a.y - b.y || Math.abs(a.x - item.x) - Math.abs(b.x - item.x));
      for (const candidate of [...right.slice(0, 1), ...below.slice(0, 2)]) {
        const value = pick(candidate.text);
        if (value !== null) return value;
      }
    }
    return null;
  };
}

/** The same for a page with no positions (text only): after the label on its line, or on one of the next two lines. */
function byLines(text: string): Finder {
  const lines = text.toUpperCase().split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
  return (label, pick) => {
    for (let index = 0; index < lines.length; index++) {
      const found = label.exec(lines[index]!);
      if (!found) continue;
      const value = pick(lines[index]!.slice(found.index + found[0].length)) ?? pick(lines[index + 1] ?? '') ?? pick(lines[index + 2] ?? '');
      if (value !== null) return value;
    }
    return null;
  };
}

/** Whether the printed date of birth, expiry and document number agree with the zone's: null where either was not read. */
export interface PrintedAgreement {
  document_number: boolean | null;
  date_of_birth: boolean | null;
  expiry: boolean | null;
}

export function printedAgreement(printed: PrintedFields, zone: ParsedMrz, today: string): PrintedAgreement {
  const same = (printedValue: string | null, zoneValue: string | null) => (printedValue === null || zoneValue === null ? null : printedValue === zoneValue);
  return {
    document_number: same(printed.document_number?.replace(/[^A-Z0-9]/g, '') ?? null, zone.fields.document_number.replace(/</g, '') || null),
    date_of_birth: same(printed.date_of_birth, mrzDate(zone.fields.birth_date, 'birth', today)),
    expiry: same(printed.expiry, mrzDate(zone.fields.expiry_date, 'expiry', today)),
  };
}

/** The first date in a piece of text, as ISO: 12.08.1974, 12/08/1974 (or 08/12/1974 month first), 12 AUG 1974, 12 AUG/AOUT 74, 1974-08-12. */
export function firstDate(text: string, monthFirst: boolean): string | null {
  const numeric = /\b(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})\b/.exec(text);
  const named = /\b(\d{1,2}) ?([A-Z]{3,4})(?:\/[A-Z]{3,4})? ?(\d{4}|\d{2})\b/.exec(text);
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text);
  const candidates: { at: number; value: string | null }[] = [];
  if (numeric) {
    const [first, second] = [Number(numeric[1]), Number(numeric[2])];
    candidates.push({ at: numeric.index, value: calendar(year(numeric[3]!), monthFirst ? first : second, monthFirst ? second : first) });
  }
  if (named && MONTHS[named[2]!] !== undefined) candidates.push({ at: named.index, value: calendar(year(named[3]!), MONTHS[named[2]!]!, Number(named[1])) });
  if (iso) candidates.push({ at: iso.index, value: calendar(Number(iso[1]), Number(iso[2]), Number(iso[3])) });
  return candidates.filter((candidate) => candidate.value !== null).sort((a, b) => a.at - b.at)[0]?.value ?? null;
}

/** A two-digit year as printed on identity documents: 00–39 this century, 40–99 the last. */
function year(digits: string): number {
  const value = Number(digits);
  return digits.length === 4 ? value : value < 40 ? 2000 + value : 1900 + value;
}

function calendar(yearValue: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || yearValue < 1900) return null;
  const date = new Date(Date.UTC(yearValue, month - 1, day));
  return date.getUTCDate() === day ? date.toISOString().slice(0, 10) : null;
}

/** Words of labels, never of a name: a bilingual label ("Surname/Nom") is read past, not taken as the value. */
const LABEL_WORDS = new Set(['NAME', 'NAMES', 'SURNAME', 'SURNAMES', 'GIVEN', 'FIRST', 'FAMILY', 'NOM', 'NOMS', 'PRENOM', 'PRENOMS', 'PRÉNOM', 'PRÉNOMS', 'VORNAMEN', 'NOMBRE', 'APELLIDOS', 'COGNOME', 'NOME', 'DATE', 'BIRTH', 'SEX', 'SEXE', 'NATIONALITY', 'NATIONALITE', 'NATIONALITÉ', 'PLACE', 'OF', 'DE', 'DU', 'THE', 'AND', 'ET', 'NO', 'TYPE', 'CODE', 'CLASS', 'DOB', 'EXP', 'ISS', 'SIGNATURE', 'HOLDER', 'TITULAIRE', 'LIEU', 'NAISSANCE', 'PRIMARY', 'SECONDARY', 'IDENTIFIER', 'IDENTIFIANT', 'PRIMAIRE', 'SECONDAIRE']);

/** Words of a name: capitals (with accents), hyphens and apostrophes, two or more letters each, label words left out; null if none. */
function nameWords(text: string): string | null {
  const words = (text.match(/\p{Lu}[\p{Lu}'’-]+/gu) ?? []).filter((word) => !LABEL_WORDS.has(word.replace(/[^\p{Lu}]/gu, '')));
  return words.length > 0 ? words.slice(0, 4).join(' ') : null;
}

/** A document number: the first run of six or more letters and digits (spaces and dashes inside it kept out). */
function documentNumber(text: string): string | null {
  const run = /[A-Z0-9](?:[A-Z0-9 -]{4,18})[A-Z0-9]/.exec(text.replace(/^[^A-Z0-9]*/, ''));
  const value = run?.[0].replace(/[ -]/g, '') ?? '';
  return value.length >= 6 && /\d/.test(value) ? value : null;
}
