/**
 * Names made comparable: one Latin, lower-case, unaccented form whatever script or punctuation they came in,
 * then tokens without the honorifics, legal forms and particles that differ between lists for the same party.
 *
 * No transliteration library is installed (ICU's `Any-Latin` transforms are not exposed by Node's Intl), so
 * Cyrillic, Greek and Arabic letters go through the small tables below. They are simple letter-for-letter
 * romanisations, not a standard: their job is to make two spellings of one name land on similar letters for
 * the Jaro-Winkler comparison, and the lists themselves publish names in original script (UN
 * `NAME_ORIGINAL_SCRIPT`, DFAT's Arabic and Cyrillic alias rows), which go through the same table.
 */

// Russian and Ukrainian letters, close to the BGN/PCGN romanisation the lists' Latin spellings mostly follow.
const CYRILLIC: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm',
  н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch',
  ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya', і: 'i', ї: 'yi', є: 'ye', ґ: 'g', ў: 'u',
};

const GREEK: Record<string, string> = {
  α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm', ν: 'n', ξ: 'x',
  ο: 'o', π: 'p', ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps', ω: 'o',
};

// Arabic (and the Persian/Urdu additions): consonants as the lists usually romanise them; the long vowels
// alif, waw and ya become a, u and i. Short vowels are not written in Arabic script, so a name read from it is
// closer to a consonant skeleton than to its usual Latin spelling; it matches the same name in Arabic script
// well and a Latin spelling only roughly.
const ARABIC: Record<string, string> = {
  ا: 'a', أ: 'a', إ: 'i', آ: 'a', ء: '', ؤ: 'u', ئ: 'i', ب: 'b', ت: 't', ة: 'a', ث: 'th', ج: 'j', ح: 'h', خ: 'kh',
  د: 'd', ذ: 'dh', ر: 'r', ز: 'z', س: 's', ش: 'sh', ص: 's', ض: 'd', ط: 't', ظ: 'z', ع: '', غ: 'gh', ف: 'f',
  ق: 'q', ك: 'k', ل: 'l', م: 'm', ن: 'n', ه: 'h', و: 'u', ي: 'i', ى: 'a', پ: 'p', چ: 'ch', ژ: 'zh', گ: 'g',
  ک: 'k', ی: 'i', ە: 'a',
};

// Latin letters that Unicode decomposition leaves whole.
const LATIN_EXTRA: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ŀ: 'l', ħ: 'h', ŧ: 't',
};

const LETTER_TABLE: Record<string, string> = { ...CYRILLIC, ...GREEK, ...ARABIC, ...LATIN_EXTRA };

/**
 * A name in one comparable form: NFKC (full-width and ligature forms folded), lower case, letters of other
 * scripts romanised, accents removed (NFKD, combining marks dropped), apostrophes and the Arabic `ayn` marks
 * removed (Sa'id = Said), every other non-letter-or-digit a space, spaces collapsed.
 */
export function normaliseName(raw: string): string {
  const lowered = raw.normalize('NFKC').toLowerCase();
  let romanised = '';
  // an accented letter of another script (Greek ώ) is looked up by its base letter
  for (const char of lowered) romanised += LETTER_TABLE[char] ?? LETTER_TABLE[char.normalize('NFD')[0] ?? ''] ?? char;
  return romanised
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/['’‘`ʿʾ´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// Titles and honorifics the lists print in the name field ("Dr. Ayman", "Shaykh Umar", "Haji Mudir").
const HONORIFICS = new Set([
  'mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'sir', 'madam', 'sheikh', 'shaykh', 'sheik', 'shaikh', 'haji', 'hajji',
  'hajj', 'mullah', 'mawlawi', 'maulavi', 'maulvi', 'qari', 'imam', 'general', 'colonel', 'major', 'captain',
]);

// Legal forms: "CIMEX, S.A." and "CIMEX" are the same name for screening; the form is not evidence.
const LEGAL_FORMS = new Set([
  'pty', 'ltd', 'limited', 'llc', 'inc', 'incorporated', 'co', 'corp', 'corporation', 'company', 'plc', 'gmbh', 'ag',
  'sa', 'sas', 'sarl', 'srl', 'spa', 'bv', 'nv', 'llp', 'lp', 'jsc', 'ojsc', 'pjsc', 'cjsc', 'ooo', 'oao', 'zao',
  'pao', 'ltda', 'fze', 'fzco', 'fzc', 'bhd', 'sdn', 'pte', 'kg', 'ab', 'as', 'oy',
]);

// Particles that lists write joined, hyphenated, spaced or not at all ("AL ZAWAHIRI", "al-Zawahiri",
// "Zawahiri"; "Usama bin Muhammad bin Awad"): kept out of the comparison so their presence decides nothing.
const PARTICLES = new Set(['al', 'el', 'ul', 'ad', 'ud', 'bin', 'ibn', 'bint', 'ben', 'van', 'von', 'der', 'de', 'da', 'del', 'la', 'di', 'du', 'the', 'of', 'and']);

/** The tokens two names are compared on: normalised, without honorifics, legal forms or particles. */
export function nameTokens(raw: string): string[] {
  const words = normaliseName(raw).split(' ').filter((word) => word.length > 0);
  // "S A" (from "S.A.") and "L L C" are legal forms spelt in initials: a run of single letters is one token.
  const joined: string[] = [];
  let inInitials = false;
  for (const word of words) {
    if (word.length === 1 && inInitials) joined[joined.length - 1] += word;
    else joined.push(word);
    inInitials = word.length === 1;
  }
  const kept = joined.filter((word) => !HONORIFICS.has(word) && !LEGAL_FORMS.has(word) && !PARTICLES.has(word));
  // A name made only of such words (a company called "General Company") keeps its words rather than none.
  return kept.length > 0 ? kept : joined;
}
