// The parts of a bid's page (site/pages/account/bids/bid/) drawn from the API's replies: the worth-bidding
// card, a file with its link and page text, a requirement with its draft, a gap with its partners, the plan's
// tasks. Each control that changes the bid is offered only when the reader may write, and shows the API's
// sentence when refused.
import { callApi } from './account-api.ts';
import { Draft, FileLink, FilePage, Gap, type BidFile, type Plan, type Requirement, type WorthBidding } from './bids-api.ts';
import { bytes, count, day, instant, instantIn, money, plural } from './format.ts';
import { jurisdictionName } from './places.ts';
import { actionButton, element, link, say } from './dom.ts';

export interface BidView {
  /** The bid's API address with `rest` appended: `/v1/bids/<id><rest>`. */
  api: (rest?: string) => string;
  /** Whether the reader may change the bid (viewers read only). */
  mayWrite: boolean;
}

/** The worth-bidding card: its checks and the buyer as figures, then what the release knows in sentences. */
export function worthCard(card: WorthBidding): HTMLElement[] {
  const figures = element('ul', undefined, 'figures');
  const figure = (value: string, label: string) => {
    const item = element('li');
    item.append(element('span', value, 'value'), element('span', label, 'label'));
    figures.append(item);
  };
  const days = card.checks.days_to_close;
  figure(days === null ? '—' : count(Math.abs(days)), days === null ? 'no closing day known' : days >= 0 ? `${days === 1 ? 'day' : 'days'} to close` : `${days === -1 ? 'day' : 'days'} since it closed`);
  figure(count(card.checks.mandatory_without_draft), 'mandatory requirements without evidence');
  figure(count(card.checks.open_gaps), 'open gaps');
  if (card.buyer) figure(count(card.buyer.award_count), `contracts of ${card.buyer.name} in three years`);
  const lines = element('ul');
  if (card.buyer) {
    const median = card.buyer.median_value === null ? '' : `The buyer's median contract: ${money(card.buyer.median_value, card.buyer.value_currency)}. `;
    const suppliers = card.buyer.recent_suppliers.length ? `Recent suppliers: ${card.buyer.recent_suppliers.join(', ')}.` : '';
    if (median || suppliers) lines.append(element('li', `${median}${suppliers}`));
  }
  if (card.similar_work) {
    const similar = card.similar_work;
    const range = similar.value_min === null ? '' : `, from ${money(similar.value_min, similar.value_currency)} to ${money(similar.value_max, similar.value_currency)}`;
    const item = element('li', `Similar work (a heuristic on the title words ${similar.keywords.join(', ')}): ${plural(similar.award_count, 'contract')}${range}. `);
    item.append(element('span', similar.rule, 'meta'));
    lines.append(item);
  }
  if (card.incumbent) {
    const held = card.incumbent;
    lines.append(element('li', `Incumbent: ${held.supplier ?? 'a supplier the source does not name'} holds “${held.contract_title}”${held.end_date ? `, ending ${day(held.end_date)}` : ''}${held.value_amount === null ? '' : `, worth ${money(held.value_amount, held.value_currency)}`}.`));
  }
  if (!card.tender_key) lines.append(element('li', 'This bid is on a free title, so the buyer and similar work are not known.'));
  return [figures, lines];
}

