// Sends the check and follows its reply: a refusal's `detail`, a plain result, or the streamed events up to
// the result (or the stream's error).
import { forReaders } from '../../lib/account-api.ts';
import { resultView } from '../../lib/check-results.ts';
import { requestFor, type Checker, type Submission } from '../../lib/checkers.ts';
import { readEvents } from '../../lib/event-stream.ts';
import { report, reportEvent, showError } from './progress.ts';
import { showResult } from './result.ts';

export async function check(checker: Checker, given: Submission): Promise<void> {
  const started = performance.now();
  const { url, init } = requestFor(checker, given);
  report(`Sending: ${checker.label}…`);
  const reply = await fetch(url, init);
  const type = reply.headers.get('content-type') ?? '';
  if (!reply.ok) {
    const body = type.includes('json') ? (await reply.json()) as { detail?: string } : {};
    showError(body.detail ? forReaders(body.detail) : `The service answered ${reply.status} ${reply.statusText}.`);
    return;
  }
  if (!type.includes('text/event-stream')) {
    showResult(resultView(checker.id, await reply.json()), performance.now() - started);
    return;
  }
  for await (const { event, data } of readEvents(reply.body!)) {
    const parsed: unknown = JSON.parse(data);
    if (event === 'result') { showResult(resultView(checker.id, parsed), performance.now() - started); return; }
    if (event === 'error') { showError(forReaders((parsed as { detail: string }).detail)); return; }
    reportEvent(event, parsed);
  }
  showError('The connection closed before the result arrived. Try again.');
}
