/**
 * Adverse-media categories and severities, read from one sentence by written cue lists.
 *
 * The categories follow the taxonomy AML screening products publish (money laundering, fraud and financial
 * crime, corruption and bribery, regulatory enforcement, sanctions violations, terrorism financing; violent
 * crime is the usual addition) and line up with OpenSanctions' topics (fraud `crime.fraud`, money laundering
 * and corruption `crime.fin`, terrorism `crime.terror`, regulatory action `reg.action`; checkers-research
 * §8.1, §8.3). A keyword never decides on its own that an article is about the subject: media.ts first finds
 * the subject in the sentence.
 */

export const MEDIA_CATEGORIES = [
  'money_laundering',
  'sanctions_evasion',
  'terrorism',
  'corruption_bribery',
  'fraud',
  'violence',
  'regulatory_action',
  'other',
] as const;
export type MediaCategory = (typeof MEDIA_CATEGORIES)[number];

export const MEDIA_SEVERITIES = ['high', 'medium', 'low'] as const;
export type MediaSeverity = (typeof MEDIA_SEVERITIES)[number];

/**
 * Cues per category, most specific category first: a sentence naming several takes the first listed
 * (a fine "for laundering" is money laundering, not only a regulator's action).
 */
const CATEGORY_CUES: ReadonlyArray<readonly [MediaCategory, RegExp]> = [
  ['money_laundering', /\b(launder(?:s|ed|ing|er|ers)?|money[- ]mules?|proceeds of crime|structuring deposits|anti-money laundering breach(?:es)?)\b/i],
  ['sanctions_evasion', /\b(evad(?:e|ed|es|ing) sanctions|sanctions?[- ](?:evasion|busting|breach(?:es)?|violations?)|breach(?:ed|es|ing)? (?:of )?(?:\w+ )?sanctions|violat(?:e|ed|es|ing|ion of) (?:\w+ )?sanctions|export[- ]control (?:breach(?:es)?|offences?|violations?)|(?:added to|placed on) (?:a |the )?sanctions list|sanctioned by (?:the )?(?:ofac|dfat|united states|us|uk|eu|un)|asset freeze)\b/i],
  ['terrorism', /\b(terroris[mt]s?|terror(?:ist)? financing|financing of terrorism|terror[- ]related|extremist plot)\b/i],
  ['corruption_bribery', /\b(brib(?:e|es|ed|ery|ing)|kickbacks?|corrupt(?:ion|ly|ed)?|graft|secret commissions?|improper payments?|misconduct in public office|abuse of (?:public )?office|icac|ibac|cccqld|crime and corruption commission)\b/i],
  ['fraud', /\b((?:de)?fraud(?:s|ed|ing|ster|sters|ulent|ulently)?|scam(?:s|med|mer|mers|ming)?|swindl(?:e|ed|er|ing)|embezzl(?:e|ed|ement|ing)|ponzi|misappropriat(?:e|ed|ion|ing)|forg(?:ed|ery|eries|ing) (?:documents?|signatures?|invoices?)|false invoices?|fake invoices?|dishonest(?:ly)? (?:obtain(?:ed|ing)?|dealing)|deception|insider trading|tax evasion|obtaining (?:a )?financial advantage|stole|stealing|theft)\b/i],
  ['violence', /\b(murder(?:s|ed|ing)?|manslaughter|assault(?:s|ed|ing)?|stabb(?:ed|ing)|shot dead|shooting|killed|killing|rape[ds]?|sexual(?:ly)? assault(?:ed)?|kidnapp(?:ed|ing)|domestic violence|grievous bodily harm|attempted murder)\b/i],
  ['regulatory_action', /\b(asic|accc|apra|austrac|fair work ombudsman|sec|fca|fma|commerce commission|regulator|enforceable undertaking|civil penalt(?:y|ies)|infringement notices?|banned (?:from|for)|banned\b[^.;]{0,60}\bfrom (?:managing|being a director|practising|trading)|registrar of companies|underpa(?:y|id|ying|yment)s?|wage theft|penalties (?:of|totalling) \$|disqualified from (?:managing|being a director)|licen[cs]e (?:cancelled|suspended|revoked)|deregistered|breach(?:ed|es)? (?:of )?(?:directors'? duties|continuous disclosure)|penalty of \$|fined)\b/i],
  ['other', /\b(arrest(?:ed|s)?|charged|convicted|jailed|imprisoned|sentenced|indicted|pleaded guilty|found guilty|criminal charges?|drug (?:trafficking|importation|smuggling)|trafficking|smuggl(?:ed|ing)|extradit(?:ed|ion)|police raid(?:ed)?|under investigation|wanted by police)\b/i],
];

/** Cleared, acquitted or withdrawn: the sentence reports the end of a matter, which lowers its weight. */
const CLEARED = /\b(acquitted|cleared of|charges? (?:were |was )?(?:dropped|withdrawn|dismissed)|found not guilty|not guilty|exonerated|no wrongdoing|no case to answer|conviction (?:was )?quashed|overturned)\b/i;
/** A finding or a formal step against the person: conviction, charge, arrest, sentence, ban, designation. */
const HIGH_STAGE = /\b(convicted|found guilty|pleaded guilty|guilty of|sentenced|jailed|imprisoned|indicted|charged|arrested|extradited|banned|disqualified|designated|ordered to pay|fined|civil penalt(?:y|ies)|penalty of \$)\b/i;

export interface SentenceReading {
  category: MediaCategory;
  severity: MediaSeverity;
  /** The words that named the category, as written. */
  cue: string;
}

/** The category and severity one sentence reports, or null when it holds no adverse cue. */
export function readSentence(sentence: string): SentenceReading | null {
  for (const [category, pattern] of CATEGORY_CUES) {
    const found = pattern.exec(sentence);
    if (found) return { category, severity: severityOf(sentence), cue: found[0] };
  }
  return null;
}

/**
 * high: a conviction, a charge, an arrest, a ban or a designation; low: the matter ended in the person's
 * favour; medium: anything else (an allegation, an investigation, a lawsuit, or no stage named at all).
 */
export function severityOf(sentence: string): MediaSeverity {
  if (CLEARED.test(sentence)) return 'low';
  if (HIGH_STAGE.test(sentence)) return 'high';
  return 'medium';
}

const SEVERITY_RANK: Readonly<Record<MediaSeverity, number>> = { high: 3, medium: 2, low: 1 };

/** Of several readings, the one to report: the most specific category, then the most severe. */
export function strongerReading(a: SentenceReading, b: SentenceReading): SentenceReading {
  const categoryOrder = (reading: SentenceReading) => MEDIA_CATEGORIES.indexOf(reading.category);
  if (categoryOrder(a) !== categoryOrder(b)) return categoryOrder(a) < categoryOrder(b) ? a : b;
  return SEVERITY_RANK[b.severity] > SEVERITY_RANK[a.severity] ? b : a;
}
