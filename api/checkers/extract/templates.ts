import type { ExtractDocumentType } from './classify.ts';
import type { IdentifierShape } from './values.ts';

/** How a field's value is read from the text after its label. */
export type ValueKind = 'text' | 'amount' | 'date' | 'boolean' | 'number' | 'governing_law' | IdentifierShape;

export interface FieldRule {
  name: string;
  kind: ValueKind;
  /** Labels the value follows, lowercase; `number` also matches `no.`, `num` and `#`. */
  labels: string[];
  /** Labels followed by a range ("Pay period: 1 May 2026 to 14 May 2026"); `rangeIndex` picks the date. */
  rangeLabels?: string[];
  rangeIndex?: number;
  /** The value may have no label at all: the name that heads page 1 (a supplier's or employer's letterhead). */
  letterhead?: boolean;
  /** A sentence the value sits in when no label is found ("made between A and B"): group 1 is the value. */
  sentence?: RegExp;
  /**
   * With no label found, the value is the `rangeIndex` end of the first date range on page 1 ("January 14, 2021
   * through February 10, 2021" under a statement's heading): statements often print their period with no label.
   */
  unlabelledRange?: boolean;
  /**
   * Labels of another field whose own cell may carry this date after "on" or "as of" ("Beginning balance on June 10,
   * 2021 $2,825.37" starts a statement's period), read only when no label of the field itself is found.
   */
  asOfLabels?: string[];
  /** With no label found, the value may be a financial institution's name printed anywhere on the pages ("Wells Fargo Bank, N.A."). */
  institution?: boolean;
  /** With no label found, the value may be the person page 1 is addressed to: a name over a street address. */
  addressee?: boolean;
  /** Amount fields this amount is at least, and at most, when they are found: the amounts of a document reconcile (gross pay is no less than net pay). */
  atLeast?: string[];
  atMost?: string[];
}

export interface Template {
  /** Where the field list comes from. */
  source: string;
  fields: FieldRule[];
}

/**
 * The fields each template reads (checkers-research §5.3–5.5). Tax invoice: the seven things the ATO says an
 * invoice must let a buyer determine, the buyer's identity for sales of $1,000 or more, and the invoice
 * number and GST-exclusive subtotal of the ATO's recommended layout. Payslip: Fair Work Regulations 2009
 * reg 3.46. Statements, receipts and contracts follow common practice, not law.
 */
