// A source's status on the last run in words a reader understands, and whether that run read it.
const WORDS: Record<string, string> = {
  ok: 'ok', empty: 'empty', error: 'failed', stale: 'stale (last good rows kept)', login_walled: 'login required (not crawled)',
  robots_refused: 'refused by robots.txt', not_run: 'not run yet',
};

export function statusWords(status: string): string {
  return WORDS[status] ?? status;
}

/** The source answered on the last run: with records (`ok`) or with none (`empty`). Any other status was not read. */
export function wasRead(status: string): boolean {
  return status === 'ok' || status === 'empty';
}

const WHY_NOT_READ: Record<string, string> = {
  error: 'failed tonight', stale: 'failed tonight; earlier records kept', login_walled: 'needs a login', robots_refused: 'refused by robots.txt',
  not_run: 'not run yet',
};

/** Why a source that was not read on the last run was not, in a few words. */
export function whyNotRead(status: string): string {
  return WHY_NOT_READ[status] ?? statusWords(status);
}
