import type { StoredDraft } from '../drafts/store.ts';
import type { FilePages } from '../files.ts';
import { hasEvidence } from '../gaps.ts';
import type { Requirement } from '../requirements/store.ts';
import { datesIn, folded, lengthLimitsIn, scheduleName, wordCount, type LengthLimit } from './tender-text.ts';

/**
 * The compliance check a run ends with: a pure function from the bid's requirements, drafts, files and dates
 * to findings. Every mandatory requirement answered; the answers within the tender's page and word limits;
 * every returnable schedule or form among the bid's files; the team's dates and the tender's own inside the
 * window from today to the closing day.
 */

export const FINDING_KINDS = ['mandatory_unanswered', 'length_limit', 'returnable_missing', 'date_outside_window'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export interface DerivedFinding {
  kind: FindingKind;
  requirement_id: string | null;
  title: string;
  detail: string;
}

export interface ComplianceInputs {
  /** Requirements in force (not superseded or withdrawn). */
  requirements: readonly Requirement[];
  drafts: readonly StoredDraft[];
  files: readonly FilePages[];
  /** Today and the tender's closing day, in the buyer's time zone (YYYY-MM-DD); closing null when unknown. */
  today: string;
  closingDate: string | null;
  /** The team's own due date, or null. */
  dueDate: string | null;
  /** The plan's tasks with their due day in the buyer's time zone. */
  tasks: readonly { task_id: string; title: string; due_local: string }[];
}

/**
 * A stated rule, not a measurement: a page of A4 at 11 point with ordinary margins holds about 500 words of
 * prose, so a draft's pages are its words over 500 (the response document is not laid out until export).
 */
export const WORDS_PER_PAGE = 500;
const SETTLED_BY_PERSON: ReadonlySet<string> = new Set(['met', 'not_applicable']);

const named = (requirement: Requirement) => (requirement.ref ? `requirement ${requirement.ref}` : 'a requirement');
const quoted = (text: string, most = 120) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > most ? `${flat.slice(0, most - 1)}…` : flat}"`;
};

export function checkCompliance(inputs: ComplianceInputs): DerivedFinding[] {
  return [...unanswered(inputs), ...overLength(inputs), ...returnablesMissing(inputs), ...datesOutside(inputs)];
}

function unanswered({ requirements, drafts }: ComplianceInputs): DerivedFinding[] {
  const draftOf = new Map(drafts.map((draft) => [draft.requirement_id, draft]));
  return requirements
    .filter((requirement) => requirement.mandatory && requirement.kind !== 'schedule' && requirement.kind !== 'instruction' && !SETTLED_BY_PERSON.has(requirement.state) && !hasEvidence(draftOf.get(requirement.requirement_id)))
    .map((requirement) => {
      const draft = draftOf.get(requirement.requirement_id);
      return {
        kind: 'mandatory_unanswered' as const,
        requirement_id: requirement.requirement_id,
        title: `Mandatory ${named(requirement)} has no answer`,
        detail: `${quoted(requirement.text)} is mandatory and its draft cites no evidence${draft ? `: ${draft.note}` : '.'}`,
      };
    });
}

/** The drafts that are answers (a person's, or the model's with citations), not passages set out for a person to write from. */
const isAnswer = (draft: StoredDraft | undefined): draft is StoredDraft => draft !== undefined && (draft.origin === 'person' || (draft.origin === 'model' && draft.citations.length > 0));

