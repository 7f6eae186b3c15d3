import type { FilePages } from '../files.ts';
import type { Requirement } from '../requirements/store.ts';
import { datesIn, emailsIn, folded, scheduleName, sentencesOf } from './tender-text.ts';

/**
 * Questions for the buyer that a run finds in the tender's own documents, and the address to ask them at.
 * A question is worth a person's approval only when the documents cannot answer it themselves: a returnable
 * form the pack names but does not contain, and a date for lodging that falls after the tender closes.
 */

/** Words near an address that make it the one for questions (rather than, say, a complaints officer's). */
const CONTACT_WORDS = /\b(contact|enquir|inquir|question|clarification|officer|procurement|tender)/i;

/** The buyer's address for questions in the bid's files: one near contact wording, else the first; null when none. */
export function contactAddress(files: readonly FilePages[]): string | null {
  let first: string | null = null;
  for (const file of files) {
    for (const page of file.pages) {
      for (const { address, index } of emailsIn(page.text)) {
        first ??= address;
        if (CONTACT_WORDS.test(page.text.slice(Math.max(0, index - 160), index))) return address;
      }
    }
  }
  return first;
}

/** The questions, each a sentence or two addressed to the buyer. */
export function clarificationQuestions(files: readonly FilePages[], requirements: readonly Requirement[], closingDate: string | null): string[] {
  const questions: string[] = [];
  const everything = folded(files.flatMap((file) => file.pages.map((page) => page.text)).join('\n'));
  for (const requirement of requirements) {
    if (requirement.kind !== 'schedule' || !requirement.mandatory) continue;
    const name = scheduleName(requirement.text);
    if (name === null) continue;
    // Named once in the whole pack: in the list of what to return, so the form itself is not there.
    if (everything.split(` ${name} `).length - 1 > 1) continue;
    const label = requirement.text.replace(/\s+/g, ' ').trim();
    questions.push(`The documents list "${label}" as a returnable schedule, but the form itself is not among the documents we received. Could you send it, or tell us where to find it?`);
  }
  if (closingDate !== null) {
    for (const file of files) {
      for (const page of file.pages) {
        for (const sentence of sentencesOf(page.text)) {
          if (!/\b(lodge|lodged|lodgement|submit|submitted|submission|due)\b/i.test(sentence)) continue;
          const late = datesIn(sentence).filter((date) => date > closingDate);
          if (late.length === 0) continue;
          questions.push(`The documents say "${sentence}", which gives ${late.join(' and ')}, after the closing date of ${closingDate} we were given. Which date applies?`);
        }
      }
    }
  }
  return [...new Set(questions)];
}

/** The email that asks them: to the buyer's address, replies to the person who started the run. */
export function clarificationEmail(input: { to: string; replyTo: string; company: string; bidTitle: string; questions: readonly string[] }): { to: string; reply_to: string; subject: string; text: string } {
  return {
    to: input.to,
    reply_to: input.replyTo,
    subject: `Clarification request: ${input.bidTitle}`,
    text: [
      'Hello,',
      '',
      `${input.company} is preparing a response to "${input.bidTitle}" and would be grateful for clarification on the following:`,
      '',
      ...input.questions.map((question, index) => `${index + 1}. ${question}`),
      '',
      `Please reply to ${input.replyTo}.`,
      '',
      `Kind regards,`,
      input.company,
    ].join('\n'),
  };
}