/** A bid file: what it is and how its text was read, a signed link on request, and any page's text. */
export function fileItem(view: BidView, file: BidFile): HTMLLIElement {
  const item = element('li');
  const what = element('span');
  const read = file.read_status === 'read' ? `${plural(file.pages_read, 'page')} read` : `text not read: ${file.read_detail ?? 'no reason given'}`;
  what.append(file.filename, element('br'), element('span', `${file.kind.toUpperCase()} · ${bytes(file.size_bytes)} · ${read} · uploaded ${day(file.uploaded_at)} by ${file.uploaded_by}`, 'meta'));
  const controls = element('span', undefined, 'controls');
  const open = actionButton('Link', `to ${file.filename}`);
  const pageId = `page-${file.file_id}`;
  const label = element('label', 'Page');
  label.htmlFor = pageId;
  label.append(element('span', ` of ${file.filename}`, 'visually-hidden'));
  const page = element('input');
  Object.assign(page, { id: pageId, type: 'number', min: '1', max: String(Math.max(1, file.pages_read)), value: '1' });
  const show = actionButton('Show text', `of that page of ${file.filename}`);
  controls.append(open, label, page, show);
  const out = element('div', undefined, 'file-out');
  item.append(what, controls, out);
  open.addEventListener('click', async () => {
    const reply = await callApi(FileLink, view.api(`/files/${encodeURIComponent(file.file_id)}/url`));
    if (!reply.ok) {
      out.replaceChildren(element('p', reply.detail));
      return;
    }
    const p = element('p');
    const anchor = link(`Open ${file.filename}`, reply.value.url);
    anchor.target = '_blank';
    anchor.rel = 'noopener';
    p.append(anchor, element('span', ` (this link works for anyone holding it until ${instant(reply.value.expires_at)})`, 'meta'));
    out.replaceChildren(p);
  });
  show.addEventListener('click', async () => {
    const reply = await callApi(FilePage, view.api(`/files/${encodeURIComponent(file.file_id)}/pages/${encodeURIComponent(page.value)}`));
    if (!reply.ok) {
      out.replaceChildren(element('p', reply.detail));
      return;
    }
    const text = element('pre', reply.value.text || '(no text on this page)', 'page-text');
    text.tabIndex = 0;
    text.setAttribute('aria-label', `Text of page ${reply.value.n} of ${file.filename}`);
    out.replaceChildren(element('p', `Page ${count(reply.value.n)} of ${count(reply.value.page_count)}${reply.value.source === 'ocr' ? ' (read from the page image)' : ''}:`, 'meta'), text);
  });
  return item;
}

/** A draft that answers: a person's text, or passages found in the organisation's sources. */
export const draftAnswers = (draft: Draft | undefined): boolean => draft !== undefined && (draft.origin === 'person' || draft.citations.length > 0);

function draftNote(draft: Draft | undefined): string {
  if (!draft) return 'No draft yet: recompute to draft one from your organisation, or write it here.';
  // With nothing found, the draft's text says so and what to do: shown as the note, not as an answer to keep.
  if (!draftAnswers(draft)) return draft.text;
  if (draft.origin === 'person') return `Written by ${draft.edited_by ?? 'a person'}, ${instant(draft.updated_at)}: kept over every recompute.`;
  const sources = draft.citations.map((citation) => `[${citation.n}] ${citation.document}${citation.page === null ? '' : `, page ${count(citation.page)}`}`).join('; ');
  return `${draft.note}${sources ? ` Sources: ${sources}.` : ''}`;
}

/** A requirement with its draft: the draft to edit and save (a person's text is kept over every recompute). */
export function requirementItem(view: BidView, requirement: Requirement, position: number, draft: Draft | undefined): HTMLLIElement {
  const item = element('li', undefined, 'requirement');
  const name = requirement.ref ? `clause ${requirement.ref}` : `requirement ${position}`;
  const head = element('p', undefined, 'requirement-head');
  head.append(element('strong', requirement.ref ?? `#${position}`), ` ${requirement.kind}${requirement.mandatory ? ', mandatory' : ''}${requirement.weight === null ? '' : `, weight ${count(requirement.weight)}%`} · ${requirement.state.replace('_', ' ')}`);
  const text = element('p', requirement.text, 'requirement-text');
  const id = `draft-${requirement.requirement_id}`;
  const label = element('label', 'Draft');
  label.htmlFor = id;
  label.append(element('span', ` for ${name}`, 'visually-hidden'));
  const area = element('textarea');
  Object.assign(area, { id, rows: 5, maxLength: 20000, value: draft && draftAnswers(draft) ? draft.text : '' });
  const note = element('p', draftNote(draft), 'meta');
  const save = actionButton('Save the draft', `for ${name}`);
  const saved = element('span', '', 'meta');
  saved.setAttribute('role', 'status');
  const controls = element('p', undefined, 'controls');
  controls.append(save, saved);
  area.readOnly = !view.mayWrite;
  item.append(head, text, label, area, note, ...(view.mayWrite ? [controls] : []));
  save.addEventListener('click', async () => {
    save.disabled = true;
    const reply = await callApi(Draft, view.api(`/drafts/${encodeURIComponent(requirement.requirement_id)}`), { method: 'PATCH', body: { text: area.value } });
    save.disabled = false;
    if (!reply.ok) {
      saved.textContent = reply.detail;
      return;
    }
    note.textContent = draftNote(reply.value);
    saved.textContent = 'Saved.';
  });
  return item;
}