function overLength({ requirements, drafts, files }: ComplianceInputs): DerivedFinding[] {
  const draftOf = new Map(drafts.map((draft) => [draft.requirement_id, draft]));
  const limits = new Map<string, LengthLimit>();
  for (const file of files) for (const page of file.pages) for (const limit of lengthLimitsIn(page.text)) limits.set(`${limit.amount} ${limit.unit} ${limit.each} ${limit.sentence}`, limit);
  const findings: DerivedFinding[] = [];
  const measure = (text: string, unit: LengthLimit['unit']) => (unit === 'words' ? wordCount(text) : wordCount(text) / WORDS_PER_PAGE);
  const describe = (amount: number, unit: LengthLimit['unit']) => (unit === 'words' ? `${amount} words` : `about ${amount.toFixed(1)} pages at ${WORDS_PER_PAGE} words a page`);
  for (const limit of limits.values()) {
    // A limit stated inside one requirement applies to its answer; "each" applies to every criterion's; else to the whole response.
    const own = requirements.find((requirement) => folded(requirement.text).includes(folded(limit.sentence)) || folded(limit.sentence).includes(folded(requirement.text)));
    const scope = limit.each ? requirements.filter((requirement) => requirement.kind === 'criterion') : own && own.kind !== 'clause' ? [own] : [];
    if (limit.each || scope.length > 0) {
      for (const requirement of scope) {
        const draft = draftOf.get(requirement.requirement_id);
        if (!isAnswer(draft)) continue;
        const length = measure(draft.text, limit.unit);
        if (length <= limit.amount) continue;
        findings.push({
          kind: 'length_limit',
          requirement_id: requirement.requirement_id,
          title: `The answer to ${named(requirement)} is over its ${limit.amount}-${limit.unit === 'pages' ? 'page' : 'word'} limit`,
          detail: `The draft runs to ${describe(length, limit.unit)}; the tender says ${quoted(limit.sentence)}.`,
        });
      }
      continue;
    }
    const answers = requirements.map((requirement) => draftOf.get(requirement.requirement_id)).filter(isAnswer);
    const total = answers.reduce((sum, draft) => sum + measure(draft.text, limit.unit), 0);
    if (total <= limit.amount) continue;
    findings.push({
      kind: 'length_limit',
      requirement_id: null,
      title: `The response is over the tender's ${limit.amount}-${limit.unit === 'pages' ? 'page' : 'word'} limit`,
      detail: `The drafts together run to ${describe(total, limit.unit)}; the tender says ${quoted(limit.sentence)}.`,
    });
  }
  return findings;
}

function returnablesMissing({ requirements, drafts, files }: ComplianceInputs): DerivedFinding[] {
  const personDrafted = new Set(drafts.filter((draft) => draft.origin === 'person').map((draft) => draft.requirement_id));
  const findings: DerivedFinding[] = [];
  for (const requirement of requirements) {
    if (requirement.kind !== 'schedule' || !requirement.mandatory || SETTLED_BY_PERSON.has(requirement.state) || personDrafted.has(requirement.requirement_id)) continue;
    const name = scheduleName(requirement.text);
    // Among the bid's files other than the one that names it: the completed form is its own file.
    const present = name !== null && files.some((file) => file.file_id !== requirement.source?.file_id && folded(file.filename).includes(` ${name} `));
    if (present) continue;
    findings.push({
      kind: 'returnable_missing',
      requirement_id: requirement.requirement_id,
      title: `Returnable ${name ?? 'schedule'} is not among the bid's files`,
      detail: `${quoted(requirement.text)} is to be returned with the response, and no bid file ${name ? `is named for ${name}` : 'is it'}: upload the completed form, or mark the requirement met once it is attached.`,
    });
  }
  return findings;
}

function datesOutside({ requirements, today, closingDate, dueDate, tasks }: ComplianceInputs): DerivedFinding[] {
  const findings: DerivedFinding[] = [];
  const finding = (title: string, detail: string, requirementId: string | null = null) => findings.push({ kind: 'date_outside_window', requirement_id: requirementId, title, detail });
  if (closingDate !== null && closingDate < today) finding(`The tender closed on ${closingDate}`, `Today is ${today} in the buyer's time zone, after the closing day ${closingDate}: a response can no longer be lodged.`);
  if (dueDate !== null && closingDate !== null && dueDate > closingDate) finding(`The team's due date ${dueDate} is after the tender closes`, `The bid's own due date is ${dueDate}, after the closing day ${closingDate}: set it on or before the closing day.`);
  else if (dueDate !== null && dueDate < today) finding(`The team's due date ${dueDate} has passed`, `The bid's own due date was ${dueDate}; today is ${today}.`);
  const late = tasks.filter((task) => task.due_local.slice(0, 10) < today);
  if (late.length > 0) {
    finding(
      `${late.length} plan task${late.length === 1 ? ' was' : 's were'} due before today`,
      `${late.map((task) => `${task.title} (${task.due_local})`).join('; ')}: the plan no longer fits between today (${today}) and closing.`,
    );
  }
  for (const requirement of requirements) {
    if (!requirement.mandatory || SETTLED_BY_PERSON.has(requirement.state)) continue;
    for (const date of datesIn(requirement.text)) {
      if (date < today) {
        finding(`Mandatory ${named(requirement)} names ${date}, which has passed`, `${quoted(requirement.text)}: ${date} is before today (${today}).`, requirement.requirement_id);
      } else if (closingDate !== null && date > closingDate && /\b(lodge|lodged|lodgement|submit|submitted|submission|attend|inspection|briefing|deliver)\b/i.test(requirement.text)) {
        finding(`Mandatory ${named(requirement)} names ${date}, after the tender closes`, `${quoted(requirement.text)}: ${date} is after the closing day ${closingDate}.`, requirement.requirement_id);
      }
    }
  }
  return findings;
}
