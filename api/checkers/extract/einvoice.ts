import { XMLParser } from 'fast-xml-parser';

/**
 * Structured e-invoices carried inside a PDF (Factur-X and ZUGFeRD 2 / XRechnung in UN/CEFACT CII, ZUGFeRD 1
 * in its older CII dialect) or sent as XML (UBL 2.1 Invoice and CreditNote, which PEPPOL BIS Billing 3.0 and
 * its A-NZ profile use). The XML is the invoice's machine-readable original, so its values beat any reading of
 * the printed page. fast-xml-parser reads it (namespace prefixes dropped, so the dialects share paths);
 * entity expansion is bounded so a crafted file cannot grow in memory.
 */

export type EInvoiceSyntax = 'cii' | 'zugferd1' | 'ubl';

export interface EInvoiceLine {
  description: string | null;
  quantity: number | null;
  unit_price: number | null;
  amount: number | null;
}

/** A bank account the invoice asks to be paid into: an IBAN, or a domestic account number with its branch (an Australian BSB). */
export interface PayeeAccount {
  kind: 'iban' | 'account';
  id: string;
  /** The bank branch (UBL `FinancialInstitutionBranch/ID`: the BSB in the A-NZ PEPPOL profile), else null. */
  branch: string | null;
}

/** One row of the invoice's VAT breakdown (EN 16931 BG-23): the taxable amount and the tax at one rate. */
export interface TaxBreakdown {
  rate: number | null;
  basis: number | null;
  tax: number | null;
}

/** Fields whose XML element the reader records (the warrant quotes it when the print disagrees). */
export type EInvoicePathField = 'invoice_number' | 'invoice_date' | 'due_date' | 'seller_name' | 'buyer_name' | 'subtotal' | 'tax' | 'grand_total' | 'payable' | 'payee_accounts' | 'line_amount' | 'tax_basis';

export interface EInvoice {
  syntax: EInvoiceSyntax;
  /** The guideline (profile) identifier the file declares, e.g. `urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended`. */
  profile: string | null;
  /** 380 invoice, 381 credit note, … (UNTDID 1001), or UBL's root name. */
  type_code: string | null;
  invoice_number: string | null;
  invoice_date: string | null;
  due_date: string | null;
  currency: string | null;
  seller_name: string | null;
  seller_tax_ids: string[];
  buyer_name: string | null;
  buyer_tax_ids: string[];
  subtotal: number | null;
  tax: number | null;
  /** The invoice total with tax (GrandTotalAmount, TaxInclusiveAmount). */
  grand_total: number | null;
  /** What is left to pay after prepayments (DuePayableAmount, PayableAmount). */
  payable: number | null;
  /** The sum of the lines' net amounts (BT-106: CII LineTotalAmount, UBL LineExtensionAmount). */
  line_total: number | null;
  tax_breakdown: TaxBreakdown[];
  lines: EInvoiceLine[];
  payee_accounts: PayeeAccount[];
  /** The element each field was read from, as a path of local names from the root. */
  paths: Partial<Record<EInvoicePathField, string>>;
}

/** Largest XML read: a real e-invoice is tens of kilobytes. */
export const maxEInvoiceBytes = 4 * 1024 * 1024;

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: { enabled: true, maxEntityCount: 20, maxEntitySize: 1000, maxExpandedLength: 20_000, maxTotalExpansions: 1000, maxExpansionDepth: 5 },
});

type Node = Record<string, unknown>;

/** The e-invoice in `xml`, or null when it is not one of the syntaxes read here (or not XML at all). */
export function parseEInvoice(xml: string): EInvoice | null {
  if (xml.length > maxEInvoiceBytes) return null;
  let tree: Node;
  try {
    tree = parser.parse(xml) as Node;
  } catch {
    return null;
  }
  for (const [name, root] of Object.entries(tree)) {
    if (!isNode(root)) continue;
    if (name === 'CrossIndustryInvoice') return readCii(root, name, 'cii');
    if (name === 'CrossIndustryDocument' || (name === 'Invoice' && child(root, 'HeaderExchangedDocument'))) return readCii(root, name, 'zugferd1');
    if (name === 'Invoice' || name === 'CreditNote') return readUbl(root, name);
  }
  return null;
}

