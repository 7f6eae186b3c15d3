import { createHash } from 'node:crypto';
import type { PageText } from '../documents/types.ts';
import { classifyDocument, solicitationScore, type ExtractDocumentType } from './extract/classify.ts';
import { documentDate, type DatedKind } from './extract/document-date.ts';

/**
 * The document types the identity check and the document-pack checker share, and a classifier that names a
 * document's type from its page-1 text. Each type is a set of weighted cues (phrases a person would look for
 * on the page); the type with the highest score wins and the cues it matched are reported, so every
 * classification can be read back and argued with.
 */

/** What a document shows: N name, P photo, A address, S signature (the AFP checklist's letters). */
export type Shown = 'N' | 'P' | 'A' | 'S';

interface Cue {
  /** Said back to the caller when it matches, e.g. `"DRIVER LICENCE" heading`. */
  name: string;
  pattern: RegExp;
  /** Negative weights count against the type (e.g. "EXTRACT" on a full birth certificate). */
  weight: number;
}

interface TypeProfile {
  label: string;
  cues: Cue[];
  /** What a document of this type carries by design besides a photo; A is still confirmed on the page. */
  carries: Shown[];
  /** The document carries the holder's photograph (shown as P when the page holds a picture). */
  photo: boolean;
}

const cue = (name: string, pattern: RegExp, weight: number): Cue => ({ name, pattern, weight });
/** A cue that comes from somewhere other than the page's text (the machine-readable zone). */
type Weighed = Pick<Cue, 'name' | 'weight'>;
const weighed = (name: string, weight: number): Weighed => ({ name, weight });

const AU_STATE_ISSUERS = /TRANSPORT FOR NSW|SERVICE NSW|ROADS AND MARITIME|VICROADS|DEPARTMENT OF TRANSPORT|TRANSPORT AND MAIN ROADS|QUEENSLAND GOVERNMENT|ACCESS CANBERRA|SERVICE TASMANIA|MOTOR VEHICLE REGISTRY|DEPARTMENT FOR INFRASTRUCTURE/;
const REGISTRY = /BIRTHS,? DEATHS,? (AND|&) MARRIAGES/;
const US_STATES = /\b(ALABAMA|ALASKA|ARIZONA|ARKANSAS|CALIFORNIA|COLORADO|CONNECTICUT|DELAWARE|FLORIDA|GEORGIA|HAWAII|IDAHO|ILLINOIS|INDIANA|IOWA|KANSAS|KENTUCKY|LOUISIANA|MAINE|MARYLAND|MASSACHUSETTS|MICHIGAN|MINNESOTA|MISSISSIPPI|MISSOURI|MONTANA|NEBRASKA|NEVADA|NEW HAMPSHIRE|NEW JERSEY|NEW MEXICO|NEW YORK|NORTH CAROLINA|NORTH DAKOTA|OHIO|OKLAHOMA|OREGON|PENNSYLVANIA|RHODE ISLAND|SOUTH CAROLINA|SOUTH DAKOTA|TENNESSEE|TEXAS|UTAH|VERMONT|VIRGINIA|WASHINGTON|WEST VIRGINIA|WISCONSIN|WYOMING|DISTRICT OF COLUMBIA)\b/;
/** AAMVA's numbered fields on a North American licence (4b expiry, 4d number, 9 class, 9a endorsements, 12 restrictions, 15 sex, 16 height, 17 weight, 18 eyes). */
const AAMVA_FIELD = /\b(4[ABD]\s?(ISS|EXP|DL|NUMBER|NO|CUSTOMER|LIC)|9A?\s?(CLASS|END|VEHICLE)|1[2-8]\s?(RESTR|SEX|HGT|WGT|EYES|HAIR))/;
const RESIDENCE_PERMIT = /RESIDENCE PERMIT|RESIDENCE CARD|PERMANENT RESIDEN|EMPLOYMENT AUTHORI[SZ]ATION|LEAVE TO REMAIN|TITRE DE S[EÉ]JOUR|AUFENTHALTSTITEL|AUFENTHALTSERLAUBNIS|VERBLIJFS|PERMISO DE RESIDENCIA|AUTORIZA[CÇ][AÃ]O DE RESID|PERMESSO DI SOGGIORNO|UPPEHÅLLSTILLSTÅND/;
const COUNCIL = /\b(COUNCIL|SHIRE|MUNICIPAL|CITY OF [A-Z]+)\b/;
const UTILITY_METERING = /SUPPLY ADDRESS|SERVICE ADDRESS|\bMETER\b|\bKWH\b|\bNMI\b|\bMIRN\b|\bUSAGE\b|\bTARIFF\b|\bDATA (ALLOWANCE|USAGE)\b/;