/** A gap with the partners who can close it; an open one may be marked not applicable, with a reason. */
export function gapItem(view: BidView, gap: Gap): HTMLLIElement {
  const item = element('li', undefined, 'gap');
  const what = element('div');
  const status = gap.status === 'NA' ? `not applicable: ${gap.na_reason ?? ''}` : gap.status;
  what.append(element('strong', gap.title), element('br'), gap.detail, element('br'), element('span', `${gap.category.replaceAll('_', ' ')}${gap.region ? ` · ${jurisdictionName(gap.region)}` : ''} · ${status}`, 'meta'));
  item.append(what);
  if (gap.partners.length > 0) {
    const partners = element('ul', undefined, 'partners');
    for (const partner of gap.partners) {
      const row = element('li');
      const anchor = link(partner.name, partner.website);
      anchor.rel = 'noopener';
      row.append(anchor, ` — ${partner.summary}`);
      partners.append(row);
    }
    item.append(element('p', `${plural(gap.partners.length, 'partner')} can help:`, 'meta'), partners);
  }
  if (gap.status === 'open' && view.mayWrite) {
    const form = element('form', undefined, 'account inline');
    const id = `na-${gap.gap_id}`;
    const label = element('label', 'Why it does not apply');
    label.htmlFor = id;
    label.append(element('span', ` (${gap.title})`, 'visually-hidden'));
    const reason = element('input');
    Object.assign(reason, { id, type: 'text', maxLength: 1000, autocomplete: 'off' });
    const field = element('div', undefined, 'field');
    field.append(label, reason);
    const mark = element('button', 'Mark not applicable');
    mark.type = 'submit';
    const refused = element('p', '', 'refusal');
    refused.setAttribute('role', 'alert');
    refused.hidden = true;
    form.append(field, mark, refused);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const reply = await callApi(Gap, view.api(`/gaps/${encodeURIComponent(gap.gap_id)}`), { method: 'PATCH', body: { status: 'NA', reason: reason.value } });
      if (!reply.ok) {
        say(refused, reply.detail);
        return;
      }
      item.replaceWith(gapItem(view, reply.value));
    });
    item.append(form);
  }
  return item;
}

/** The plan's tasks, numbered as listed (a task names those it waits for by number), due in `zone` (the buyer's). */
export function planItems(plan: Plan, zone: string | null): HTMLLIElement[] {
  const when = (at: string) => (zone ? instantIn(at, zone) : instant(at));
  const numbers = new Map(plan.tasks.map((task, index) => [task.task_id, index + 1]));
  return plan.tasks.map((task) => {
    const item = element('li');
    const time = element('time', when(task.due_at));
    time.dateTime = task.due_at;
    const after = task.depends_on.length === 0 ? '' : ` · after ${task.depends_on.map((id) => numbers.get(id) ?? id).join(', ')}`;
    const meta = element('span', undefined, 'meta');
    meta.append('due ', time, ` · ${task.owner ?? 'nobody yet'}${after}`);
    item.append(element('span', task.title, 'task'), element('br'), meta);
    return item;
  });
}
