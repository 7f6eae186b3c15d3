/**
 * Check digits of the identifiers redaction masks by their own evidence. Each is the published algorithm:
 * IBAN ISO 13616 (mod 97), payment cards ISO/IEC 7812 (Luhn), Aadhaar (UIDAI, Verhoeff), NHS number
 * (NHS Data Dictionary, mod 11), New Zealand IRD number (Inland Revenue's two weightings), German and other
 * VAT numbers where the format carries a check (here: DE's ISO 7064 mod 11,10, others by form).
 */

export function validIban(text: string): boolean {
  const compact = text.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const value = /\d/.test(character) ? character : String(character.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

export function validLuhn(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits) || /^0+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

const verhoeffMultiply = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const verhoeffPermute = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Aadhaar: 12 digits, the first not 0 or 1, Verhoeff check over all of them. */
export function validAadhaar(digits: string): boolean {
  if (!/^[2-9]\d{11}$/.test(digits)) return false;
  let check = 0;
  [...digits].reverse().forEach((digit, i) => {
    check = verhoeffMultiply[check]![verhoeffPermute[i % 8]![Number(digit)]!]!;
  });
  return check === 0;
}

/** NHS number: weights 10..2 over the first nine digits, 11 − (sum mod 11) is the tenth (11 reads 0, 10 is never issued). */
export function validNhs(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return false;
  const sum = [...digits.slice(0, 9)].reduce((total, digit, i) => total + Number(digit) * (10 - i), 0);
  const check = 11 - (sum % 11);
  if (check === 10) return false;
  return (check === 11 ? 0 : check) === Number(digits[9]);
}

/** NZ IRD: 8 digits padded to 9, weights 3 2 7 6 5 4 3 2, then 7 4 3 2 5 2 7 6 if the first gives 10. */
export function validIrd(digits: string): boolean {
  if (!/^\d{8,9}$/.test(digits)) return false;
  const padded = digits.padStart(9, '0');
  const body = padded.slice(0, 8);
  const given = Number(padded[8]);
  for (const weights of [[3, 2, 7, 6, 5, 4, 3, 2], [7, 4, 3, 2, 5, 2, 7, 6]]) {
    const remainder = [...body].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0) % 11;
    const check = remainder === 0 ? 0 : 11 - remainder;
    if (check !== 10) return check === given;
  }
  return false;
}

/** A VAT number with a published check where one is known (DE: ISO 7064 MOD 11,10); other countries' by their VIES form alone. */
export function validVat(value: string): boolean {
  const compact = value.replace(/\s/g, '').toUpperCase();
  if (compact.startsWith('DE')) {
    const digits = compact.slice(2);
    if (!/^\d{9}$/.test(digits)) return false;
    let product = 10;
    for (const digit of digits.slice(0, 8)) {
      let sum = (Number(digit) + product) % 10;
      if (sum === 0) sum = 10;
      product = (2 * sum) % 11;
    }
    const check = 11 - product === 10 ? 0 : 11 - product;
    return check === Number(digits[8]);
  }
  if (/^FR\d{11}$/.test(compact)) return Number(compact.slice(2, 4)) === (12 + 3 * (Number(compact.slice(4)) % 97)) % 97;
  return /^[A-Z]{2}/.test(compact) || /^\d{2}[A-Z]{5}\d{4}[A-Z]/.test(compact);
}

/** Weighted sum of digits, the weights laid over them from the left. */
function weighted(digits: string, weights: readonly number[]): number {
  return weights.reduce((sum, weight, i) => sum + weight * Number(digits[i]), 0);
}

/** ASIC company number (ACN, ARBN): weights 8..1 over the first eight digits, the ninth is (10 − sum mod 10) mod 10. */
export function validAcn(digits: string): boolean {
  return /^\d{9}$/.test(digits) && (10 - (weighted(digits, [8, 7, 6, 5, 4, 3, 2, 1]) % 10)) % 10 === Number(digits[8]);
}

/** GS1 key (New Zealand Business Number, GLN): weights 3 and 1 alternating from the right of the body. */
export function validGs1(digits: string): boolean {
  if (!/^\d{8,14}$/.test(digits)) return false;
  const body = digits.slice(0, -1);
  const sum = [...body].reverse().reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === Number(digits.at(-1));
}

/** Argentine CUIT/CUIL (AFIP): weights 5 4 3 2 7 6 5 4 3 2, check 11 − sum mod 11 (11 reads 0, 10 is never issued). */
export function validCuit(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  const check = 11 - (weighted(digits, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11);
  return check !== 10 && (check === 11 ? 0 : check) === Number(digits[10]);
}

/** Argentine CBU (BCRA): a block of 8 (weights 7 1 3 9 7 1 3) and one of 14 (3 9 7 1 … over 13), each closed by (10 − sum mod 10) mod 10. */
export function validCbu(digits: string): boolean {
  if (!/^\d{22}$/.test(digits) || /^0+$/.test(digits)) return false;
  const closes = (block: string, weights: readonly number[]) => (10 - (weighted(block, weights) % 10)) % 10 === Number(block.at(-1));
  return closes(digits.slice(0, 8), [7, 1, 3, 9, 7, 1, 3]) && closes(digits.slice(8), [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3]);
}
