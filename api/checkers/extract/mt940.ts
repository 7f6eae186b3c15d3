import type { PageText } from '../../documents/types.ts';
import type { LocatedValue } from './locate.ts';

/**
 * A SWIFT MT940 customer statement (the electronic statement banks export, `:20:` reference, `:25:` account,
 * `:60F:` opening balance, `:61:` lines, `:62F:` closing balance): its fields read by tag, not by label. A file may
 * hold several statements of one account (`:60M:`/`:62M:` carry the balance between them): the opening balance
 * and start are the first statement's, the closing balance and end the last's. Null when the text is not MT940.
 */
export function readMt940(pages: readonly PageText[]): Record<'account_number' | 'opening_balance' | 'closing_balance' | 'statement_period_start' | 'statement_period_end', LocatedValue> | null {
  const text = pages.map((page) => page.text).join('\n');
  const account = /^:25:\s*(\S[^\n]*)$/m.exec(text);
  const openings = [...text.matchAll(/^:60[FM]:([CD])(\d{6})([A-Z]{3})(\d+(?:,\d*)?)/gm)];
  const closings = [...text.matchAll(/^:62[FM]:([CD])(\d{6})([A-Z]{3})(\d+(?:,\d*)?)/gm)];
  if (!/^:20:/m.test(text) || !account || openings.length === 0 || closings.length === 0) return null;
  const opening = openings[0]!;
  const closing = closings.at(-1)!;
  const page = pages[0]?.page ?? 1;
  // Tags are the file's structure: as sure as a labelled value beside its label on a text layer.
  const at = (value: string | number) => ({ value, confidence: 0.95, page });
  return {
    // "ABNANL2A/517852257": a BIC before the account is the bank's, not part of the number.
    account_number: at(account[1]!.trim().replace(/^[A-Z]{6}[A-Z\d]{2}(?:[A-Z\d]{3})?\//, '').replace(/\s/g, '')),
    opening_balance: at(balance(opening[1]!, opening[4]!)),
    closing_balance: at(balance(closing[1]!, closing[4]!)),
    statement_period_start: at(isoDate(opening[2]!)),
    statement_period_end: at(isoDate(closing[2]!)),
  };
}

/** "C3236,28" is 3236.28 in credit; a debit balance is negative. */
function balance(mark: string, amount: string): number {
  const value = Number(amount.replace(',', '.'));
  return mark === 'D' && value !== 0 ? -value : value;
}

/** YYMMDD as ISO; MT940 has no century, and no statement file is older than 1980. */
function isoDate(yymmdd: string): string {
  const year = Number(yymmdd.slice(0, 2));
  return `${year < 80 ? 2000 + year : 1900 + year}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}
