/** The crawler's manners on the wire, shared by Crawlee's fetches and the streamed downloads. */

export const USER_AGENT = `TenderIntelBot/0.6 (+${process.env.SVC_CONTACT_URL ?? 'https://github.com/tender-intel/tender-intel#contact'})`;

/** A Retry-After header (seconds, or an HTTP date) in milliseconds; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** One plain line for a registry diagnosis: "HTTP 500", "no answer within 30 s", or the error's first line. */
export function describeFailure(error: Error, timeoutSecs: number): string {
  const message = (error.message.split('\n')[0] ?? error.message).trim();
  const crawleeStatus = /^(\d{3}) - /.exec(message);
  if (crawleeStatus) return `HTTP ${crawleeStatus[1]}`;
  const ownStatus = /^HTTP (\d{3})/.exec(message);
  if (ownStatus) return `HTTP ${ownStatus[1]}`;
  if (/timed? ?out|timeout/i.test(message)) return `no answer within ${timeoutSecs} s`;
  return message.slice(0, 200);
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