/** CII in both dialects: ZUGFeRD 1 names its blocks `…SupplyChainTrade…`, D16B `…HeaderTrade…`. */
function readCii(root: Node, rootName: string, syntax: 'cii' | 'zugferd1'): EInvoice {
  const names = {
    header: present(root, 'ExchangedDocument', 'HeaderExchangedDocument'),
    context: present(root, 'ExchangedDocumentContext', 'SpecifiedExchangedDocumentContext'),
    transaction: present(root, 'SupplyChainTradeTransaction', 'SpecifiedSupplyChainTradeTransaction'),
  };
  const header = child(root, names.header);
  const typeCode = text(child(header, 'TypeCode'));
  // A credit note (381) states its amounts as positive figures of a document that reduces what is owed.
  const sign = typeCode === '381' ? -1 : 1;
  const signed = (value: number | null) => (value === null ? null : value > 0 ? value * sign : value);
  const transaction = child(root, names.transaction);
  const agreementName = present(transaction, 'ApplicableHeaderTradeAgreement', 'ApplicableSupplyChainTradeAgreement');
  const settlementName = present(transaction, 'ApplicableHeaderTradeSettlement', 'ApplicableSupplyChainTradeSettlement');
  const agreement = child(transaction, agreementName);
  const settlement = child(transaction, settlementName);
  const summationName = present(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation', 'SpecifiedTradeSettlementMonetarySummation');
  const summation = child(settlement, summationName);
  const currency = text(child(settlement, 'InvoiceCurrencyCode'));
  const seller = child(agreement, 'SellerTradeParty');
  const buyer = child(agreement, 'BuyerTradeParty');
  const terms = children(settlement, 'SpecifiedTradePaymentTerms');
  const agreementPath = `${rootName}/${names.transaction}/${agreementName}`;
  const settlementPath = `${rootName}/${names.transaction}/${settlementName}`;
  const summationPath = `${settlementPath}/${summationName}`;
  const subtotalName = present(summation, 'TaxBasisTotalAmount', 'LineTotalAmount');
  const payableName = present(summation, 'DuePayableAmount', 'GrandTotalAmount');
  return {
    syntax,
    profile: text(child(child(child(root, names.context), 'GuidelineSpecifiedDocumentContextParameter'), 'ID')),
    type_code: typeCode,
    invoice_number: text(child(header, 'ID')),
    invoice_date: ciiDate(child(header, 'IssueDateTime')),
    due_date: terms.map((term) => ciiDate(child(term, 'DueDateDateTime'))).find((date) => date !== null) ?? null,
    currency,
    seller_name: text(child(seller, 'Name')),
    seller_tax_ids: taxIds(seller),
    buyer_name: text(child(buyer, 'Name')),
    buyer_tax_ids: taxIds(buyer),
    subtotal: signed(amountIn(summation, subtotalName, currency)),
    tax: signed(amountIn(summation, 'TaxTotalAmount', currency)),
    grand_total: signed(amountIn(summation, 'GrandTotalAmount', currency)),
    payable: signed(amountIn(summation, payableName, currency)),
    line_total: signed(amountIn(summation, 'LineTotalAmount', currency)),
    tax_breakdown: children(settlement, 'ApplicableTradeTax').map((tax) => ({
      rate: numberOf(text(child(tax, 'RateApplicablePercent', 'ApplicablePercent'))),
      basis: signed(numberOf(text(child(tax, 'BasisAmount')))),
      tax: signed(numberOf(text(child(tax, 'CalculatedAmount')))),
    })),
    lines: children(transaction, 'IncludedSupplyChainTradeLineItem').map(ciiLine),
    payee_accounts: ciiAccounts(settlement),
    paths: {
      invoice_number: `${rootName}/${names.header}/ID`,
      invoice_date: `${rootName}/${names.header}/IssueDateTime`,
      due_date: `${settlementPath}/SpecifiedTradePaymentTerms/DueDateDateTime`,
      seller_name: `${agreementPath}/SellerTradeParty/Name`,
      buyer_name: `${agreementPath}/BuyerTradeParty/Name`,
      subtotal: `${summationPath}/${subtotalName}`,
      tax: `${summationPath}/TaxTotalAmount`,
      grand_total: `${summationPath}/GrandTotalAmount`,
      payable: `${summationPath}/${payableName}`,
      payee_accounts: `${settlementPath}/SpecifiedTradeSettlementPaymentMeans/PayeePartyCreditorFinancialAccount`,
      line_amount: `${rootName}/${names.transaction}/IncludedSupplyChainTradeLineItem/${lineSettlementPath(transaction)}/LineTotalAmount`,
      tax_basis: `${settlementPath}/ApplicableTradeTax/BasisAmount`,
    },
  };
}

/** Where a CII line's net amount sits, in the dialect of the file's first line. */
function lineSettlementPath(transaction: Node | null): string {
  const line = child(transaction, 'IncludedSupplyChainTradeLineItem');
  const settlement = present(line, 'SpecifiedLineTradeSettlement', 'SpecifiedSupplyChainTradeSettlement');
  return `${settlement}/${present(child(line, settlement), 'SpecifiedTradeSettlementLineMonetarySummation', 'SpecifiedTradeSettlementMonetarySummation')}`;
}

function ciiLine(line: Node): EInvoiceLine {
  const delivery = child(line, 'SpecifiedLineTradeDelivery', 'SpecifiedSupplyChainTradeDelivery');
  const lineAgreement = child(line, 'SpecifiedLineTradeAgreement', 'SpecifiedSupplyChainTradeAgreement');
  const lineSettlement = child(line, 'SpecifiedLineTradeSettlement', 'SpecifiedSupplyChainTradeSettlement');
  const lineSummation = child(lineSettlement, 'SpecifiedTradeSettlementLineMonetarySummation', 'SpecifiedTradeSettlementMonetarySummation');
  return {
    description: text(child(child(line, 'SpecifiedTradeProduct'), 'Name')),
    quantity: numberOf(text(child(delivery, 'BilledQuantity'))),
    unit_price: numberOf(text(child(child(lineAgreement, 'NetPriceProductTradePrice'), 'ChargeAmount'))),
    amount: numberOf(text(child(lineSummation, 'LineTotalAmount'))),
  };
}

/** CII payment means: the payee's IBAN, else its proprietary (domestic) account number. */
function ciiAccounts(settlement: Node | null): PayeeAccount[] {
  return children(settlement, 'SpecifiedTradeSettlementPaymentMeans').flatMap((means): PayeeAccount[] => {
    const account = child(means, 'PayeePartyCreditorFinancialAccount');
    const iban = text(child(account, 'IBANID'));
    const domestic = text(child(account, 'ProprietaryID'));
    if (iban) return [{ kind: 'iban', id: iban, branch: null }];
    return domestic ? [{ kind: 'account', id: domestic, branch: null }] : [];
  });
}

function readUbl(root: Node, rootName: 'Invoice' | 'CreditNote'): EInvoice {
  const currency = text(child(root, 'DocumentCurrencyCode'));
  const totals = child(root, 'LegalMonetaryTotal');
  const seller = child(child(root, 'AccountingSupplierParty'), 'Party');
  const buyer = child(child(root, 'AccountingCustomerParty'), 'Party');
  const taxTotals = children(root, 'TaxTotal').map((total) => child(total, 'TaxAmount'));
  const sign = rootName === 'CreditNote' ? -1 : 1;
  const signed = (value: number | null) => (value === null ? null : value * sign);
  return {
    syntax: 'ubl',
    profile: text(child(root, 'CustomizationID')),
    type_code: text(child(root, 'InvoiceTypeCode', 'CreditNoteTypeCode')) ?? rootName,
    invoice_number: text(child(root, 'ID')),
    invoice_date: isoDate(text(child(root, 'IssueDate'))),
    due_date: isoDate(text(child(root, 'DueDate')) ?? text(child(child(root, 'PaymentMeans'), 'PaymentDueDate'))),
    currency,
    seller_name: partyName(seller),
    seller_tax_ids: ublTaxIds(seller),
    buyer_name: partyName(buyer),
    buyer_tax_ids: ublTaxIds(buyer),
    subtotal: signed(amountIn(totals, 'TaxExclusiveAmount', currency) ?? amountIn(totals, 'LineExtensionAmount', currency)),
    tax: signed(pickCurrency(taxTotals, currency)),
    grand_total: signed(amountIn(totals, 'TaxInclusiveAmount', currency)),
    payable: signed(amountIn(totals, 'PayableAmount', currency) ?? amountIn(totals, 'TaxInclusiveAmount', currency)),
    line_total: signed(amountIn(totals, 'LineExtensionAmount', currency)),
    tax_breakdown: children(root, 'TaxTotal')
      .filter((total) => currency === null || child(total, 'TaxAmount')?.['@currencyID'] === undefined || child(total, 'TaxAmount')?.['@currencyID'] === currency)
      .flatMap((total) => children(total, 'TaxSubtotal'))
      .map((subtotal) => ({
        // UBL 2.1 states the rate in the category; UBL 2.0 profiles (e-fff) beside it.
        rate: numberOf(text(child(child(subtotal, 'TaxCategory'), 'Percent') ?? child(subtotal, 'Percent'))),
        basis: signed(numberOf(text(child(subtotal, 'TaxableAmount')))),
        tax: signed(numberOf(text(child(subtotal, 'TaxAmount')))),
      })),
    lines: children(root, rootName === 'Invoice' ? 'InvoiceLine' : 'CreditNoteLine').map((line) => ({
      description: text(child(child(line, 'Item'), 'Name')) ?? text(child(child(line, 'Item'), 'Description')),
      quantity: numberOf(text(child(line, 'InvoicedQuantity', 'CreditedQuantity'))),
      unit_price: numberOf(text(child(child(line, 'Price'), 'PriceAmount'))),
      amount: numberOf(text(child(line, 'LineExtensionAmount'))),
    })),
    payee_accounts: ublAccounts(root),
    paths: {
      invoice_number: `${rootName}/ID`,
      invoice_date: `${rootName}/IssueDate`,
      due_date: child(root, 'DueDate') ? `${rootName}/DueDate` : `${rootName}/PaymentMeans/PaymentDueDate`,
      seller_name: `${rootName}/AccountingSupplierParty/Party/${partyNamePath(seller)}`,
      buyer_name: `${rootName}/AccountingCustomerParty/Party/${partyNamePath(buyer)}`,
      subtotal: `${rootName}/LegalMonetaryTotal/${present(totals, 'TaxExclusiveAmount', 'LineExtensionAmount')}`,
      tax: `${rootName}/TaxTotal/TaxAmount`,
      grand_total: `${rootName}/LegalMonetaryTotal/TaxInclusiveAmount`,
      payable: `${rootName}/LegalMonetaryTotal/${present(totals, 'PayableAmount', 'TaxInclusiveAmount')}`,
      payee_accounts: `${rootName}/PaymentMeans/PayeeFinancialAccount/ID`,
      line_amount: `${rootName}/${rootName}Line/LineExtensionAmount`,
      tax_basis: `${rootName}/TaxTotal/TaxSubtotal/TaxableAmount`,
    },
  };
}

/** UBL payment means: the payee's account (an IBAN when it reads as one) and its branch (the BSB in A-NZ). */
function ublAccounts(root: Node): PayeeAccount[] {
  return children(root, 'PaymentMeans').flatMap((means): PayeeAccount[] => {
    const account = child(means, 'PayeeFinancialAccount');
    const id = text(child(account, 'ID'));
    if (!id) return [];
    const branch = text(child(child(account, 'FinancialInstitutionBranch'), 'ID'));
    return [{ kind: /^[A-Z]{2}\d{2}[A-Z0-9 ]{10,32}$/.test(id) ? 'iban' : 'account', id, branch }];
  });
}

function partyNamePath(party: Node | null): string {
  return text(child(child(party, 'PartyLegalEntity'), 'RegistrationName')) ? 'PartyLegalEntity/RegistrationName' : 'PartyName/Name';
}

function partyName(party: Node | null): string | null {
  return text(child(child(party, 'PartyLegalEntity'), 'RegistrationName')) ?? text(child(child(party, 'PartyName'), 'Name'));
}

/** UBL: the VAT/GST number (PartyTaxScheme) and the legal registration (PartyLegalEntity, e.g. an ABN with scheme 0151). */
function ublTaxIds(party: Node | null): string[] {
  const ids = [
    ...children(party, 'PartyTaxScheme').map((scheme) => text(child(scheme, 'CompanyID'))),
    text(child(child(party, 'PartyLegalEntity'), 'CompanyID')),
    text(child(party, 'EndpointID')),
  ];
  return [...new Set(ids.filter((id): id is string => id !== null))];
}

function taxIds(party: Node | null): string[] {
  return children(party, 'SpecifiedTaxRegistration')
    .map((registration) => text(child(registration, 'ID')))
    .filter((id): id is string => id !== null);
}

/** `<DateTimeString format="102">20180305</DateTimeString>` (ZUGFeRD 1 puts the string on the element itself). */
function ciiDate(node: Node | null): string | null {
  const inner = child(node, 'DateTimeString');
  return isoDate(text(inner ?? node));
}

function isoDate(value: string | null): string | null {
  if (!value) return null;
  const match = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(value.trim());
  if (!match) return null;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** An amount element in the invoice's currency when it is repeated in another (CII allows the tax total in the accounting currency too). */
function amountIn(parent: Node | null, name: string, currency: string | null): number | null {
  return pickCurrency(children(parent, name), currency);
}

function pickCurrency(nodes: unknown[], currency: string | null): number | null {
  const withCurrency = nodes.find((node) => isNode(node) && currency !== null && node['@currencyID'] === currency);
  return numberOf(text(withCurrency ?? nodes[0] ?? null));
}

function numberOf(value: string | null): number | null {
  if (value === null || !/^-?\d+(?:\.\d+)?$/.test(value)) return null;
  return Number(value);
}

/** The first of `names` that `parent` has (the dialects name the same block differently): the name a value is read under. */
function present(parent: unknown, ...names: string[]): string {
  return names.find((name) => children(parent, name).length > 0) ?? names[0]!;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first child by any of the names (one element or the first of a list). */
function child(parent: unknown, ...names: string[]): Node | null {
  for (const name of names) {
    const found = children(parent, name)[0];
    if (found !== undefined) return isNode(found) ? found : { '#text': found };
  }
  return null;
}

function children(parent: unknown, name: string): Node[] {
  if (!isNode(parent)) return [];
  const value = parent[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((item) => (isNode(item) ? item : { '#text': item }));
}

function text(node: unknown): string | null {
  if (node === null || node === undefined) return null;
  const value = isNode(node) ? node['#text'] : node;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const trimmed = String(value).replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}
