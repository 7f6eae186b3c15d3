/**
 * The wording of tender documents, as rules: the grammar of obligation, who a sentence binds, what a heading
 * says its passage holds, how weights are written, and the words of lodging, returnables and participation.
 * Every word here is general tender vocabulary (RFT, RFQ, RFP, ITO, EOI, in AU, NZ, UK and US use); nothing is
 * taken from one document.
 */

export type Obligation = 'mandatory' | 'optional';

/** Verbs and phrases that oblige. */
const obliging = new RegExp(
  [
    String.raw`\bmust\b`,
    String.raw`\bshall\b`,
    String.raw`\b(?:is|are|will\s+be|be|being)\s+required\b`,
    String.raw`\brequired\s+to\b`,
    String.raw`\b(?:is|are)\s+to\s+(?!date\b)\w`,
    String.raw`\bneeds?\s+to\b`,
    String.raw`\b(?:is|are)\s+(?:hereby\s+)?(?:instructed|obliged|obligated|bound)\s+(?:to|by)\b`,
    String.raw`(?<!non-)(?<!non\s)\bmandatory\b`,
    String.raw`\bcannot\b`,
    String.raw`\bmay\s+not\b`,
    String.raw`\b(?:agrees?|agreed)\s+(?:to|that|not\s+to)\b`,
    String.raw`\b(?:represents?|certif(?:y|ies)|warrants?)\s+(?:that|to)\b`,
    String.raw`^(?:by\s+(?:submission|submitting|signing)\b[^,]*,\s*)?(?:the\s+)?(?:tenderers?|offerors?|quoters?|respondents?|contractors?|proponents?|bidders?|suppliers?|vendors?)\s+(?:hereby\s+)?(?:certif(?:y|ies)|represents?|warrants?|confirms?|accepts?|acknowledges?|agrees?|complies|undertakes?|declares?)\b`,
    String.raw`\b(?:is|are)\s+responsible\s+for\b`,
    String.raw`\bit\s+is\s+(?:a\s+requirement|your\s+responsibility|the\s+\w+'?s?\s+responsibility)\b`,
    String.raw`\b(?:is|are)\s+not\s+(?:permitted|allowed)\b`,
    String.raw`\bnot\s+to\s+exceed\b`,
    String.raw`\bunder\s+no\s+circumstances\b`,
    String.raw`\bhave\s+to\b`,
    String.raw`[;:]\s*please\s+(?!note\b)[a-z]+`,
    String.raw`\bmay\b[^.]*\bonly\s+if\b|\bonly\s+if\b[^.]*\bmay\b`,
    String.raw`\bis\s+limited\s+to\b|\bare\s+limited\s+to\b`,
  ].join('|'),
  'i',
);

/**
 * What happens to a tender that fails it: these sentences state a condition, however they are worded ("will not be considered",
 * not "will not be considered adequate information", which judges a kind of content).
 */
const disqualifying =
  /\bdisqualif|\b(?:will|shall)\s+not\s+be\s+(?:considered|accepted|evaluated|answered|reviewed|eligible|opened)\b(?!\s+(?:prior\s+to|until|before|adequate|sufficient|part\s+of|an?|as)\b)|\bno\s+longer\s+be(?:ing)?\s+considered|\b(?:will|shall)\s+be\s+(?:eliminated|rejected|excluded|deemed\s+(?:non-?responsive|unacceptable|non-?compliant|ineligible))|\b(?:grounds|cause)\s+for\s+(?:rejection|exclusion|disqualification)|\bdeemed\s+(?:non-?responsive|non-?compliant|ineligible)|\bonly\b[^.]*\b(?:will|shall)\s+be\s+(?:accepted|considered)|\bno\s+(?:\w+\s+){0,3}award\s+(?:shall|will)\s+be\s+made\b|\b(?:will|shall)\s+only\s+be\s+(?:accepted|considered)/i;

/** Verbs and phrases that ask without obliging. */
const asking =
  /\bshould\b|\bmay\b|\b(?:is|are)\s+(?:strongly\s+)?(?:encouraged|expected|requested|invited|advised|asked)\b|\bcan\s+(?:be|also)\b|\bcould\b|\bmight\b|\bwould\s+(?:like|prefer)\b|\b(?:is|are)\s+preferred\b|\bprefer(?:s|red)?\b|\b(?:is|are)\s+(?:allowed|welcome)\b|\bnot\s+required\b|\boptional\b/i;

/** Verbs a sentence addressed to the tenderer starts with ("Provide …", "Describe …", "Please ensure …"). */
const imperativeVerbs =
  'provide|submit|include|describe|identify|complete|sign|attach|return|lodge|deliver|demonstrate|explain|detail|specify|indicate|outline|ensure|confirm|supply|prepare|furnish|develop|build|execute|maintain|deprecate|cultivate|leverage|conduct|consult|coordinate|implement|establish|perform|manage|deploy|notify|comply|adhere|follow|limit|write|publish|select|upload|send|discuss|obtain|retain|create|integrate|migrate|assist|participate|attend|propose|certify|acknowledge|read|verify|register|protect|collaborate|facilitate|keep|make|give|show|summari[sz]e|clarify|define|determine|assess|remember|insert|fill|tick|allow|apply|arrange|avoid|do|refrain|take|observe|advise|inform|answer|respond|mark|enter';