const profiles = {
  australian_passport: {
    label: 'Australian passport',
    carries: ['N', 'S'],
    photo: true,
    cues: [
      cue('machine-readable zone of an Australian passport (P<AUS)', /P<AUS/, 6),
      cue('"PASSPORT"', /\bPASSPORT\b/, 3),
      cue('"AUSTRALIA"', /\bAUSTRALIA\b/, 2),
      cue('nationality Australian', /NATIONALITY[^A-Z]{0,4}AUSTRALIAN/, 2),
      cue('foreign machine-readable zone', /P<(?!AUS)[A-Z]{3}/, -8),
    ],
  },
  foreign_passport: {
    label: 'Foreign passport',
    carries: ['N', 'S'],
    photo: true,
    cues: [
      cue('machine-readable zone of a passport issued outside Australia', /P<(?!AUS)[A-Z]{3}/, 6),
      cue('"PASSPORT"', /\bPASSPORT\b|\bPASSEPORT\b|\bPASAPORTE\b|\bREISEPASS\b/, 3),
      cue('passport number label', /PASSPORT\s*(CARD\W*)?(NO\b|NUMBER|N°)|N° DU PASSEPORT|PASS-NR/, 2),
      cue('"NATIONALITY"', /NATIONALITY|NATIONALIT[EÉ]/, 1),
      cue('machine-readable zone of an Australian passport', /P<AUS/, -8),
      cue('nationality Australian', /NATIONALITY[^A-Z]{0,4}AUSTRALIAN/, -4),
      cue('"AUSTRALIA"', /\bAUSTRALIA\b/, -2),
    ],
  },
  national_id_card: {
    label: 'National identity card issued outside Australia',
    carries: ['N', 'S'],
    photo: true,
    cues: [
      cue('"IDENTITY CARD" heading', /IDENTITY CARD|NATIONAL ID\b|CARTE NATIONALE D.?IDENTIT|CARTE D.?IDENTIT|PERSONALAUSWEIS|IDENTITEITSKAART|IDENTITETSKORT|HENKIL[OÖ]KORTTI|DOCUMENTO NACIONAL DE IDENTIDAD|CARTA D.?IDENTIT|OSOBN[IÍ] PR[UŮ]KAZ|DOW[OÓ]D OSOBISTY|PERSONAS APLIEC[IĪ]BA|ASMENS TAPATYB[EĖ]S|OSEBNA IZKAZNICA|SZEM[EÉ]LYAZONOS[IÍ]T[OÓ]|AADHAAR/, 5),
      // Spanish invoices print the buyer's "DNI/NIF"; the card itself also says DOCUMENTO NACIONAL DE IDENTIDAD.
      cue('"DNI"', /\bDNI\b/, 2),
      cue('machine-readable zone of an identity card (I, A or C)', /^[IAC1][A-Z0-9<][A-Z<]{3}[A-Z0-9<]{9}(?=.*<)/m, 3),
      cue('residence permit wording', RESIDENCE_PERMIT, -4),
    ],
  },
  residence_permit: {
    label: 'Residence permit or permanent resident card issued outside Australia',
    carries: ['N', 'S'],
    photo: true,
    cues: [
      cue('residence permit heading', RESIDENCE_PERMIT, 6),
      cue('resident card labels (card expires, resident since, category, USCIS)', /(PERMANENT|RESIDENT(?!IAL))[\s\S]{0,300}(CARD EXPIRES|RESIDENT SINCE|CATEGORY|USCIS)/, 5),
      cue('machine-readable zone of a card (I, A or C)', /^[IAC1][A-Z0-9<][A-Z<]{3}[A-Z0-9<]{9}/m, 1),
    ],
  },
  visa: {
    label: 'Visa issued outside Australia',
    carries: ['N'],
    photo: true,
    cues: [
      cue('"VISA" heading', /\bVISA\b|\bVISUM\b|\bVISTO\b/, 4),
      cue('border crossing card (a visa for the US border zone)', /BORDER CROSS/, 8),
      // A zone line carries fillers; a long capitalised word starting with V ("VERSICHERUNGSSTEUER") does not.
      cue('machine-readable zone of a visa (V)', /^V[A-Z<][A-Z]{3}[A-Z<]{8}(?=.*<)/m, 4),
      cue('ImmiCard', /IMMI\s?CARD/, -6),
    ],
  },
  drivers_licence: {
    label: 'Australian driver licence or learner permit',
    carries: ['N', 'S'],
    photo: true,
    cues: [
      cue('"DRIVER LICENCE" heading', /DRI?VER'?S?[\s\S]{0,20}?LICEN[CS]E|DRIVING LICEN[CS]E|LEARNER'?S?\s*(LICEN[CS]E|PERMIT)|PROVISIONAL LICEN[CS]E|P[12] LICEN[CS]E|PERMIS DE ?C|F[UÜ]HRERSCHEIN|PERMISO DE CONDUCIR|PATENTE DI GUIDA|RIJBEWIJS|K[OÖ]RKORT/, 5),
      cue('one-line machine-readable zone of an EU driving licence', /^D[1<][A-Z]{3}[A-Z0-9<]{20,}/m, 4),
      cue('a US state and "LICENSE" or "DRIVER"', new RegExp(`${US_STATES.source}[\\s\\S]{0,80}(LICEN[CS]E|DRIVER)`), 3),
      cue('AAMVA numbered licence fields', new RegExp(`${AAMVA_FIELD.source}[\\s\\S]*${AAMVA_FIELD.source}`), 4),
      cue('AAMVA licence fields (height, eyes, class, restrictions, endorsements)', /(\bHGT\b|\bEYES\b|\bRESTR|\bEND(ORSEMENTS)?\b|\bDD\b)[\s\S]*(\bHGT\b|\bEYES\b|\bRESTR|\bEND(ORSEMENTS)?\b|\bCLASS\b)/, 2),
      cue('application form wording', /APPLICATION FOR|APPLICANT|FORM DL-/, -6),
      cue('licence number', /LICEN[CS]E\s*(NO|NUMBER)/, 2),
      cue('licence class', /LICEN[CS]E CLASS|\bCLASS\s*:?\s*(C|LR|MR|HR|HC|MC|R|C A)\b/, 2),
      cue('state licensing authority', AU_STATE_ISSUERS, 1),
      cue('"PROOF OF AGE" / "PHOTO CARD"', /PROOF OF AGE|PHOTO CARD|KEYPASS|AGE CARD/, -4),
    ],
  },
  proof_of_age_card: {
    label: 'State or territory proof-of-age or photo card',
    carries: ['N', 'S'],
    photo: true,
    cues: [
      cue('"PROOF OF AGE" / "PHOTO CARD" heading', /PROOF OF AGE|PHOTO CARD|KEYPASS|AGE CARD|EVIDENCE OF AGE|18\+ CARD/, 5),
      cue('date of birth', /DATE OF BIRTH|\bDOB\b/, 1),
      cue('state issuing authority', AU_STATE_ISSUERS, 1),
      cue('"DRIVER LICENCE"', /DRIVER'?S?\s*LICEN[CS]E/, -3),
    ],
  },
  medicare_card: {
    label: 'Medicare card',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"MEDICARE"', /MEDICARE/, 4),
      cue('Medicare number layout (4 5 1)', /\b\d{4}\s\d{5}\s\d\b/, 2),
      cue('"VALID TO"', /VALID\s*TO/, 1),
      cue('tax notice or payroll wording', /NOTICE OF ASSESSMENT|MEDICARE LEVY|TAXABLE INCOME|PAY ?SLIP|GROSS PAY|MEDICARE WAGES|TAX WITHHELD|WAGE AND TAX|INCOME TAX/, -6),
    ],
  },
  birth_certificate: {
    label: 'Full birth certificate',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"BIRTH CERTIFICATE" heading', /BIRTH CERTIFICATE|CERTIFICATE OF BIRTH/, 4),
      cue('registry of births, deaths and marriages', REGISTRY, 2),
      cue('parents recorded', /\bMOTHER\b|\bFATHER\b|\bPARENT\b/, 1),
      cue('registration number', /REGISTRATION (NUMBER|NO)/, 1),
      cue('"EXTRACT" or "BIRTH CARD"', /\bEXTRACT\b|BIRTH CARD/, -6),
      cue('marriage or change of name wording', /MARRIAGE CERTIFICATE|CERTIFICATE OF MARRIAGE|CHANGE OF NAME/, -6),
    ],
  },
  birth_extract: {
    label: 'Birth certificate extract or birth card',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"BIRTH EXTRACT" / "BIRTH CARD" heading', /BIRTH (CERTIFICATE )?EXTRACT|EXTRACT OF (BIRTH|AN ENTRY)|BIRTH CARD|EXTRACT OF BIRTH/, 6),
      cue('registry of births, deaths and marriages', REGISTRY, 2),
    ],
  },
  citizenship_certificate: {
    label: 'Australian citizenship certificate',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"CITIZENSHIP CERTIFICATE" heading', /CITIZENSHIP CERTIFICATE|CERTIFICATE OF (AUSTRALIAN )?CITIZENSHIP/, 5),
      cue('citizenship wording', /AUSTRALIAN CITIZENSHIP ACT|BECAME AN AUSTRALIAN CITIZEN|AUSTRALIAN CITIZEN\b/, 2),
      cue('Department of Home Affairs', /HOME AFFAIRS|DEPARTMENT OF IMMIGRATION/, 1),
      cue('ImmiCard', /IMMICARD/, -6),
    ],
  },
  immicard: {
    label: 'ImmiCard',
    carries: ['N', 'S'],
    photo: true,
    cues: [
      cue('"IMMICARD"', /IMMI\s?CARD/, 7),
      cue('Department of Home Affairs', /HOME AFFAIRS/, 1),
      cue('visa wording', /\bVISA\b/, 1),
    ],
  },
  centrelink_card: {
    label: 'Centrelink concession or pension card',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"CENTRELINK"', /CENTRELINK/, 2),
      cue('concession card heading', /PENSIONER CONCESSION CARD|HEALTH CARE CARD|CONCESSION CARD|COMMONWEALTH SENIORS HEALTH CARD/, 5),
      cue('customer reference number', /\bCRN\b|CUSTOMER REFERENCE (NUMBER|NO)|\b\d{3}\s?\d{3}\s?\d{3}[A-Z]\b/, 2),
      cue('statement wording', /INCOME STATEMENT|PAYMENT SUMMARY|STATEMENT OF (BENEFITS?|PAYMENTS)|CONFIRMATION OF (BENEFITS?|PAYMENTS?)|PAYMENT HISTORY/, -6),
    ],
  },
  centrelink_statement: {
    label: 'Centrelink income statement or benefit confirmation',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"CENTRELINK"', /CENTRELINK/, 2),
      cue('benefit statement heading', /INCOME STATEMENT|PAYMENT SUMMARY|STATEMENT OF (BENEFITS?|PAYMENTS)|CONFIRMATION OF (BENEFITS?|PAYMENTS?)|PAYMENT HISTORY|BENEFIT STATEMENT/, 4),
      cue('Services Australia', /SERVICES AUSTRALIA|DEPARTMENT OF HUMAN SERVICES/, 1),
      cue('payment rate wording', /FORTNIGHTLY|PAYMENT TYPE|RATE OF PAYMENT|AGE PENSION|JOBSEEKER|PARENTING PAYMENT|DISABILITY SUPPORT/, 1),
    ],
  },
  bank_card: {
    label: 'Credit, debit or account card',
    carries: ['N', 'S'],
    photo: false,
    cues: [
      cue('card scheme or expiry wording', /VALID\s*(THRU|THROUGH|FROM)|MEMBER SINCE|\b(VISA|MASTERCARD|EFTPOS|DEBIT|AMEX|AMERICAN EXPRESS)\b/, 3),
      cue('16-digit card number', /\b\d{4}\s\d{4}\s\d{4}\s\d{4}\b/, 3),
      cue('statement wording', /STATEMENT|OPENING BALANCE|CLOSING BALANCE|CREDIT LIMIT/, -5),
    ],
  },
  bank_statement: {
    label: 'Bank account statement',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"STATEMENT"', /STATEMENT/, 1),
      cue('opening or closing balance', /OPENING BALANCE|CLOSING BALANCE|BEGINNING BALANCE|ENDING BALANCE|BALANCE (BROUGHT|CARRIED) FORWARD/, 3),
      cue('BSB', /\bBSB\b/, 2),
      cue('statement period', /STATEMENT PERIOD|STATEMENT (FROM|BEGINS|STARTS)|PERIOD\s*:?\s*\d/, 2),
      cue('transaction columns', /TRANSACTION|WITHDRAWAL|DEPOSIT|\bDEBIT\b|\bCREDIT\b/, 1),
      // A loan product's name alone ("see our personal loan rates") is an advert on many bank statements; a loan's own statement names its account.
      cue('credit-card or loan wording', /CREDIT LIMIT|MINIMUM (PAYMENT|REPAYMENT)|AVAILABLE CREDIT|LOAN (ACCOUNT|STATEMENT|BALANCE)/, -5),
    ],
  },
  credit_card_statement: {
    label: 'Credit card statement',
    carries: ['N'],
    photo: false,
    cues: [
      cue('credit limit', /CREDIT LIMIT/, 3),
      cue('minimum payment', /MINIMUM (PAYMENT|REPAYMENT)/, 3),
      cue('"CREDIT CARD"', /CREDIT CARD/, 2),
      cue('"STATEMENT"', /STATEMENT/, 1),
      cue('payment due or available credit', /PAYMENT DUE|AVAILABLE CREDIT|CLOSING BALANCE/, 1),
    ],
  },
  loan_statement: {
    label: 'Loan statement',
    carries: ['N'],
    photo: false,
    cues: [
      cue('loan heading', /LOAN (STATEMENT|ACCOUNT|BALANCE)|HOME LOAN|PERSONAL LOAN|CAR LOAN|MORTGAGE (STATEMENT|ACCOUNT)/, 4),
      cue('interest rate or repayment', /INTEREST RATE|LOAN AMOUNT|REPAYMENT|LIMIT OF FACILITY/, 2),
      cue('"STATEMENT"', /STATEMENT/, 1),
      cue('credit card wording', /CREDIT LIMIT|MINIMUM PAYMENT|CREDIT CARD/, -3),
    ],
  },
  utility_bill: {
    label: 'Utility bill (electricity, gas, water, telephone, internet)',
    carries: ['N'],
    photo: false,
    cues: [
      cue('utility service', /ELECTRICITY|\bGAS\b|\bWATER\b|INTERNET|\bNBN\b|TELEPHONE|\bMOBILE\b|\bENERGY\b|BROADBAND/, 2),
      cue('supply address or metering', UTILITY_METERING, 3),
      cue('amount due', /AMOUNT DUE|TOTAL DUE|DUE DATE|PAY BY|AMOUNT PAYABLE/, 1),
      cue('rates wording', /RATES? NOTICE|RATES AND CHARGES|LAND VALUE|RATEABLE/, -4),
    ],
  },
  rates_notice: {
    label: 'Council rates notice',
    carries: ['N'],
    photo: false,
    cues: [
      cue('rates notice heading', /RATES? NOTICE|NOTICE OF RATES|RATES AND CHARGES|RATES INSTALMENT|RATE ASSESSMENT/, 5),
      cue('council or shire', COUNCIL, 2),
      cue('valuation or assessment', /ASSESSMENT (NUMBER|NO)|LAND VALUE|RATEABLE|CAPITAL IMPROVED VALUE|SITE VALUE|VALUATION/, 2),
      cue('property address', /PROPERTY (ADDRESS|LOCATION)/, 1),
    ],
  },
  council_document: {
    label: 'Other council document',
    carries: ['N'],
    photo: false,
    cues: [
      cue('council or shire', COUNCIL, 3),
      cue('council notice wording', /PERMIT|APPROVAL|REGISTRATION|ANIMAL|DEVELOPMENT APPLICATION|WASTE|PARKING|INFRINGEMENT|CERTIFICATE|NOTICE/, 1),
      cue('rates wording', /RATES? NOTICE|RATES AND CHARGES|LAND VALUE|RATEABLE/, -4),
    ],
  },
  payslip: {
    label: 'Payslip',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"PAYSLIP" heading', /PAY\s?SLIP|PAY ADVICE|EARNINGS STATEMENT|REMUNERATION ADVICE/, 4),
      cue('gross and net pay', /GROSS (PAY|EARNINGS)|NET (PAY|EARNINGS)/, 3),
      cue('pay period', /PAY PERIOD|PAY DATE|PERIOD ENDING|PAYMENT DATE/, 2),
      cue('year to date, super or PAYG', /\bYTD\b|YEAR TO DATE|SUPERANNUATION|\bPAYG\b|TAX WITHHELD|ORDINARY HOURS|HOURLY RATE/, 1),
      cue('tax notice wording', /NOTICE OF ASSESSMENT/, -4),
    ],
  },
  tax_notice_of_assessment: {
    label: 'ATO notice of assessment',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"NOTICE OF ASSESSMENT" heading', /NOTICE OF ASSESSMENT/, 5),
      cue('Australian Taxation Office', /AUSTRALIAN TAXATION OFFICE|\bATO\b/, 2),
      cue('assessment figures', /TAXABLE INCOME|TAX FILE NUMBER|\bTFN\b|YOUR REFUND|AMOUNT PAYABLE|MEDICARE LEVY|TAX ON TAXABLE/, 2),
    ],
  },
  employment_letter: {
    label: 'Employment letter',
    carries: ['N', 'S'],
    photo: false,
    cues: [
      cue('employment letter heading', /TO WHOM IT MAY CONCERN|CONFIRMATION OF EMPLOYMENT|EMPLOYMENT (VERIFICATION|CONFIRMATION)|LETTER OF EMPLOYMENT|EMPLOYMENT LETTER|STATEMENT OF SERVICE/, 3),
      cue('employment wording', /(IS|HAS BEEN) EMPLOYED|EMPLOYED (BY|WITH|AS)|COMMENCED (EMPLOYMENT|WITH)|EMPLOYMENT (TYPE|STATUS)|FULL[- ]TIME|PART[- ]TIME|PERMANENT/, 2),
      cue('salary, position or HR signatory', /ANNUAL SALARY|BASE SALARY|POSITION|HUMAN RESOURCES|PEOPLE (AND|&) CULTURE|PAYROLL/, 1),
      cue('payslip figures', /GROSS PAY|NET PAY/, -4),
      cue('tenancy wording', /TENANT|TENANCY|RENTAL/, -3),
    ],
  },
  rental_ledger: {
    label: 'Rental (tenant) ledger',
    carries: ['N'],
    photo: false,
    cues: [
      cue('ledger heading', /(TENANT|TENANCY|RENTAL|RENT) LEDGER|LEDGER/, 5),
      cue('rent paid-to wording', /PAID TO|RENT PAID|ARREARS|RENT RECEIPT/, 2),
      cue('tenant or property', /TENANT|PROPERTY/, 1),
    ],
  },
  tenancy_reference: {
    label: 'Rental or tenancy reference',
    carries: ['N', 'S'],
    photo: false,
    cues: [
      cue('reference heading', /(RENTAL|TENANCY|TENANT|LANDLORD|RENTAL HISTORY) REFERENCE|REFERENCE FOR|LETTER OF REFERENCE/, 4),
      cue('rental behaviour wording', /WOULD (HAPPILY )?(RENT|LEASE) TO|RENT AGAIN|LEFT THE PROPERTY|CONDITION OF THE PROPERTY|(RENT|PAYMENTS) (WAS|WERE|ALWAYS) (PAID )?ON TIME|RECOMMEND/, 2),
      cue('property manager or tenancy', /PROPERTY MANAGER|TENANT|TENANCY|RENTED/, 1),
      cue('ledger wording', /LEDGER/, -3),
    ],
  },
  lease_agreement: {
    label: 'Residential tenancy (lease) agreement',
    carries: ['N', 'S'],
    photo: false,
    cues: [
      cue('tenancy agreement heading', /RESIDENTIAL (TENANCY|RENTAL) AGREEMENT|TENANCY AGREEMENT|LEASE AGREEMENT|RENTAL AGREEMENT|GENERAL TENANCY AGREEMENT/, 5),
      cue('landlord or rental provider', /LANDLORD|RENTAL PROVIDER|LESSOR/, 1),
      cue('tenant or renter', /\bTENANTS?\b|\bRENTERS?\b|LESSEE/, 1),
      cue('bond or term', /\bBOND\b|TERM OF (THE )?AGREEMENT|FIXED TERM|PERIODIC/, 1),
    ],
  },
  tax_invoice: {
    label: 'Tax invoice',
    carries: [],
    photo: false,
    cues: [
      // "…subject to a correctly rendered tax invoice" in a contract's or a tender's sentence names no heading.
      cue('"TAX INVOICE" heading', /(?<!\b(?:A|AN|THE)\s(?:[A-Z]+\s){0,2})TAX INVOICE/, 5),
      cue('ABN', /\bABN\b/, 1),
      cue('GST', /\bGST\b/, 1),
      cue('invoice number or total', /INVOICE (NUMBER|NO|DATE)|TOTAL (INC|INCL|INCLUDING)/, 1),
      cue('utility metering', UTILITY_METERING, -4),
      cue('rates wording', /RATES? NOTICE|RATES AND CHARGES/, -4),
    ],
  },
  marriage_certificate: {
    label: 'Marriage certificate',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"MARRIAGE CERTIFICATE" heading', /MARRIAGE CERTIFICATE|CERTIFICATE OF MARRIAGE/, 5),
      cue('registry of births, deaths and marriages', REGISTRY, 2),
      cue('marriage particulars', /\bBRIDE\b|\bGROOM\b|\bPARTIES\b|CELEBRANT|PLACE OF MARRIAGE|DATE OF MARRIAGE/, 1),
    ],
  },
  change_of_name_certificate: {
    label: 'Change of name certificate',
    carries: ['N'],
    photo: false,
    cues: [
      cue('"CHANGE OF NAME" heading', /CHANGE OF NAME|NAME CHANGE/, 5),
      cue('registry of births, deaths and marriages', REGISTRY, 2),
      cue('former and new names', /FORMER NAME|NEW NAME|PREVIOUS NAME|NAME BEFORE/, 2),
    ],
  },
  student_id_card: {
    label: 'Tertiary student photo identification card',
    carries: ['N'],
    photo: true,
    cues: [
      cue('"STUDENT"', /\bSTUDENT\b/, 3),
      cue('tertiary institution', /UNIVERSITY|\bTAFE\b|INSTITUTE OF TECHNOLOGY|POLYTECHNIC/, 2),
      cue('student number', /STUDENT (NO|NUMBER|ID)/, 2),
    ],
  },
  government_employee_id: {
    label: 'Government employee identification card',
    carries: ['N'],
    photo: true,
    cues: [
      cue('staff identification wording', /(STAFF|EMPLOYEE|OFFICER) (ID|IDENTIFICATION|IDENTITY)( CARD)?|AUTHORISED OFFICER|PUBLIC SERVICE/, 4),
      cue('government agency', /DEPARTMENT OF|GOVERNMENT|AGENCY/, 1),
      cue('employee number', /EMPLOYEE (NO|NUMBER)|STAFF (NO|NUMBER)/, 1),
    ],
  },
  dva_card: {
    label: 'Department of Veterans\' Affairs card',
    carries: ['N'],
    photo: false,
    cues: [
      cue('Veterans\' Affairs', /VETERANS'? AFFAIRS|\bDVA\b|VETERAN CARD/, 5),
      cue('DVA card colour or file number', /GOLD CARD|WHITE CARD|ORANGE CARD|FILE (NO|NUMBER)/, 1),
    ],
  },
  working_with_children_card: {
    label: 'Working with children check card',
    carries: ['N'],
    photo: true,
    cues: [
      cue('working with children wording', /WORKING WITH CHILDREN|WORKING WITH VULNERABLE PEOPLE|\bWWC\b|BLUE CARD/, 6),
      cue('check or clearance number', /CHECK (NUMBER|NO)|CLEARANCE|CARD (NUMBER|NO)/, 1),
    ],
  },
} satisfies Record<string, TypeProfile>;

