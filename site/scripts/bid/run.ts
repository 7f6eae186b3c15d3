// Preparing the bid: what a run does (the quote, read when the reader opens it), "Prepare this bid" (the
// checkout first when unpaid), the run's progress and log followed by its event stream (EventSource resumes by
// Last-Event-ID on its own; the page reopens it after the last event it saw when the browser gives up), Stop,
// the actions waiting for a decision with Approve and Reject, those decided (who, when, what it did), why a
// failed run failed and what to do, and the findings once the run ends. The overview carries the run's state,
// so loading the page makes no extra call.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { ActionDecided, FindingList, Run, RunQuote, type Finding, type OverviewRun } from '../../lib/bids-api.ts';
import { actionButton, element, marked, say } from '../../lib/dom.ts';
import { instant } from '../../lib/format.ts';
import {
  ENDED_RUN_STATES, eventWords, FAILED_RUN_NEXT, failureWords, FINAL_EVENTS, findingKindWords, findingTodo, progressWords, quoteActionWords, RUN_EVENT_KINDS, runStateWords, stepWords,
} from '../../lib/run-words.ts';
import type { BidState } from './bid-state.ts';
import { openCheckout } from './payment.ts';

type LatestRun = NonNullable<OverviewRun['latest']>;

/** How long the page waits before reopening a stream the browser gave up on, and how many times in a row it tries. */
const REOPEN_AFTER_MS = 3000;
const REOPEN_TRIES = 5;