/** Words that are as often nouns as verbs ("Support services …", "Transition: …"): imperative only before an object's first word. */
const nounOrVerb = 'support|transition|report|design|document|test|date|name|state|initial|list|use|lead|present|note|check|title|contact|e-?mail|update|review|train|track|monitor|address|place|quote|price|direct|secure|meet|print|record|schedule|plan';
const objectStart = String.raw`(?:a|an|the|all|any|each|every|your|its|their|this|these|those|such|one|two|three|four|five|and|or|with|to|for|on|in|at|by|from|up|out|back|down|only|also|clearly|promptly|immediately|\w+ly)\b(?!\s*[:–—-])`;
const imperative = new RegExp(
  String.raw`^(?:please\s+|be\s+sure\s+to\s+|make\s+sure\s+(?:that\s+)?|kindly\s+)?(?:do\s+not\s+|never\s+|also\s+|then\s+)?(?:(?:briefly|clearly|fully|concisely|separately|explicitly)\s+)?(?:(?:${imperativeVerbs})\b(?!\s*[(–—-]|\s+(?:of|is|are|was|will|shall|must|may|can|should|and\s+\w+\s+(?:is|are|will|shall))\b)|(?:${nounOrVerb})\s+${objectStart})`,
  'i',
);
const nounOrVerbWord = new RegExp(String.raw`^(?:${nounOrVerb})$`, 'i');
const pleaseVerb = /^please\s+[a-z]/i;
/** Imperatives that only point elsewhere ("See Section 4", "Refer to Attachment 2", "Note: …") ask nothing. */
const pointer = /^(?:please\s+)?(?:see|refer\s+to|note)\b|^go\s+to\b/i;

