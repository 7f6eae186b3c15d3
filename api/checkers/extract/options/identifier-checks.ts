/**
 * Check digits of the identifiers redaction masks by their own evidence. Each is the published algorithm:
 * IBAN ISO 13616 (mod 97), payment cards ISO/IEC 7812 (Luhn), Aadhaar (UIDAI, Verhoeff), NHS number
 * (NHS Data Dictionary, mod 11), New Zealand IRD number (Inland Revenue's two weightings), VAT numbers whose
 * country publishes a check (vatCheck), India's GSTIN and US ABA routing numbers.
 */

export function validIban(text: string): boolean {
  const compact = text.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  return mod97(compact.slice(4) + compact.slice(0, 4)) === 1;
}

export function validLuhn(digits: string): boolean {
  return /^\d{13,19}$/.test(digits) && !/^0+$/.test(digits) && luhnSum(digits) % 10 === 0;
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

/**
 * A VAT number's published check: true or false where the country publishes one (DE ISO 7064 MOD 11,10; FR key;
 * IT Luhn; ES NIF/NIE/CIF control; NL mod 11 or, for sole traders since 2020, mod 97; BE mod 97; AT weights 1,2;
 * PL weights 6 5 7 2 3 4 5 6 7; India's GSTIN mod 36), null where only the VIES form is known here. Written here
 * because no kept dependency implements these checks.
 */
export function vatCheck(value: string): boolean | null {
  const compact = value.replace(/\s/g, '').toUpperCase();
  if (/^\d{2}[A-Z0-9]{13}$/.test(compact)) return validGstin(compact);
  const country = compact.slice(0, 2);
  const body = compact.slice(2);
  const check = vatChecks[country];
  return check ? check(body) : null;
}

const vatChecks: Record<string, (body: string) => boolean> = {
  DE: (body) => {
    if (!/^\d{9}$/.test(body)) return false;
    let product = 10;
    for (const digit of body.slice(0, 8)) {
      let sum = (Number(digit) + product) % 10;
      if (sum === 0) sum = 10;
      product = (2 * sum) % 11;
    }
    return (11 - product === 10 ? 0 : 11 - product) === Number(body[8]);
  },
  FR: (body) => /^\d{11}$/.test(body) && Number(body.slice(0, 2)) === (12 + 3 * (Number(body.slice(2)) % 97)) % 97,
  // Partita IVA: Luhn over the 11 digits.
  IT: (body) => /^\d{11}$/.test(body) && luhnSum(body) % 10 === 0,
  ES: validSpanishVat,
  // Legal entities: weights 9..2 over eight digits, the ninth is the sum mod 11; sole traders (2020 on): "NL" + number mod 97 is 1.
  NL: (body) => {
    if (!/^\d{9}B\d{2}$/.test(body)) return false;
    const digits = body.slice(0, 9);
    const mod11 = weighted(digits, [9, 8, 7, 6, 5, 4, 3, 2]) % 11;
    return (mod11 !== 10 && mod11 === Number(digits[8])) || mod97(`NL${body}`) === 1;
  },
  // Ten digits (a nine-digit number gains a leading 0): the last two are 97 − (the first eight mod 97).
  BE: (body) => {
    const digits = body.length === 9 ? `0${body}` : body;
    return /^[01]\d{9}$/.test(digits) && 97 - (Number(digits.slice(0, 8)) % 97) === Number(digits.slice(8));
  },
  // "U" and eight digits: weights 1,2 over the first seven (a doubled digit counts by its digit sum), check (10 − (sum + 4) mod 10) mod 10.
  AT: (body) => {
    if (!/^U\d{8}$/.test(body)) return false;
    const digits = body.slice(1);
    const sum = [...digits.slice(0, 7)].reduce((total, digit, i) => total + (i % 2 === 0 ? Number(digit) : digitSum(Number(digit) * 2)), 0);
    return (10 - ((sum + 4) % 10)) % 10 === Number(digits[7]);
  },
  PL: (body) => {
    if (!/^\d{10}$/.test(body)) return false;
    const check = weighted(body, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11;
    return check !== 10 && check === Number(body[9]);
  },
};

/** ISO 7064 mod 97 of a text, letters read as numbers (A = 10 … Z = 35) and digits as themselves: IBANs and Dutch VAT numbers. */
function mod97(text: string): number {
  let remainder = 0;
  for (const character of text) {
    const value = /\d/.test(character) ? character : String(character.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

function digitSum(value: number): number {
  return value > 9 ? value - 9 : value;
}

/** Luhn's sum: every second digit from the right doubled. */
function luhnSum(digits: string): number {
  return [...digits].reverse().reduce((sum, digit, i) => sum + (i % 2 === 1 ? digitSum(Number(digit) * 2) : Number(digit)), 0);
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/**
 * Spain (AEAT): a DNI (eight digits and the letter of their value mod 23), an NIE (X, Y or Z read 0, 1, 2, then as a
 * DNI), or a CIF (an entity letter, seven digits, a control digit or letter from a Luhn-like sum).
 */
function validSpanishVat(body: string): boolean {
  if (/^\d{8}[A-Z]$/.test(body)) return DNI_LETTERS[Number(body.slice(0, 8)) % 23] === body[8];
  if (/^[XYZ]\d{7}[A-Z]$/.test(body)) return DNI_LETTERS[Number(`${'XYZ'.indexOf(body[0]!)}${body.slice(1, 8)}`) % 23] === body[8];
  const cif = /^([ABCDEFGHJKLMNPQRSUVW])(\d{7})([0-9A-J])$/.exec(body);
  if (!cif) return false;
  const [, entity, digits, given] = cif as unknown as [string, string, string, string];
  const sum = [...digits].reduce((total, digit, i) => total + (i % 2 === 0 ? digitSum(Number(digit) * 2) : Number(digit)), 0);
  const control = (10 - (sum % 10)) % 10;
  const letter = 'JABCDEFGHI'[control]!;
  if ('KLMNPQRSW'.includes(entity)) return given === letter;
  if ('ABEH'.includes(entity)) return given === String(control);
  return given === String(control) || given === letter;
}

const GSTIN_CODES = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** India's GSTIN (GST Council): the fifteenth character closes the first fourteen by a mod 36 sum, factors 1 and 2 alternating from the left. */
export function validGstin(value: string): boolean {
  if (!/^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/.test(value)) return false;
  const sum = [...value.slice(0, 14)].reduce((total, character, i) => {
    const product = GSTIN_CODES.indexOf(character) * (i % 2 === 0 ? 1 : 2);
    return total + Math.floor(product / 36) + (product % 36);
  }, 0);
  return GSTIN_CODES[(36 - (sum % 36)) % 36] === value[14];
}

/** A US ABA routing number: nine digits whose 3-7-1 weighted sum is a multiple of 10. */
export function validAbaRouting(digits: string): boolean {
  return /^\d{9}$/.test(digits) && !/^0+$/.test(digits) && weighted(digits, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0;
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
