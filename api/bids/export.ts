import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import type { DraftCitation } from './drafts/compose.ts';
import type { StoredDraft } from './drafts/store.ts';
import { citationLabel } from './drafts/retrieval.ts';
import type { WorkspaceRequirement } from './workspace-requirement.ts';

/**
 * The bid's response document: every requirement in order, its draft, and the sources the draft cites;
 * as a Word document (.docx, the `docx` package) or as Markdown.
 */

export interface ResponseDocument {
  title: string;
  company: string;
  /** "Closes 2026-10-06 (Australia/Sydney)", or null when the bid has no closing day. */
  closing: string | null;
  items: { requirement: WorkspaceRequirement; draft: StoredDraft | null }[];
}

const NO_DRAFT = 'No draft yet: recompute the plan to draft it, or write it.';

const heading = (requirement: WorkspaceRequirement, index: number) =>
  `${requirement.ref ?? String(index + 1)}. ${KIND_NAMES[requirement.kind]}${requirement.mandatory ? ' (mandatory)' : ''}${requirement.weight === null ? '' : `, weight ${requirement.weight}%`}`;

const KIND_NAMES: Record<WorkspaceRequirement['kind'], string> = {
  clause: 'Clause',
  schedule: 'Returnable schedule',
  criterion: 'Evaluation criterion',
  condition: 'Condition of participation',
  instruction: 'Instruction to tenderers',
};

const source = (citation: DraftCitation) => `[${citation.n}] ${citationLabel(citation)}`;
const paragraphsOf = (text: string) => text.split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter(Boolean);

export function responseMarkdown(response: ResponseDocument): string {
  const lines = [`# ${response.title}`, '', `Response by ${response.company}.${response.closing ? ` ${response.closing}.` : ''}`, ''];
  for (const [index, { requirement, draft }] of response.items.entries()) {
    lines.push(`## ${heading(requirement, index)}`, '', ...requirement.text.split('\n').map((line) => `> ${line}`), '', '### Response', '', draft?.text ?? NO_DRAFT, '');
    if (draft && draft.citations.length > 0) lines.push('### Sources', '', ...draft.citations.map((citation) => `- ${source(citation)}`), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export async function responseDocx(response: ResponseDocument): Promise<Uint8Array<ArrayBuffer>> {
  const children: Paragraph[] = [
    new Paragraph({ text: response.title, heading: HeadingLevel.TITLE }),
    new Paragraph({ text: `Response by ${response.company}.${response.closing ? ` ${response.closing}.` : ''}` }),
  ];
  for (const [index, { requirement, draft }] of response.items.entries()) {
    children.push(new Paragraph({ text: heading(requirement, index), heading: HeadingLevel.HEADING_1 }));
    for (const paragraph of paragraphsOf(requirement.text)) children.push(new Paragraph({ children: [new TextRun({ text: paragraph, italics: true })] }));
    children.push(new Paragraph({ text: 'Response', heading: HeadingLevel.HEADING_2 }));
    for (const paragraph of paragraphsOf(draft?.text ?? NO_DRAFT)) children.push(new Paragraph({ text: paragraph }));
    if (draft && draft.citations.length > 0) {
      children.push(new Paragraph({ text: 'Sources', heading: HeadingLevel.HEADING_2 }));
      for (const citation of draft.citations) children.push(new Paragraph({ text: source(citation), bullet: { level: 0 } }));
    }
  }
  const document = new Document({ creator: response.company, title: response.title, sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(document));
}
