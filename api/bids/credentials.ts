/**
 * The certificates and insurances a tender may ask a supplier to hold, how a requirement's wording names
 * each, and the gap category each falls under (the partners catalogue, data/partners/partners.json, is
 * keyed by the same categories).
 */

/** What a gap is about; a partner serves one or more of these. */
export const GAP_CATEGORIES = [
  'insurance',
  'quality_certification',
  'environmental_certification',
  'safety_certification',
  'security_clearance',
  'bid_writing',
  'compliance_documents',
] as const;
export type GapCategory = (typeof GAP_CATEGORIES)[number];

export interface Credential {
  credential_id: string;
  /** How a person names it, e.g. "ISO 9001 certification". */
  name: string;
  category: GapCategory;
  /** Matches a requirement's text that asks for it, and a library document's name or text that holds it. */
  pattern: RegExp;
}

export const CREDENTIALS: readonly Credential[] = [
  { credential_id: 'public_liability', name: 'public liability insurance', category: 'insurance', pattern: /\bpublic (?:and products )?liability\b/i },
  { credential_id: 'professional_indemnity', name: 'professional indemnity insurance', category: 'insurance', pattern: /\bprofessional indemnity\b/i },
  { credential_id: 'workers_compensation', name: 'workers compensation insurance', category: 'insurance', pattern: /\bworkers[’']? ?comp(?:ensation)?\b/i },
  { credential_id: 'iso_9001', name: 'ISO 9001 certification', category: 'quality_certification', pattern: /\bISO[\s/]*9001\b/i },
  { credential_id: 'iso_14001', name: 'ISO 14001 certification', category: 'environmental_certification', pattern: /\bISO[\s/]*14001\b/i },
  { credential_id: 'iso_45001', name: 'ISO 45001 certification', category: 'safety_certification', pattern: /\bISO[\s/]*45001\b|\bAS\/?NZS[\s/]*4801\b/i },
  {
    credential_id: 'whs_management',
    name: 'a WHS management system',
    category: 'safety_certification',
    pattern: /\b(?:WHS|OHS|work health and safety|occupational health and safety|health and safety) management (?:system|plan)\b/i,
  },
  { credential_id: 'security_clearance', name: 'a security clearance', category: 'security_clearance', pattern: /\bsecurity clearances?\b|\bbaseline clearance\b|\bNV[12]\b|\bAGSVA\b/ },
];

/** The credentials a text names, in catalogue order. */
export function credentialsNamedIn(text: string): Credential[] {
  return CREDENTIALS.filter((credential) => credential.pattern.test(text));
}