export type DocumentType = keyof typeof profiles;
export const documentTypeNames = Object.keys(profiles) as DocumentType[];

export function isDocumentType(name: string): name is DocumentType {
  return Object.hasOwn(profiles, name);
}

export function documentTypeLabel(type: DocumentType): string {
  return profiles[type].label;
}

/** The type as it reads inside a sentence, with its article: "an Australian passport", "a utility bill (…)". */
export function documentTypePhrase(type: DocumentType): string {
  const label = profiles[type].label;
  const noun = /^(Australian|Medicare|Centrelink|ATO|ImmiCard|Department)\b/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
  return `${/^[aeio]|^u(?!ti|ni|se)|^ATO/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** What is known about pictures on page 1, read alongside its text (api/checkers/first-page.ts). */
export interface PageImageFacts {
  /** The upload is itself a picture (a photo or scan of the document). */
  isImage: boolean;
  /** Share of page 1's area covered by its largest embedded image; 1 for an image upload. */
  largestImageShare: number;
}

export interface DocumentClassification {
  type: DocumentType | 'unrecognised';
  /** 0..1: how clearly the winning type's cues outweigh the runner-up's. */
  confidence: number;
  /** The cues of the winning type that matched. */
  cues: string[];
  shows: Shown[];
  /** ISO date read next to an expiry label ("Expiry", "Valid to"), or null. */
  expires: string | null;
  /** ISO date read next to an issue or statement label, or null. */
  issued: string | null;
  /**
   * SHA-256 of the page's first line, used to tell two documents of one type from different organisations
   * apart. A digest, not the line: on some documents the first line is the holder's name, and the
   * classification is kept (api/checkers/first-page-cache.ts).
   */
  issuerDigest: string | null;
  /** Lines on page 1 that read as transactions (a date and an amount). */
  transactionLines: number;
  /** A Centrelink card that names a pension (AUSTRAC's primary non-photographic pension card). */
  pensionCard: boolean;
  /** The machine-readable zone read on page 1, or null when none was readable. */
  zone: ZoneSummary | null;
}

/**
 * What a machine-readable zone read on page 1 says, without the holder: the layout, the document code and
 * issuing state, the expiry, which check digits verify, and every character changed from what was read.
 * The name, number and date of birth are not kept (the classification is stored; first-page-cache.ts).
 */
export interface ZoneSummary {
  format: 'TD1' | 'TD2' | 'TD3' | 'MRVA' | 'MRVB';
  /** The two-character document code as read, e.g. `P<`, `ID`, `IR`, `V<`. */
  document_code: string;
  /** The issuing state or organisation (ICAO code), fillers dropped. */
  issuing_state: string;
  /** ISO expiry date when the expiry's own check digit verifies, else null. */
  expires: string | null;
  checks: { name: 'document_number' | 'birth_date' | 'expiry_date' | 'personal_number' | 'composite'; valid: boolean }[];
  /** Every check digit verifies. */
  valid: boolean;
  /** Characters taken differently from what the zone reader read (1-based line and column), with why. */
  corrections: { line: number; column: number; field: string; read: string; taken: string; reason: string }[];
  /** How read lines were fitted to the layout's length. */
  adjustments: string[];
  /** Whether the printed document number, date of birth and expiry agree with the zone's (null: not read in print). */
  printed_agrees: { document_number: boolean | null; date_of_birth: boolean | null; expiry: boolean | null };
  /** Where the zone was read: `page 1, pixels x,y wxh` of the picture, or `page 1, text layer`. */
  where: string;
}

/** The least score a type needs before it is named at all; below it the document is `unrecognised`. */
const RECOGNITION_FLOOR = 4;
/** A score at which a type is named with full confidence when nothing else competes. */
const CLEAR_SCORE = 7;
/** More visible characters than any photo identity document prints on its page (a passport's data page reads under 1,500). */
const PHOTO_DOCUMENT_TEXT = 4000;
/** Share of the page an image must cover to count as a photo on a PDF page (a card photo on an A4 scan is ~1%). */
const PHOTO_SHARE = 0.008;

/**
 * Classifies page 1 from its text and, when a machine-readable zone was read there, from the zone's
 * document code: the issuer's own statement of what the document is, weighed as a strong cue.
 */
export function classifyPage(page: PageText | null, images: PageImageFacts, zone: ZoneSummary | null = null): DocumentClassification {
  const text = normalise(page?.text ?? '');
  const readAs = page === null ? 'unrecognised' : classifyDocument([page]).document_type;
  // Cues that span a page ("a US state … LICENSE") match somewhere in a long form; a card's or passport's page is short.
  const longPage = text.replace(/\s/g, '').length > PHOTO_DOCUMENT_TEXT;
  const fromReader = extractionCues(readAs);
  // Print of an invoice or a statement can fit a zone's shape ("VERSICHERUNGSSTEUER…" lines); with every check digit failing there, it is not one.
  const printFittingAZone = zone !== null && readAs !== 'unrecognised' && zone.checks.every((check) => !check.valid);
  const fromZone = zoneCues(printFittingAZone ? null : zone);
  const scored = documentTypeNames
    .map((type) => {
      const matched: Weighed[] = [
        ...profiles[type].cues.filter((candidate) => candidate.pattern.test(text)),
        ...(fromZone.get(type) ?? []),
        ...(fromReader.get(type) ?? []),
        ...(profiles[type].photo && longPage ? [weighed('a page of text, longer than any card or passport page', -6)] : []),
      ];
      return { type, score: matched.reduce((sum, candidate) => sum + candidate.weight, 0), cues: matched.filter((candidate) => candidate.weight > 0).map((candidate) => candidate.name) };
    })
    .sort((a, b) => b.score - a.score);
  const best = scored[0]!;
  const runnerUp = Math.max(0, scored[1]?.score ?? 0);
  // A request for tenders or quotes asks for the licences and forms it names; it is none of them.
  const solicitation = page === null ? 0 : solicitationScore([page]);
  const recognised = best.score >= RECOGNITION_FLOOR && !(solicitation >= RECOGNITION_FLOOR && solicitation >= best.score);
  const dated = recognised ? datedKinds[best.type] : undefined;
  const common = {
    expires: zone?.expires ?? labelledDate(text, EXPIRY_LABELS),
    issued: (dated && page ? documentDate([page], dated) : null) ?? labelledDate(text, ISSUE_LABELS),
    issuerDigest: digestOf(firstLine(page?.text ?? '')),
    transactionLines: transactionLines(text),
    zone,
  };
  if (!recognised) {
    return { type: 'unrecognised', confidence: 0, cues: best.score > 0 ? best.cues : [], shows: [], pensionCard: false, ...common };
  }
  const profile: TypeProfile = profiles[best.type];
  const confidence = Math.min(1, best.score / CLEAR_SCORE) * (best.score / (best.score + runnerUp));
  return {
    type: best.type,
    confidence: Math.round(confidence * 100) / 100,
    cues: best.cues,
    shows: shown(profile, text, images),
    pensionCard: best.type === 'centrelink_card' && /PENSION/.test(text),
    ...common,
  };
}

/** The extraction reader's types that are types here too: its titles and labels in seven languages count as one cue. */
const extractedTypes: Partial<Record<ExtractDocumentType, DocumentType>> = { payslip: 'payslip', bank_statement: 'bank_statement', tax_invoice: 'tax_invoice' };
/** As strong as a heading: the reader names a type only when several of its titles and labels agree. */
const EXTRACTION_CUE_WEIGHT = 4;

/**
 * What the extraction reader classifies the page as (POST /v1/extract's classification), as a cue for the same type here.
 * A page it reads as a contract (an agreement's title, parties and clauses) counts against every type here but the
 * lease: a distributor agreement naming a US state and a business licence, or a work order's "authorised officer" of
 * an agency, is no licence, staff card or invoice.
 */
function extractionCues(read: ExtractDocumentType | 'unrecognised'): Map<DocumentType, Weighed[]> {
  const cues = new Map<DocumentType, Weighed[]>();
  if (read === 'contract') {
    const against = weighed('reads as a contract or agreement (its title, parties and clauses), which this type is not', -EXTRACTION_CUE_WEIGHT);
    for (const type of documentTypeNames) if (type !== 'lease_agreement') cues.set(type, [against]);
    return cues;
  }
  const type = read === 'unrecognised' ? undefined : extractedTypes[read];
  if (type) cues.set(type, [weighed(`reads as ${documentTypePhrase(type)} (its titles and labels, in any of seven languages)`, EXTRACTION_CUE_WEIGHT)]);
  return cues;
}

/** Types dated as extraction dates them (extract/document-date.ts): a payslip's pay date, a statement's period end, an invoice's date. */
const datedKinds: Partial<Record<DocumentType, DatedKind>> = {
  payslip: 'payslip',
  bank_statement: 'bank_statement',
  credit_card_statement: 'bank_statement',
  loan_statement: 'bank_statement',
  tax_invoice: 'tax_invoice',
};

/**
 * Doc 9303's document codes as cues: P a passport (Australian when the issuing state is AUS), V a visa,
 * I, A or C a card: a residence permit when its second letter is R (the EU's residence permits print IR,
 * Germany's AR), otherwise more likely a national identity card, with the card's own words to decide.
 */
function zoneCues(zone: ZoneSummary | null): Map<DocumentType, Weighed[]> {
  const cues = new Map<DocumentType, Weighed[]>();
  if (zone === null) return cues;
  const [first, second] = [zone.document_code[0], zone.document_code[1]];
  const named = (what: string) => `machine-readable zone (${zone.format}, document code ${zone.document_code.replace(/</g, '')}${what})`;
  if (first === 'P') {
    const australian = zone.issuing_state === 'AUS';
    cues.set('australian_passport', [weighed(named(australian ? ', issued by Australia' : ''), australian ? 8 : -8)]);
    cues.set('foreign_passport', [weighed(named(australian ? '' : `, issued by ${zone.issuing_state}`), australian ? -8 : 8)]);
  } else if (first === 'V') {
    cues.set('visa', [weighed(named(''), 8)]);
  } else if (first === 'I' || first === 'A' || first === 'C') {
    const residence = second === 'R';
    cues.set('residence_permit', [weighed(named(residence ? ': a residence permit' : ''), residence ? 8 : 2)]);
    cues.set('national_id_card', [weighed(named(''), residence ? 0 : 4)]);
  }
  return cues;
}

function shown(profile: TypeProfile, text: string, images: PageImageFacts): Shown[] {
  const shows = new Set<Shown>(profile.carries.filter((letter) => letter !== 'A'));
  if (profile.photo && (images.isImage || images.largestImageShare >= PHOTO_SHARE)) shows.add('P');
  if (ADDRESS.test(text)) shows.add('A');
  if (/SIGNATURE/.test(text)) shows.add('S');
  return (['N', 'P', 'A', 'S'] as const).filter((letter) => shows.has(letter));
}

/** Upper case, straight quotes, single spaces within lines: OCR and text layers then read alike. */
function normalise(text: string): string {
  return text
    .toUpperCase()
    .replace(/[‘’`]/g, "'")
    .replace(/[^\S\n]+/g, ' ');
}

