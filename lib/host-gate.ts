import PQueue from 'p-queue';

/**
 * One gate per host shared by every source in a run, so two sources on the same host (AusTender's
 * ATM pages and its OCDS API, say) never add up to more than that host's allowance.
 */
export class HostGate {
  private readonly queues = new Map<string, PQueue>();
  private readonly scale: number;

  /** `scale` multiplies every delay: 1 live, 0 on loopback fixtures where waiting protects nobody. */
  constructor(options: { scale: number }) {
    this.scale = options.scale;
  }

  /** Resolves when a request to `url`'s host may start, at least `delayMs` after the previous one. */
  async wait(url: string, delayMs: number): Promise<void> {
    const host = new URL(url).host;
    const gap = Math.round(delayMs * this.scale);
    if (gap <= 0) return;
    let queue = this.queues.get(host);
    if (!queue) {
      queue = new PQueue({ concurrency: 1 });
      this.queues.set(host, queue);
    }
    await queue.add(() => new Promise<void>((resolve) => setTimeout(resolve, gap)));
  }

  /** Exponential backoff before retry `attempt` (1-based), honouring a server's Retry-After. */
  backoffMs(attempt: number, retryAfterMs: number | null): number {
    const exponential = 1000 * 2 ** (attempt - 1);
    return Math.round(Math.min(Math.max(exponential, retryAfterMs ?? 0), 60_000) * this.scale);
  }
}