/** How a sentence binds, from its wording alone. */
export function obligationOf(sentence: string): Obligation | null {
  // A form's question ("Does the Respondent agree …?") asks for an answer, not a promise; "Please describe …?" asks for one.
  if (/\?\s*["'”’)*]*$/.test(sentence.trim()) && !isImperative(sentence)) return null;
  if (/\b(?:do|does|did)\s+not\s+need\s+to\b|\bneed\s+not\b/i.test(sentence)) return null;
  // "It is the intent of the Parties that …", "It is the Agency's desire that …": an aim stated, not a duty laid.
  if (/^it\s+is\s+(?:expressly\s+)?(?:not\s+)?(?:the\s+)?(?:\w+['’]s\s+|\w+\s+)?(?:intent|intention|desire|wish|hope)\b/i.test(sentence.trim())) return null;
  // "Insert the name and address of …", "Enter the number of weeks", "Transition Plan - Insert a full description", "Check the
  // appropriate box": how to fill in a form or template, not what to do or supply.
  if (/^(?:[\w ]{1,40}\s[-–—]\s+)?(?:insert|enter(?!\s+into)|fill\s+in|check\s+(?:the|one|whether|this|each|all|if))\b/i.test(sentence.trim()) && !/\bmust\b|\bshall\b/i.test(sentence)) return null;
  if (addressesTheDrafter(sentence)) return null;
  const text = sentence
    .trim()
    .replace(/\bmay\s+not\s+be\s+(?:evaluated|considered|reviewed|read|scored)\b/gi, 'may be left')
    .replace(/\bmay\s+or\s+may\s+not\b/gi, 'may')
    .replace(/\bmay\s*(?:\w+\s+|,[^,]*,\s*){0,6}be\s+required\b/gi, 'may be asked');
  // Text in quotation marks (a legend to copy, a certificate's wording) is quoted, not required; a past "were required" or "is no
  // longer required" is history.
  if (/^["“]/.test(text) || (/\b(?:was|were|had\s+been)\s+required\b|\bno\s+longer\s+required\b/i.test(text) && !/\bmust\b|\bshall\b/i.test(text))) return null;
  // What will be done with a tender, or how a term is read, binds no one: "shall be evaluated", "shall be deemed", "shall prevail",
  // "it will be assumed that …", "agree to and are bound by the rules of this RFQ".
  if (/\b(?:shall|will|is\s+to|are\s+to)\s+(?:also\s+|only\s+)?be\s+(?:removed|evaluated|assessed|scored|rated|deemed|construed|understood|interpreted|governed|paid|reimbursed|compensated|awarded|issued|exercised|considered|dependent|contingent|reviewed|determined|disseminated|posted|held|conducted|assumed|used\s+(?:to|in)\s+(?:determine|evaluat)|based\s+(?:up)?on)\b|\bshall\s+(?:prevail|govern|take\s+precedence|vest|survive|become|result\s+in|determine|have\s+no\s+effect)\b|\b(?:shall|will)\s+not\s+be\s+(?:returned|bound\s+(?:to|by))\b|\bshall\s+not\s+(?:provide\s+grounds|relieve|limit|affect|constitute|obligate)\b|\bshall\s+(?:mean|have\s+the\s+meaning|be\s+(?:construed|interpreted|read)\s+as)\b|\bshall\s+be\s+["“]|\bagrees?\s+to\s+and\s+(?:is|are)\s+bound\s+by\b|\b(?:should|must|may)\s+not\s+be\s+(?:construed|interpreted|deemed)\b/i.test(text) && !disqualifying.test(text) && !isPassFail(text)) return null;
  // "Each participant may but is not required to …": no obligation.
  if (/\b(?:is|are)\s+not\s+required\s+to\b/i.test(text) && !/\bmust\b|\bshall\b/i.test(text)) return 'optional';
  // "The offeror is cautioned that …", "Offerors are advised to …": a warning, whatever it quotes.
  if (/\b(?:is|are)\s+(?:hereby\s+)?(?:cautioned|reminded|advised)\b/i.test(text)) return 'optional';
  // "Note that …", "Keep in mind that …", "This means that …": a fact pointed out; "… is required to enable the Government to …": why something is asked;
  // "This certification is required by the regulations implementing …": where a requirement comes from.
  if ((/^(?:please\s+)?(?:note|keep\s+in\s+mind|be\s+aware)\s+that\b|^this\s+means\s+that\b/i.test(text) || /\b(?:is|are)\s+required\s+(?:to\s+(?:enable|allow|permit|help)|by\s+(?:the\s+)?(?:law|laws|regulations?|statutes?|legislation)\b)/i.test(text)) && !/\bmust\b|\bshall\b/i.test(text)) return 'optional';
  // "Please subscribe … if your firm would like updates": an offer, not a requirement.
  if (/^please\b[^.]*\bif\s+(?:you|your\s+\w+)\s+(?:would\s+like|wish|want|prefer)\b/i.test(text)) return 'optional';
  // "The bidder certifies that …": a certification the tenderer signs is a condition it must meet, whatever verbs follow.
  if (/^(?:the\s+)?(?:offerors?|bidders?|tenderers?|respondents?|quoters?|contractors?|proposers?|suppliers?|vendors?)\s+(?:hereby\s+)?(?:certif(?:y|ies)|attests?)\s+that\b/i.test(text)) return 'mandatory';
  const asks = asking.test(text) || /\bmay\s+(?:need|have)\s+to\b/i.test(text);
  const obliges = obliging.test(text);
  const strong = /\bmust\b|\bshall\b|\brequired\b|\bmandatory\b|\bcannot\b|\bmay\s+not\b|(?<!may\s)\bneeds?\s+to\b|\bonly\s+if\b|\bunder\s+no\s+circumstances\b/i.test(text);
  if (obliges && !(asks && !strong)) return 'mandatory';
  if (disqualifying.test(text) || isPassFail(text)) return 'mandatory';
  // "Explain how you meet this requirement (if necessary)": the tenderer judges whether to answer.
  if (/\((?:if|when)\s+(?:necessary|needed|required)\)/i.test(text)) return 'optional';
  if (isImperative(text)) return 'mandatory';
  if (asks) return 'optional';
  return null;
}

/** A sentence in the imperative, addressed to the tenderer. */
export function isImperative(sentence: string): boolean {
  // "At a minimum, provide:", "If this changes, notify …", "In the summary, be sure to …": the verb after a leading phrase.
  const text = sentence
    .trim()
    .replace(/^["'“‘(]+/, '')
    .replace(/^(?:therefore|thus|accordingly|finally|otherwise|however|also|then|at\s+a\s+minimum|in\s+addition|additionally|where\s+(?:applicable|relevant|possible|required)|if\s+[^,]{1,80}|when\s+[^,]{1,60}|in\s+[^,]{1,50}|for\s+[^,]{1,50}|as\s+[^,]{1,50}|within\s+[^,]{1,50}|\d+\s+days\s+[^,]{1,50}),\s*/i, '');
  if (pointer.test(text)) return false;
  // "Do you comply with this requirement? Yes / No": a question, though it opens with a verb of the list.
  if (/^(?:do|does|did)\s+(?!not\b)[^?]*\?/i.test(text)) return false;
  // A line in capitals ("PROVIDE CURRENT INFORMATION", a form's printed box label) is a heading; a lone verb ("Deliver", a table
  // cell) asks nothing; "Date and Time", "Name and Title of Position 2" are titles, not "date" or "name" as verbs.
  const titled = /^[*_]*([\w-]+)\s+(?:and|or)\s+[A-Z]/.exec(text);
  if (!/[a-z]/.test(text) || /^[*_]*[A-Za-z]+[.*_\s]*$/.test(text) || (titled && nounOrVerbWord.test(titled[1]!))) return false;
  return imperative.test(text) || (pleaseVerb.test(text) && !/^please\s+note\b/i.test(text));
}

/** Whether the sentence states a consequence of failing it (disqualification, not considered). */
export function isDisqualifying(sentence: string): boolean {
  return disqualifying.test(sentence);
}

/** A pass/fail gate a tender goes through ("Phase 1 (Pass/Fail): Compliance Check …"), unless it only says how the buyer scores. */
export function isPassFail(sentence: string): boolean {
  return /\bpass\s*\/\s*fail\b/i.test(sentence) && !/\b(?:method|scoring|rating\s+scale)\b/i.test(sentence);
}

/** The words before the first obliging or asking verb: who or what the sentence binds. */
export function subjectOf(sentence: string): string {
  // The verb that binds: an obliging modal if there is one ("This is necessary because …, so the Contractor must …"), else the first verb.
  const modal =
    /\b(?:must|shall|cannot|may\s+not|needs?\s+to|(?:is|are|will\s+be)\s+required|(?:is|are)\s+to\s+\w|agrees?\s+(?:to|that))\b/i.exec(sentence) ??
    /\b(?:will|should|may|can|is|are|needs?|has|have|requires?|reserves?|intends?|anticipates?|expects?|seeks?|wishes?|plans?|hopes?|invites?|represents?|certif(?:y|ies)|warrants?|acknowledges?|confirms?|accepts?)\b/i.exec(sentence);
  if (!modal) return '';
  const before = sentence.slice(0, modal.index);
  // "If the offeror fails, the Government may …": the subject follows the last clause break before the verb.
  const breaks = [...before.matchAll(/,|;|:|\b(?:so|that|because|but|which|who|whereby|then|therefore|and\s+(?=the\b|its\b|their\b|all\b|each\b))\s/gi)];
  const last = breaks.at(-1);
  const after = (last ? before.slice(last.index + last[0].length) : before).trim();
  // "The Contracting Officer, working with the COR, is responsible …": the subject is before the aside.
  return after !== '' ? after : before.split(/,/)[0]!.trim();
}

/** The buyer and its people: what they must or may do binds them, not the tenderer. */
const buyerSubject =
  /^(?:the\s+|each\s+|any\s+|an?\s+)?(?:government|(?:contracting|procurement|purchasing)\s+(?:officer|specialist|authority|agency)|co|cor|ko|agency|state|department|ministry|minister|buyer|customer|purchaser|principal|council|authority|client|owner|evaluat\w*(?:\s+(?:panel|committee|team|board))?|panel|committee|tender\s+board|ordering\s+(?:activity|agency|office)|product\s+owner|po|program(?:me)?\s+office|project\s+officer|we|us|our)\b/i;
/** What a document, the contract or the process is or does: no one is bound by such a sentence. */
const statementSubject =
  /^(?:the\s+|this\s+|these\s+|each\s+|any\s+|all\s+|such\s+|an?\s+)?(?:\w+\s+){0,3}(?:purpose|objective|objectives|intent|aim|goal|mission|period\s+of\s+performance|evaluation|evaluations|award|awards|payment|title|technical\s+administration|rights?|penalty|order\s+of\s+precedence|definitions?|terms?|amendments?|(?:total\s+)?duration|basis|acceptance|extension|precedence|provisions?|orders)\b|^(?:the\s+|this\s+)?(?:rf[qtpi]s?|rfx|solicitations?|task\s+orders?|orders?|call\s+orders?|contracts?|agreements?|bpas?|itt|ito|eoi|documents?|section|pack|process|procurement|opportunity|framework|acquisition|requirement|policies)\b(?!\s+(?:holder|holders)\b)|^(?:nothing|there|which)\b/i;

/**
 * A template's note to whoever drafts the request, not to the tenderer: an imperative that speaks of the reader's own
 * procurement ("… to suit the risk of your procurement") or names the tenderer as someone else who will act ("Describe any
 * training the seller will be required to deliver", "Insert any requirements which the seller must adhere to").
 */
function addressesTheDrafter(sentence: string): boolean {
  if (!isImperative(sentence)) return false;
  return speaksToTheDrafter(sentence) || /\byour\s+(?:agency|department|evaluation\s+(?:panel|team|plan))\b/i.test(sentence) || /\b(?:the|a|any)\s+(?:sellers?|tenderers?|offerors?|quoters?|respondents?|contractors?|proponents?|bidders?|suppliers?|vendors?)(?!['’])\s+(?:will|must|shall|should|is|are|needs?\s+to|has\s+to)\b/i.test(sentence);
}

/** A buyer's template speaks to whoever drafts the request about their own procurement ("… not applicable to your procurement"). */
export function speaksToTheDrafter(text: string): boolean {
  return /\byour\s+(?:procurement|approach\s+to\s+market)\b/i.test(text);
}

/** Whether an obliging sentence binds the buyer (or states what the document is) rather than the tenderer. */
export function bindsTheBuyer(sentence: string): boolean {
  if (isImperative(sentence)) return false;
  if (/^it\s+(?:is|shall\s+be|will\s+be|remains)\s+(?:a\s+requirement|mandatory|essential|compulsory|(?:the\s+|your\s+|each\s+)?(?:\w+\s+){0,2}(?:\w+['’]s\s+)?(?:responsibility|duty|obligation))\b/i.test(sentence.trim())) return false;
  const subject = subjectOf(sentence);
  if (subject === '') return false;
  if (/\b(?:tenderers?|offerors?|quoters?|respondents?|contractors?|proponents?|bidders?|suppliers?|vendors?|proposers?|you|your|firms?|companies|company)\b/i.test(subject) && !/^(?:the\s+)?(?:government|agency|state)\b/i.test(subject)) return false;
  return buyerSubject.test(subject) || statementSubject.test(subject);
}

/** The buyer or its people are who the sentence is about ("The Contracting Officer will evaluate …"). */
export function buyerActs(sentence: string): boolean {
  const subject = subjectOf(sentence);
  return subject !== '' && !isImperative(sentence) && buyerSubject.test(subject) && !tendererWill(sentence);
}

/** The tenderer named as the one who will do something ("The Contractor will submit …"): it asks, as "should" does. */
export function tendererWill(sentence: string): boolean {
  return /^(?:the\s+|each\s+|all\s+|any\s+)?(?:successful\s+|prospective\s+)?(?:tenderers?|offerors?|quoters?|respondents?|contractors?|proponents?|bidders?|suppliers?|vendors?)\s+will\b/i.test(subjectOf(sentence) === '' ? sentence : sentence.trim());
}

/**
 * How a sentence opens a list. 'lead-in': it only introduces the items ("The Respondent must:", "The following
 * pre-conditions must be met."), which are the requirements; 'announces': it states a requirement of its own and
 * says a list follows ("… shall consist of two volumes as stated below.", "… complete the following fields on the
 * form."). null: no list.
 */
export function listOpening(sentence: string): 'lead-in' | 'announces' | null {
  const text = sentence.trim();
  if (/(?::|\b(?:to|following|follows|include|includes|including)\s*[-–—])\s*["'”’*)]*\s*$/i.test(text) || /^the\s+following\b/i.test(text)) return 'lead-in';
  if (/\b(?:the\s+following|as\s+follows|listed\s+below|stated\s+below|set\s+out\s+below|shown\s+below|below)\b/i.test(text)) return 'announces';
  return null;
}

/** A lead-in whose own words name the returnable ("… submit a separate price quotation that includes the following:") is a row itself. */
export function leadInNamesDocument(sentence: string): boolean {
  const object = /\b(?:submit|provide|include|prepare|complete|return|furnish)\s+(?:a|an|one|the|its|their|your)\s+((?:\w+\s+){0,6}?)(quotation|quote|proposal|plan|statement|letter|form|schedule|certificate|certification|declaration|narrative|response|submission|agreement|attachment|volume)\b/i.exec(sentence);
  return object !== null && !/\bfollowing\s*$/i.test(object[1] ?? '');
}

// --- What a heading says its passage holds ---------------------------------------------------------------

export type SectionKind = 'instruction' | 'criterion' | 'condition' | 'schedule' | 'contract' | 'other';

const instructionHeading =
  /\binstructions?\b|\bhow\s+to\s+(?:respond|apply|submit|lodge|tender|quote|bid)\b|\bsubmission\b|\bsubmitting\b|\bsubmittal\s+of\b|\blodg(?:e|ement|ing)\b|\bformat\b|\bpage\s+limit|\bdelivery\s+of\s+(?:proposals|quotes|quotations|tenders|offers|responses|bids)\b|\b(?:proposal|quotation|quote|tender|response|offer|bid)\s+(?:preparation|instructions|format|requirements|due\s+date|content|contents|structure|validity)\b|\bpreparation\s+of\b|\boral\s+(?:presentation|interview)s?\b|\bquestions\b|\bcommunications?\b|\bclarifications?\b|\bclosing\s+(?:date|time)\b|\bdeadline\b|\btimelines?\b|\bkey\s+dates\b|\bresponding\b|\bhow\s+to\b|\b(?:asking|enquiries|inquiries)\b/i;
const criterionHeading =
  /\bevaluat\w*\b|\bbasis\s+(?:of|for)\s+(?:award|selection)\b|\baward\s+criteri|\bselection\s+criteri|\bassessment\s+criteri|\bcriteri(?:a|on)\b|\bweighting|\bscor(?:e|ing)\b|\bfactors?\b/i;
const conditionHeading =
  /\bconditions?\s+(?:of|for)\s+participation\b|\beligib|\bpre-?qualif|\bminimum\s+(?:requirements|qualifications|criteria|standards)\b|\bmandatory\s+(?:requirements|criteria|qualifications|conditions)\b|\bpass\s*\/\s*fail\b|\bpre-?conditions?\b|\bcompliance\s+(?:check|review|criteria)\b|\bcertifications?\b|\brepresentations\b|\bgo\s*\/\s*no\s*go\b|\bacceptable\s*\/\s*unacceptable\b|\bqualification\s+(?:requirements|criteria)\b/i;
const scheduleHeading =
  /\breturnable\b|\bsubmittal\s+forms?\b|\bresponse\s+forms?\b|\b(?:tender|bid|offer|quotation)\s+forms?\b|\bforms?\s+to\s+(?:be\s+)?(?:complete|return|submit)|\bwhat\s+to\s+(?:lodge|submit|include|return)\b|\bchecklist\b|\bschedules?\s+to\s+be\b|\brequired\s+(?:documents|documentation|attachments|forms)\b|\bdocuments?\s+to\s+be\s+(?:submitted|returned|provided)\b/i;
const contractHeading =
  /\bstatement\s+of\s+(?:work|objectives|requirements)\b|\bperformance\s+work\s+statement\b|\bscope\s+of\s+(?:work|services)\b|\bspecification\b|\bcontract\b|\bclauses?\b|\bterms\b|\bspecial\s+conditions\b|\bgeneral\s+conditions\b|\bdeliverables?\b|\bkey\s+personnel\b|\bsecurity\b|\bwarrant|\binvoic|\bpayment\b|\bperiod\s+of\s+performance\b|\bobjectives\b|\btasks?\b|\bservices\b|\bplace\s+of\s+performance\b|\bconstraints\b|\bassumptions\b|\btransition\b/i;

/** What a heading says its passage holds, or null when it does not say. */
export function sectionKindOf(heading: string): SectionKind | null {
  const text = heading.replace(/^(?:section|part|stage|phase|attachment|appendix|annexure|schedule)\s+[A-Z0-9]{1,3}\s*[:.–—-]?\s*/i, (prefix) => (/^(?:attachment|appendix|annexure|schedule)/i.test(prefix) ? prefix : ''));
  if (scheduleHeading.test(text)) return 'schedule';
  if (conditionHeading.test(text)) return 'condition';
  if (criterionHeading.test(text) && !/\binstructions?\b/i.test(text)) return 'criterion';
  if (instructionHeading.test(text)) return 'instruction';
  if (contractHeading.test(text)) return 'contract';
  // A heading that starts a new topic says its passage is none of the above, so it does not inherit the one before.
  if (/^(?:general|introduction|background|overview|definitions?|glossary|other|miscellaneous|administration|contacts?|purpose|summary)\b/i.test(text)) return 'other';
  return null;
}

// --- Lodging, returnables, participation -----------------------------------------------------------------

/** The response itself, by its usual names. */
const response = String.raw`(?:quotes?|quotations?|proposals?|offers?|tenders?|bids?|responses?|submissions?|submittals?|applications?|expressions?\s+of\s+interest|eois?|volumes?|files?|documents?|attachments?)`;

/** Where to send a response, by when, in what volumes and pages: lodging whatever else the sentence asks for. */
const channel = String.raw`(?:in|via|through|to|by|electronically|online|no\s+later|before|prior|based\s+on|in\s+accordance|as\s+(?:a|one|two|separate))`;
const lodgingStrict = new RegExp(
  [
    String.raw`\bquestions?\b|\benquir|\binquir|\bclarification\s+requests?\b`,
    String.raw`\bno\s+later\s+than\b|\bclosing\s+(?:date|time)\b|\bdeadline\b|\b(?:is|are)\s+due\b|\bdue\s+(?:at|by|on|no)\b|\blate\s+${response}|\bdate\s+and\s+time\b`,
    String.raw`\b${response}\b[^.]{0,60}\b(?:submitted|received|lodged|delivered|sent|emailed|e-mailed|uploaded|accepted)\b[^.]{0,80}\b(?:via|through|electronically|online|portal|before|prior|no\s+later)\b`,
    String.raw`\b(?:submitted|received|lodged|delivered|sent|uploaded)\s+(?:electronically|online|via|through|by\s+e-?mail)\b`,
    String.raw`\bportal\b|\bsubject\s+line\b|\bhelp\s*desk\b|\bhard\s+cop(?:y|ies)\b|\bsealed\s+envelope\b`,
    String.raw`\bpages?\b[^.]{0,40}\b(?:limits?|limitations?|exceed|maximum)\b|\b(?:exceed|limit(?:ed)?\s+to|no\s+more\s+than|not\s+to\s+exceed|maximum\s+of)\b[^.]{0,40}\b(?:pages?|words?|minutes?|hours?|mb)\b|\bpage\s+(?:limits?|limitations?|numbers?)\b|\b\d+-page\b`,
    String.raw`\bfont\b|\bmargins?\b|\bpaper\s+size\b|\bsingle[\s-]spaced\b|\bdouble[\s-]spaced\b|\bformatted\b|\blegib|\blegend\b|\btitle\s+page\b`,
    String.raw`\bseparate\s+(?:file|volume|document|attachment|envelope|pdf)s?\b|\b(?:two|three|four|\d)(?:\s*\(\d\))?\s+(?:separate\s+)?(?:volumes|parts|files|attachments)\b`,
    String.raw`\bin\s+accordance\s+with\s+the\s+instructions\b|\binstructions\s+(?:set\s+forth|specified|contained|in\s+this)\b|\bcomply\s+with\s+all\s+instructions\b`,
    String.raw`\bfurnish\s+the\s+information\s+required\s+by\s+this\b|\bexamine\s+this\s+entire\b|\bas\s+required\s+by\s+this\s+(?:solicitation|rf[qtpi]|request|invitation)\b`,
    String.raw`\b(?:is|are)\s+to\s+be\s+(?:lodged|submitted)\b|\blodge[sd]?\b|\blodgement\b|\bfor\s+(?:the\s+)?submission\s+of\b`,
    String.raw`\b(?:shall|must|is\s+to|are\s+to|will)\s+(?:only\s+)?be\s+(?:submitted|lodged|delivered|received|uploaded|e-?mailed|returned)\s+${channel}\b`,
    String.raw`\bsubmit\s+(?:all\s+|its\s+|their\s+|your\s+|the\s+)?${response}\s+(?:by|to|via|through|before|no\s+later|electronically|online|in\s+accordance\s+with)\b`,
    String.raw`\b(?:attach|upload)\w*\s+(?:your\s+|the\s+|its\s+)?${response}\s+(?:to|in|into|on)\b|\bsend\s+(?:the\s+)?(?:government|buyer|agency|contracting\s+officer|procurement\s+officer|council|department)\b`,
    String.raw`\bas\s+(?:an?\s+)?(?:attachments?|appendix|appendices|addend(?:a|ums?))\b|\bconcise\b|\buse\s+of\s+the\b[^.]*\btemplate\b|\buse\s+(?:this|the)\s+template\s+(?:to|when)\s+(?:provide|prepare|submit|write|lodg)\w*\s+(?:your|its|their|the)\s+${response}\b|\btimelines?\b`,
    String.raw`\b(?:technical|price|pricing|cost|non-price)\s+(?:quote|quotation|proposal|volume|submission|file|response)s?\b[^.]*\b(?:not\s+(?:contain|include)|separate)\b|\b(?:parts?|volumes?)\b[^.]{0,60}\b(?:complete\s+in\s+itself|independently|individually\s+titled)`,
    String.raw`\bcomplete\s+the\s+following\s+fields\b|\bfields?\s+(?:on|of|in)\s+the\b|\bcolumn\s+[A-Z0-9]\b`,
  ].join('|'),
  'i',
);
/** Lodging words that a sentence asking for a document may also use ("… a cover page with an e-mail address", "in the format given"). */
const lodgingLoose = new RegExp(
  [
    String.raw`\be-?mail\b|\bfacsimile\b|\bcommunications?\b|\bdirect\s+all\b|\bpoint\s+of\s+contact\b`,
    String.raw`\boral\s+(?:presentation|interview)s?\b|\bpresentation\s+materials\b|\bslides\b|\bhandouts?\b`,
    String.raw`\bregistration\s+information\b|\bregister\s+(?:on|with|in)\s+the\b`,
    String.raw`\bformat\s+(?:compatible|of)\b|\bin\s+(?:a\s+)?(?:pdf|word|excel|electronic)\s+format\b|\b(?:in|into)\s+(?:the\s+|a\s+|an\s+)?(?:same\s+|following\s+|required\s+|specified\s+|electronic\s+|common\s+)?format\b`,
    String.raw`\b${response}\b[^.]{0,60}\b(?:submitted|received|lodged|delivered|sent|emailed|e-mailed|uploaded|accepted)\b[^.]{0,80}\b(?:by|to|at|in)\b`,
  ].join('|'),
  'i',
);

/**
 * A sentence about how, where, when or in what form to lodge (an instruction to tenderers). `strict`: only the
 * words that make it lodging even when it also asks for a document (a channel, a deadline, a page limit).
 */
export function isLodging(sentence: string, strict = false): boolean {
  return lodgingStrict.test(sentence) || (!strict && lodgingLoose.test(sentence));
}

/** Names of returnable documents. */
const returnableNoun =
  /\b(?:schedule|form|declaration|certificates?|certification|statement|plan|letters?\s+of\s+(?:intent|commitment|support|reference)|cover\s+(?:page|letter|sheet)|quotation|quote|proposal|narrative|resumes?|cvs?|curricul(?:um|a)\s+vitae|references?|summar(?:y|ies)|examples?|agreement|attachment|appendix|annexure|volume|questionnaire|checklist|spreadsheet|template|price\s+(?:list|sheet)|pricing\s+(?:schedule|sheet|template)|bill\s+of\s+quantities|evidence|white\s+paper|documentation|tax\s+id)\b/i;
const handInVerb = /\b(?:submit(?:ted)?|provide[ds]?|include[ds]?|prepare[ds]?|complete[ds]?|completing|sign(?:ed)?|return(?:ed)?|furnish(?:ed)?|attach(?:ed)?|accompanied\s+by|fill\s+out|lodge[ds]?|use)\b/i;

/** A sentence that asks for a document to be handed in, completed or signed. */
export function asksForDocument(sentence: string): boolean {
  return handInVerb.test(sentence) && returnableNoun.test(sentence);
}

/** A sentence asking for one of the documents a tender is judged on for its form: a form, certificate, declaration or signed statement. */
export function asksForForm(sentence: string): boolean {
  return handInVerb.test(sentence) && /\b(?:form|certificat\w*|declaration|signed\s+(?:\w+\s+){0,6}(?:statement|letter|agreement)|affidavit|acknowledg\w+)\b/i.test(sentence);
}

/**
 * The returnable a sentence asks for: the object of its hand-in verb ("… shall be accompanied by letters of
 * intent"), or its subject when the verb is passive ("A valid Vendor Tax ID must be submitted with the proposal").
 */
export function returnableAskedFor(sentence: string): string {
  const passive = /^(.{3,80}?)\s+(?:must|shall|is\s+to|are\s+to|will)\s+(?:also\s+)?be\s+(?:submitted|provided|included|attached|completed|signed|returned|furnished)\b/i.exec(sentence);
  if (passive) return passive[1]!;
  const verb = handInVerb.exec(sentence);
  if (verb) {
    const after = sentence.slice(verb.index + verb[0].length);
    const noun = returnableNoun.exec(after);
    // "Attachment E", "Form 3": the returnable with its letter or number.
    const label = noun ? /^\s+[A-Z0-9]{1,3}\b/.exec(after.slice(noun.index + noun[0].length)) : null;
    if (noun && noun.index < 80) return after.slice(0, noun.index + noun[0].length + (label?.[0].length ?? 0));
  }
  return sentence;
}

/** Participation: eligibility, registration, validity, minimum experience, pass/fail. */
const participating =
  /\beligib|\bregist(?:ered|ration)\b|\bminimum\s+of\b|\bat\s+least\b[^.]{0,40}\b(?:years?|projects?|contracts?|references?)\b|\bpass\s*\/\s*fail\b|\bcurrent\s+\w+(?:\s+\w+)?\s+(?:contract|schedule)\s+holder|\bholders?\b|\bsmall\s+business\b|\bsize\s+standard\b|\bset[\s-]aside\b|\blicen[cs]ed?\b|\bcertified\b|\bdebarred\b|\bconflicts?\s+of\s+interest\b/i;

export function isParticipation(sentence: string): boolean {
  return participating.test(sentence) || disqualifying.test(sentence);
}

// --- Weights -----------------------------------------------------------------------------------------------

/** A weight written in a criterion's own words: "40%", "40 per cent", "40 percent", "Weighting: 40", "(weight 40)". */
export function weightOf(text: string): number | null {
  const written =
    /(\d{1,3}(?:\.\d+)?)\s?(?:%|per\s?cent\b|pct\b)/i.exec(text) ??
    /\bweight(?:ing|ed)?\s*(?:of|:|=|-|–)?\s*(\d{1,3}(?:\.\d+)?)\b/i.exec(text) ??
    /\b(\d{1,3}(?:\.\d+)?)\s*(?:%\s*)?weight(?:ing)?\b/i.exec(text);
  if (!written) return null;
  const weight = Number(written[1]);
  return weight > 0 && weight <= 100 ? weight : null;
}

/** Points a criterion is scored out of ("(100 points)", "250 points"), to turn into a weight against the total. */
export function pointsOf(text: string): number | null {
  const match = /\b(\d{1,5}(?:,\d{3})?)\s+points?\b/i.exec(text);
  return match ? Number(match[1]!.replace(',', '')) : null;
}

/** The total points a document scores out of ("The total number of points … is 1,000"). */
export function totalPointsOf(text: string): number | null {
  const match = /\btotal\s+(?:number\s+of\s+)?points?\b[^.]*?\b(?:is|are|of|equals?)\s+(\d{1,3}(?:,\d{3})*|\d+)\b/i.exec(text) ?? /\bout\s+of\s+(?:a\s+(?:total|maximum)\s+of\s+)?(\d{1,3}(?:,\d{3})*|\d+)\s+points\b/i.exec(text);
  return match ? Number(match[1]!.replace(/,/g, '')) : null;
}

/** A table's header cells: a row of them is not a requirement. */
const headerCell =
  /^(?:criteri(?:on|a)|evaluation\s+criteri(?:on|a)|weighting(?:\s*\(%\))?|weight(?:\s*\(%\))?|%|points|score|response\*?|schedule|title|requirement|requirements|pre-condition|insurance|insured\s+amount|expiry\s+date|item|description|document|number|no\.?|volume(?:\s+(?:no\.?|title))?|phase|part\/tab\s+title|evaluation\s+rating|page\s+limit|explanation|clarification|initials\s+&\s+date|yes\s*\/\s*no|comments?)$/i;

export function isHeaderRow(cells: readonly string[]): boolean {
  return cells.length > 0 && cells.every((cell) => headerCell.test(cell.trim()));
}

/** A form's field to fill in ("Printed Name of Authorized Representative", "Signature", "Date", "☐ Disagree"): no requirement. */
export function isFormField(text: string): boolean {
  const field = text.trim().replace(/[:#_\s]+$/, '');
  return (
    /^[☐□■]\s*\w+/.test(field) ||
    /^(?:(?:printed|authori[sz]ed|company|contractor|subcontractor|vendor|supplier|offeror|tenderer|bidder|respondent|quoter|proposer|business|legal|trading|contact|full|job)(?:['’]s)?\s+)*(?:name|title|signature|date|address|e-?mail|telephone|phone|fax|position|abn|acn|tax\s+id|website|initials)(?:\s+(?:and|&)\s+(?:title|date|position))?(?:\s+of\s+[\w\s]{1,40})?$/i.test(field)
  );
}

/** An answer cell of a form: "True | False", "□ Yes □ No", "Yes/No". */
export function isAnswerCell(text: string): boolean {
  return /^(?:[□☐■]?\s*(?:true|yes)\s*[|/]?\s*[□☐■]?\s*(?:false|no)|[□☐]\s*(?:yes|no|compliant|non-compliant)(?:\s+[□☐]\s*\w+)*)$/i.test(text.trim());
}
