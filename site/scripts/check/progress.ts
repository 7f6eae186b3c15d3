// The check's progress as it streams: each stage said in the live region and kept in the log, and the
// sentence said when the check does not finish.
import { element } from '../../lib/dom.ts';

const progress = document.querySelector<HTMLElement>('[data-progress]')!;
const status = document.getElementById('check-status')!;
const log = document.getElementById('check-log')!;
const errorBox = document.getElementById('check-error')!;

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** Says `line` in the live region (the log keeps the stages). */
export function sayStatus(line: string): void {
  status.textContent = line;
}

/** One line of progress: said in the live region, and kept in the log (a heartbeat of the same stage updates its line). */
export function report(line: string, stage?: string): void {
  sayStatus(line);
  const last = log.lastElementChild as HTMLElement | null;
  if (stage !== undefined && last?.dataset['stage'] === stage) { last.textContent = line; return; }
  const item = element('li', line);
  if (stage !== undefined) item.dataset['stage'] = stage;
  log.append(item);
}

/** An event of the stream other than its result or error: the documents received, or a heartbeat of a stage. */
export function reportEvent(event: string, data: unknown): void {
  if (event === 'received') {
    const received = data as { documents: { filename: string | null; size_bytes: number }[]; cached: boolean };
    const documents = received.documents.map((document) => `${document.filename ?? 'document'} (${size(document.size_bytes)})`).join(', ');
    report(`Received${documents ? ` ${documents}` : ''}${received.cached ? '; answered from the stored result' : ''}.`);
  } else if (event === 'working' || event === 'inspecting') {
    const beat = data as { stage: string; elapsed_ms: number };
    report(`${event === 'inspecting' ? 'Inspecting' : 'Working'}: ${beat.stage.replace(/_/g, ' ')}, ${seconds(beat.elapsed_ms)} so far.`, beat.stage);
  }
}

export function showError(detail: string): void {
  errorBox.textContent = detail;
  errorBox.hidden = false;
  sayStatus('The check did not finish.');
}

export function hideError(): void {
  errorBox.hidden = true;
}

/** A new check: the log emptied and the progress shown. */
export function startProgress(): void {
  log.replaceChildren();
  progress.hidden = false;
}
