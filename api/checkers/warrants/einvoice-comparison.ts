import type { PageText } from '../../documents/types.ts';
import { foldAccents } from '../extract/values.ts';

/** One value an embedded e-invoice states, beside where the printed pages show it or what they print instead. */
export interface Comparison {
  /** The field in words, for the sentence. */
  label: string;
  xml: string;
  path: string | undefined;
  /** Where the page shows the XML value, or null when no page does. */
  shownOn: number | null;
  /** The page's own reading of the field when the XML value is not shown (null: nothing to compare with). */
  printed: { value: string; page: number } | null;
  /** A value every invoice prints (its total): absent from every page, it disagrees even when the page's own reading is not known. */
  mustBePrinted: boolean;
  /** Places printing this value that show another than it (and than the XML values of its meaning). */
  disagreeing: PrintedPlace[];
  /** The other XML values of the same meaning a place may print (the amount due beside the grand total), for the sentence. */
  alike: { label: string; xml: string }[];
  /** What the sentence says after a disagreeing place, when "no page shows …" would not fit (a line the XML lacks). */
  elsewhere?: string;
}

/** A printed place of a value that shows another than the XML. */
export interface PrintedPlace {
  value: string;
  page: number;
  /** The 1-based line of the page. */
  line: number;
  /** How the place is named: `beside "Bruttosumme"`, `in the "Nettobetrag" column`. */
  naming: string;
}

/** Amounts equal to the cent (credit notes print positive figures the XML may sign). */
const CENT = 0.006;

export const same = (a: number, b: number) => Math.abs(Math.abs(a) - Math.abs(b)) < CENT;

/** The 1-based line of a page whose text holds `needle` (the first), 1 when none does. */
export function lineOfText(pages: readonly PageText[], page: number, needle: string): number {
  const lines = pages.find((candidate) => candidate.page === page)?.text.split('\n') ?? [];
  const index = needle === '' ? -1 : lines.findIndex((line) => line.includes(needle));
  return index === -1 ? 1 : index + 1;
}

/** Letters and digits only, folded, lower case: "Au bon moulin" is found in "AU BON MOULIN SARL", an IBAN in its groups of four. */
export function squash(text: string): string {
  return foldAccents(text).toLowerCase().replace(/[^\p{L}\d]+/gu, '');
}

/** A name's words of three letters or more, folded: what two spellings of one name share. */
export function nameWords(text: string): Set<string> {
  return new Set(foldAccents(text).split(/[^\p{L}\d]+/u).filter((word) => word.length >= 3));
}