export const templates: Record<ExtractDocumentType, Template> = {
  tax_invoice: {
    source: 'ATO, "Tax invoices" (ato.gov.au, How to set out tax invoices and invoices)',
    fields: [
      { name: 'supplier_name', kind: 'text', labels: ['supplier', 'seller', 'from', 'issued by', 'supplier name', 'business name'], letterhead: true },
      { name: 'supplier_abn', kind: 'abn', labels: ['abn', 'supplier abn', 'seller abn', 'our abn'] },
      { name: 'invoice_number', kind: 'reference', labels: ['invoice number', 'tax invoice number', 'invoice', 'invoice ref', 'invoice reference', 'reference number'] },
      { name: 'invoice_date', kind: 'date', labels: ['invoice date', 'date of issue', 'issue date', 'date issued', 'date', 'tax invoice date'] },
      { name: 'due_date', kind: 'date', labels: ['due date', 'payment due', 'due', 'please pay by'] },
      { name: 'buyer_name', kind: 'text', labels: ['bill to', 'invoice to', 'customer', 'buyer', 'sold to', 'to', 'recipient', 'customer name', 'billed to', 'client'] },
      { name: 'buyer_abn', kind: 'abn', labels: ['customer abn', 'buyer abn', 'recipient abn', 'your abn', 'client abn'] },
      { name: 'description', kind: 'text', labels: ['description', 'item description', 'description of supply', 'details'] },
      { name: 'subtotal', kind: 'amount', labels: ['subtotal', 'sub total', 'sub-total', 'total excluding gst', 'total ex gst', 'amount excluding gst', 'total (ex gst)', 'total ex. gst'] },
      { name: 'gst', kind: 'amount', labels: ['gst', 'total gst', 'gst amount', 'gst (10%)', 'gst 10%', 'plus gst', 'gst included', 'includes gst', 'total includes gst', 'total includes gst of'] },
      {
        name: 'total',
        kind: 'amount',
        labels: ['total', 'total amount', 'amount due', 'total due', 'total payable', 'amount payable', 'total (inc gst)', 'total including gst', 'total inc gst', 'total (incl. gst)', 'balance due', 'invoice total', 'grand total', 'total amount payable'],
      },
    ],
  },
  payslip: {
    source: 'Fair Work Regulations 2009 reg 3.46 (Fair Work Ombudsman, "Pay slips")',
    fields: [
      { name: 'employer_name', kind: 'text', labels: ['employer', 'employer name', 'company', 'business name'], letterhead: true },
      { name: 'employer_abn', kind: 'abn', labels: ['abn', 'employer abn'] },
      { name: 'employee_name', kind: 'text', labels: ['employee', 'employee name', 'name', 'pay to', 'paid to', 'pay to the order of'], addressee: true },
      { name: 'employee_id', kind: 'reference', labels: ['employee id', 'employee number', 'staff number', 'payroll number', 'employee no'] },
      { name: 'pay_period_start', kind: 'date', labels: ['period start', 'pay period start', 'period from', 'period starting', 'period beginning', 'pay begin date', 'period begin date', 'period start date'], rangeLabels: ['pay period', 'period'], rangeIndex: 0 },
      { name: 'pay_period_end', kind: 'date', labels: ['period end', 'pay period end', 'period ending', 'period to', 'pay period ending', 'pay end date', 'period end date', 'pay period end date'], rangeLabels: ['pay period', 'period'], rangeIndex: 1 },
      { name: 'payment_date', kind: 'date', labels: ['payment date', 'pay date', 'date paid', 'paid on', 'date of payment', 'check date', 'advice date', 'pay day', 'deposit date'] },
      { name: 'gross_pay', kind: 'amount', labels: ['gross pay', 'gross', 'gross earnings', 'total gross', 'gross wages', 'gross amount', 'total earnings', 'current gross', 'total gross pay', 'gross income', 'total pay'], atLeast: ['net_pay'] },
      { name: 'net_pay', kind: 'amount', labels: ['net pay', 'net', 'net amount', 'net wages', 'take home pay', 'net payment', 'amount paid', 'total net pay', 'net pay amount', 'net income'] },
      { name: 'tax_withheld', kind: 'amount', labels: [
          'tax', 'payg', 'payg withholding', 'payg tax', 'tax withheld', 'income tax', 'payg withheld', 'paye', 'paye tax',
          // A US stub's income tax line: the federal one (state tax and FICA are lines of their own).
          'federal income tax', 'fed income tax', 'federal income', 'federal withholding', 'fed withholding', 'federal tax', 'fed tax', 'federal income tax withheld', 'fitw', 'fitwh',
        ],
        atMost: ['gross_pay'],
      },
      { name: 'ordinary_hours', kind: 'number', labels: ['ordinary hours', 'hours worked', 'hours', 'ordinary time hours'] },
      { name: 'hourly_rate', kind: 'amount', labels: ['ordinary hourly rate', 'hourly rate', 'rate', 'ordinary rate', 'base rate', 'base hourly rate'] },
      { name: 'annual_salary', kind: 'amount', labels: ['annual salary', 'annual rate', 'salary', 'annual salary rate'] },
      {
        name: 'super_contribution',
        kind: 'amount',
        labels: ['superannuation', 'super', 'super guarantee', 'superannuation guarantee', 'employer super', 'super contribution', 'sg contribution', 'superannuation contribution', 'employer superannuation'],
      },
      { name: 'super_fund', kind: 'text', labels: ['super fund', 'superannuation fund', 'fund', 'fund name', 'paid to fund'] },
    ],
  },
  bank_statement: {
    source: 'common practice: account holder, BSB and account number, period, opening and closing balance (checkers-research §5.5)',
    fields: [
      { name: 'bank_name', kind: 'text', labels: ['bank', 'financial institution'], institution: true, letterhead: true },
      { name: 'account_holder', kind: 'text', labels: ['account name', 'account holder', 'customer name', 'account holder name', 'name', 'account owner', 'primary account holder', 'account title'], addressee: true },
      { name: 'bsb', kind: 'bsb', labels: ['bsb', 'bsb number'] },
      { name: 'account_number', kind: 'account_number', labels: ['account number', 'account', 'acc number', 'account ending', 'account ending in', 'account number ending in', 'card ending in', 'card number', 'for account number', 'account id', 'bank account id'] },
      {
        name: 'statement_period_start',
        kind: 'date',
        labels: ['statement from', 'opening date', 'period from', 'start date', 'statement start date'],
        rangeLabels: ['statement period', 'period', 'statement period date', 'date range', 'specified date range', 'statement cycle', 'billing period'],
        asOfLabels: ['beginning balance', 'opening balance', 'previous balance', 'starting balance', 'your previous balance'],
        rangeIndex: 0,
        unlabelledRange: true,
      },
      {
        name: 'statement_period_end',
        kind: 'date',
        labels: ['statement to', 'closing date', 'period to', 'end date', 'statement ending', 'statement end date', 'statement closing date', 'statement date', 'period ending', 'statement period ending'],
        rangeLabels: ['statement period', 'period', 'statement period date', 'date range', 'specified date range', 'statement cycle', 'billing period'],
        asOfLabels: ['ending balance', 'closing balance', 'new balance', 'your new balance'],
        rangeIndex: 1,
        unlabelledRange: true,
      },
      {
        name: 'opening_balance',
        kind: 'amount',
        labels: ['opening balance', 'balance brought forward', 'brought forward', 'opening', 'beginning balance', 'previous balance', 'starting balance', 'balance last statement', 'last statement balance', "last month's balance", 'your previous balance', 'balance forward'],
      },
      {
        name: 'closing_balance',
        kind: 'amount',
        labels: ['closing balance', 'balance carried forward', 'carried forward', 'closing', 'ending balance', 'new balance', 'balance this statement', 'your new balance', 'statement balance'],
      },
    ],
  },
  receipt: {
    source: 'common practice: a simplified tax invoice under $1,000 (checkers-research §5.5)',
    fields: [
      { name: 'seller_name', kind: 'text', labels: ['store', 'merchant', 'seller', 'from', 'sold by'], letterhead: true },
      { name: 'seller_abn', kind: 'abn', labels: ['abn', 'seller abn', 'merchant abn'] },
      { name: 'receipt_number', kind: 'reference', labels: ['receipt number', 'receipt', 'transaction number', 'transaction', 'transaction id', 'invoice number', 'ref', 'reference'] },
      { name: 'date', kind: 'date', labels: ['date', 'date/time', 'transaction date', 'purchase date', 'date of purchase'] },
      { name: 'total', kind: 'amount', labels: ['total', 'total paid', 'amount paid', 'total (inc gst)', 'total aud', 'total inc gst', 'amount'] },
      { name: 'gst', kind: 'amount', labels: ['gst', 'gst included', 'includes gst', 'total includes gst', 'total includes gst of', 'gst incl', 'gst (incl)'] },
      { name: 'payment_method', kind: 'text', labels: ['payment method', 'paid by', 'payment', 'tender', 'card type', 'paid with'] },
    ],
  },
  contract: {
    source: 'common practice: parties, date, term, consideration, governing law, execution (checkers-research §5.5)',
    fields: [
      { name: 'party_1', kind: 'text', labels: ['party a', 'first party', 'party 1', 'the client', 'client', 'customer', 'principal', 'purchaser'], sentence: /\bbetween\s+(?:the\s+)?([A-Z][^\n(,]*?)\s*(?:\([^)]*\)\s*)*,?\s+and\s/ },
      { name: 'party_2', kind: 'text', labels: ['party b', 'second party', 'party 2', 'the contractor', 'contractor', 'supplier', 'service provider', 'consultant', 'vendor'], sentence: /\bbetween\s[^\n]*?\sand\s+(?:the\s+)?([A-Z][^\n(,.]*?)\s*(?:\(|,|\.|$)/m },
      { name: 'agreement_date', kind: 'date', labels: ['date of agreement', 'agreement date', 'dated', 'date', 'made on', 'this agreement is made on', 'date of this agreement'] },
      { name: 'commencement_date', kind: 'date', labels: ['commencement date', 'start date', 'effective date', 'commences on', 'commencement'] },
      { name: 'term', kind: 'text', labels: ['term', 'contract term', 'duration', 'initial term'] },
      { name: 'contract_value', kind: 'amount', labels: ['contract price', 'contract value', 'consideration', 'fee', 'fees', 'total contract value', 'contract sum', 'price', 'total fee'] },
      { name: 'governing_law', kind: 'governing_law', labels: ['governing law', 'jurisdiction', 'applicable law'], sentence: /\bgoverned by (?:and construed in accordance with )?the laws? of (?:the State of |the Commonwealth of )?([A-Z][A-Za-z ]+?)(?:[.,;]|$)/m },
    ],
  },
};

/** Every label of every template: a cell goes to the longest label any template knows ("Customer ABN" is never the supplier's ABN). */
export function allTemplateLabels(): string[] {
  return Object.values(templates).flatMap((template) => template.fields.flatMap((rule) => [...rule.labels, ...(rule.rangeLabels ?? []), ...(rule.asOfLabels ?? [])]));
}