function digestOf(line: string | null): string | null {
  return line === null ? null : createHash('sha256').update(line).digest('hex');
}

function firstLine(text: string): string | null {
  const line = text
    .split('\n')
    .map((candidate) => candidate.replace(/\s+/g, ' ').trim())
    .find((candidate) => /[A-Za-z]{3}/.test(candidate));
  return line ? line.slice(0, 80) : null;
}

/** A street address with an Australian state and postcode, e.g. "12 Example St, Suburb NSW 2000". */
const ADDRESS = /\b\d+[A-Z]?\s+[A-Z][A-Z' ]+\b(STREET|ST|ROAD|RD|AVENUE|AVE|DRIVE|DR|PLACE|PL|COURT|CT|CRESCENT|CRES|LANE|LN|PARADE|PDE|TERRACE|TCE|WAY|BOULEVARD|BVD|HIGHWAY|HWY|CLOSE|CL|CIRCUIT|CCT|GROVE|GR)\b[\s\S]{0,60}?\b(NSW|VIC|QLD|SA|WA|TAS|NT|ACT)\b\s*\d{4}\b/;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DATE = /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b|\b(\d{1,2}) ?(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]* ?(\d{4})\b|\b(\d{4})-(\d{2})-(\d{2})\b|\b(\d{1,2})[/-](\d{4})\b/g;
const EXPIRY_LABELS = /EXPIRY|EXPIRES|DATE OF EXPIRY|VALID (TO|UNTIL|THRU|THROUGH)|EXP\b/;
const ISSUE_LABELS = /DATE OF ISSUE|ISSUE DATE|ISSUED( ON)?|STATEMENT DATE|STATEMENT PERIOD|DATE ISSUED|NOTICE DATE|DATE OF NOTICE|PERIOD ENDING|PAY DATE|PAYMENT DATE|BILL DATE|INVOICE DATE|BILLING PERIOD|DATE OF THIS NOTICE|ISSUE\b|DATED/;

/** ISO dates in a piece of text, in order; "MM/YYYY" (a card's "valid to") reads as the month's last day. */
export function datesIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.toUpperCase().matchAll(DATE)) {
    const [, d1, m1, y1, d2, mon, y2, y3, m3, d3, m4, y4] = match;
    let iso: string | null = null;
    if (y1) iso = isoDate(Number(y1), Number(m1), Number(d1));
    else if (y2) iso = isoDate(Number(y2), MONTHS.indexOf(mon!) + 1, Number(d2));
    else if (y3) iso = isoDate(Number(y3), Number(m3), Number(d3));
    else if (y4) iso = isoDate(Number(y4), Number(m4), new Date(Date.UTC(Number(y4), Number(m4), 0)).getUTCDate());
    if (iso) found.push(iso);
  }
  return found;
}

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1900 || year > 2200) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** The last date on the label's line (a period's end), or on the next line when the label stands alone. */
function labelledDate(text: string, label: RegExp): string | null {
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const found = label.exec(line);
    if (!found) continue;
    const after = line.slice(found.index);
    const dates = datesIn(after).length > 0 ? datesIn(after) : datesIn(lines[index + 1] ?? '');
    if (dates.length > 0) return dates.at(-1)!;
  }
  return null;
}

const AMOUNT = /-?\$?\d{1,3}(,\d{3})*\.\d{2}\b/;
function transactionLines(text: string): number {
  return text.split('\n').filter((line) => datesIn(line).length > 0 && AMOUNT.test(line) && !/BALANCE|PERIOD|TOTAL|DUE/.test(line)).length;
}

/**
 * The version of a document's page-1 classification: how page 1 is read (render scale, OCR, image facts)
 * and how `classifyPage` names its type (cues, weights, dates, issuer digest). A classification is kept
 * under the document's SHA-256 and this version (api/checkers/first-page-cache.ts), so bump it whenever
 * either changes, and every document is read and classified again.
 */
export const FIRST_PAGE_CLASSIFICATION_VERSION = 'page1-classification-2026.12.3';