export function runSection(state: BidState): void {
  const start = marked<HTMLButtonElement>('run-start');
  const stop = marked<HTMLButtonElement>('run-stop');
  const refused = marked('run-refused');
  const progressLine = marked('run-progress');
  const nextLine = marked('run-next');
  const logPart = marked<HTMLDetailsElement>('run-log-part');
  const log = marked('run-log');
  let stream: EventSource | null = null;
  let followed: string | null = null;
  let findingsOf: string | null = null;

  const requirementName = (requirementId: string): string | null => {
    const requirement = state.overview.requirements.find((row) => row.requirement_id === requirementId);
    if (!requirement) return null;
    return requirement.ref ? `requirement ${requirement.ref}` : `“${requirement.text.length > 80 ? `${requirement.text.slice(0, 77)}…` : requirement.text}”`;
  };

  function showProgress(run: LatestRun): void {
    say(nextLine, run.state === 'failed' ? FAILED_RUN_NEXT : '');
    if (ENDED_RUN_STATES.includes(run.state)) {
      say(progressLine, run.state === 'failed' ? failureWords(run.step, run.error, requirementName) : '');
      return;
    }
    const stopping = run.stop_requested ? ' Stopping at the end of this step.' : '';
    const now = run.state === 'waiting' ? 'Waiting for your decision below' : stepWords(run.step, requirementName);
    say(progressLine, `${now}. ${progressWords(run.progress)}.${stopping}`);
  }

  function draw(): void {
    const { run, payment } = state.overview;
    const latest = run.latest;
    const live = latest !== null && !ENDED_RUN_STATES.includes(latest.state);
    start.hidden = !state.view.mayWrite || (!payment.paid && !payment.available);
    stop.hidden = !state.view.mayWrite || !live;
    const status = marked('run-status');
    if (latest === null) {
      const button = start.hidden ? 'A run' : '“Prepare this bid”';
      status.textContent = payment.paid
        ? `No run yet: ${button} reads the files, drafts every answer and checks the response.`
        : `A run needs bid preparation paid for${start.hidden ? '' : ': “Prepare this bid” opens the checkout'}. ${payment.detail}`;
    } else {
      const ended = latest.ended_at ? `, ended ${instant(latest.ended_at)}` : '';
      status.textContent = `The latest run ${runStateWords(latest.state)} (started ${instant(latest.started_at)}${ended}).`;
      showProgress(latest);
    }
    if (latest === null) {
      say(progressLine, '');
      say(nextLine, '');
    }
    if (latest?.run_id !== followed) logPart.hidden = true;
    drawActions(run.pending_actions);
    drawDecided(run.decided_actions);
    drawFindingsOffer(latest, run.findings);
    if (live && followed !== latest.run_id) follow(latest);
  }

  function drawActions(actions: OverviewRun['pending_actions']): void {
    const list = marked('run-actions');
    marked('run-actions-part').hidden = actions.length === 0;
    list.replaceChildren(...actions.map((action) => {
      const item = element('li');
      item.append(element('strong', action.title));
      for (const line of action.in_words) item.append(element('p', line, 'action-words'));
      if (state.view.mayWrite) {
        const buttons = element('div', undefined, 'toolbar');
        for (const [decision, label] of [['approve', 'Approve'], ['reject', 'Reject']] as const) {
          const button = actionButton(label, action.title);
          button.className = decision === 'approve' ? '' : 'quiet';
          button.addEventListener('click', async () => {
            say(refused, '');
            const decided = await answered(() => callApi(ActionDecided, state.view.api(`/actions/${encodeURIComponent(action.action_id)}/${decision}`), { method: 'POST' }), refused, button);
            if (decided !== null) await state.refreshInto(refused);
          });
          buttons.append(button);
        }
        item.append(buttons);
      }
      return item;
    }));
  }

  function drawDecided(actions: OverviewRun['decided_actions']): void {
    marked('run-decided-part').hidden = actions.length === 0;
    marked('run-decided').replaceChildren(...actions.map((action) => {
      const item = element('li');
      const verdict = action.state === 'approved' ? 'Approved' : 'Declined';
      item.append(element('strong', action.title), element('p', `${verdict} by ${action.decided_by ?? 'a former member'}, ${instant(action.decided_at)}.`), element('p', action.came_to, 'action-words'));
      return item;
    }));
  }

  function drawFindingsOffer(latest: LatestRun | null, count: number): void {
    const status = marked('findings-status');
    const show = marked<HTMLButtonElement>('findings-show');
    if (latest === null || !ENDED_RUN_STATES.includes(latest.state)) {
      status.textContent = latest === null ? 'A run checks the response and lists here what needs fixing.' : 'The findings are listed here when the run ends.';
      show.hidden = true;
      if (findingsOf !== latest?.run_id) marked('findings').replaceChildren();
      return;
    }
    if (findingsOf === latest.run_id) return;
    status.textContent = count === 0 ? 'The latest run found nothing to fix.' : `The latest run left ${count} finding${count === 1 ? '' : 's'}.`;
    show.hidden = count === 0;
    marked('findings').replaceChildren();
  }

  async function showFindings(): Promise<void> {
    const latest = state.overview.run.latest;
    if (latest === null) return;
    const show = marked<HTMLButtonElement>('findings-show');
    const listed = await answered(() => callApi(FindingList, state.view.api('/findings')), refused, show);
    if (listed === null) return;
    const findings = listed.findings.filter((finding) => finding.run_id === latest.run_id);
    findingsOf = latest.run_id;
    show.hidden = true;
    marked('findings').replaceChildren(...findings.map(findingItem));
    marked('findings-status').textContent = findings.length === 0 ? 'The latest run found nothing to fix.' : `The latest run left ${findings.length} finding${findings.length === 1 ? '' : 's'}:`;
  }

  function findingItem(finding: Finding): HTMLLIElement {
    const item = element('li');
    item.append(element('strong', finding.title), element('span', ` (${findingKindWords(finding.kind)})`, 'meta'));
    const requirement = finding.requirement_id === null ? null : state.overview.requirements.find((row) => row.requirement_id === finding.requirement_id);
    if (requirement) item.append(element('p', `The requirement${requirement.ref ? ` ${requirement.ref}` : ''}: ${requirement.text}`));
    item.append(element('p', finding.detail), element('p', findingTodo(finding.kind), 'todo'));
    return item;
  }

  /**
   * Follows the run's events from its first: each is a line of the log, and those after the last one the overview
   * counted move the progress line; each step is said as it starts.
   */
  function follow(run: LatestRun): void {
    stream?.close();
    followed = run.run_id;
    log.replaceChildren();
    logPart.hidden = false;
    let ended = false;
    let lastSeen = 0;
    let reopenings = 0;
    const latest = () => state.overview.run.latest;
    const open = (after: number): void => {
      const source = new EventSource(state.view.api(`/runs/${encodeURIComponent(run.run_id)}/events?since_seq=${after}`));
      stream = source;
      source.addEventListener('open', () => (reopenings = 0));
      for (const kind of RUN_EVENT_KINDS) source.addEventListener(kind, (event) => heard(kind, event));
      source.addEventListener('error', () => {
        // The stream closes after the run's last event; EventSource would reconnect to it for ever.
        if (ended || stream !== source) source.close();
        else if (source.readyState === EventSource.CLOSED) {
          // The browser gave up (a refusal on reconnecting): open it again after the last event seen.
          if (reopenings++ >= REOPEN_TRIES) {
            say(refused, "The run's progress could not be followed. Reload the page to see where it is.");
            return;
          }
          setTimeout(() => {
            if (stream === source) open(lastSeen);
          }, REOPEN_AFTER_MS);
        }
      });
    };
    const heard = (kind: (typeof RUN_EVENT_KINDS)[number], event: MessageEvent<string>): void => {
      const seq = Number(event.lastEventId);
      lastSeen = Math.max(lastSeen, seq);
      const data = JSON.parse(event.data) as Record<string, unknown>;
      const line = element('li', eventWords(kind, data, requirementName));
      line.dataset['seq'] = event.lastEventId;
      log.append(line);
      const final = FINAL_EVENTS.includes(kind as (typeof FINAL_EVENTS)[number]);
      if (final) ended = true;
      const current = latest();
      if (current?.run_id !== run.run_id) return;
      // What the overview read already counts.
      const fresh = seq > current.last_seq;
      if (fresh) current.last_seq = seq;
      if (fresh && kind === 'step_started') {
        current.state = 'running';
        current.step = data['step'] as string;
        showProgress(current);
      } else if (fresh && kind === 'step_completed') {
        current.progress.done += 1;
        showProgress(current);
      }
      // What the overview draws beyond the progress line: read it again.
      if (final || (fresh && (kind === 'run_waiting' || kind === 'run_resumed'))) {
        void state.refreshInto(refused).then(async () => {
          if (final && state.overview.run.latest?.run_id === run.run_id && state.overview.run.findings > 0) await showFindings();
        });
      }
    };
    open(0);
  }

  state.drawsWith(draw);

  start.addEventListener('click', async () => {
    say(refused, '');
    if (!state.overview.payment.paid) {
      await openCheckout(state, refused, start);
      return;
    }
    const started = await answered(() => callApi(Run, state.view.api('/runs'), { method: 'POST', body: {} }), refused, start);
    if (started !== null) await state.refreshInto(refused);
  });

  stop.addEventListener('click', async () => {
    const latest = state.overview.run.latest;
    if (latest === null) return;
    say(refused, '');
    const stopped = await answered(() => callApi(Run, state.view.api(`/runs/${encodeURIComponent(latest.run_id)}/stop`), { method: 'POST' }), refused, stop);
    if (stopped !== null) await state.refreshInto(refused);
  });

  marked<HTMLButtonElement>('findings-show').addEventListener('click', () => void showFindings());

  const quote = marked<HTMLDetailsElement>('run-quote');
  quote.addEventListener('toggle', async () => {
    if (!quote.open || quote.dataset['read'] === 'yes') return;
    const body = marked('run-quote-body');
    const read = await callApi(RunQuote, state.view.api('/runs/quote'));
    if (!read.ok) {
      body.replaceChildren(element('p', read.detail, 'refusal'));
      return;
    }
    quote.dataset['read'] = 'yes';
    const steps = element('ol');
    steps.append(...read.value.steps.map((step) => element('li', step)));
    const asks = element('ul');
    asks.append(...read.value.actions.map((line) => element('li', quoteActionWords(line))));
    body.replaceChildren(steps, element('p', 'It may ask you to decide:'), asks);
  });
}
