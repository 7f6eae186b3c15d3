import { z } from 'zod';
import { notConfigured, providerJson, type ProviderResult, type ProviderTransport } from './http.ts';

/**
 * Wayback Machine availability API client (https://archive.org/help/wayback_api.php):
 * `GET /wayback/available?url=<url>[&timestamp=YYYYMMDDhhmmss]` answers
 * `{"archived_snapshots": {"closest": {"available": true, "url": "http://web.archive.org/web/<ts>/<url>",
 * "timestamp": "<ts>", "status": "200"}}}` when a capture exists, and `{"archived_snapshots": {}}` when none
 * does. `status` is a string; only one `closest` snapshot is returned. Keyless; the operator turns it on by
 * setting `SVC_WAYBACK_URL` (the public service is `https://archive.org`).
 */

export interface WaybackSnapshot {
  /** The archived copy's address. */
  url: string;
  /** The capture's 14-digit timestamp, `YYYYMMDDhhmmss` (UTC). */
  timestamp: string;
  /** The same as an ISO instant. */
  capturedAt: string;
}

export interface Wayback {
  /** The capture closest to `timestamp` (or the newest) that answered HTTP 200, or null when there is none. */
  closest(url: string, timestamp?: string): Promise<ProviderResult<WaybackSnapshot | null>>;
}

const availability = z.object({
  archived_snapshots: z.object({
    closest: z.object({ available: z.boolean(), url: z.string(), timestamp: z.string().regex(/^\d{14}$/), status: z.string() }).optional(),
  }),
});

export function createWayback(options: { baseUrl: string; transport: ProviderTransport }): Wayback {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    async closest(url, timestamp) {
      const request = new URL(`${base}/wayback/available`);
      request.searchParams.set('url', url);
      if (timestamp !== undefined) request.searchParams.set('timestamp', timestamp);
      const reply = await providerJson(options.transport, request, availability);
      if (!reply.ok) return reply;
      const closest = reply.value?.archived_snapshots.closest;
      // A capture of an error page (status 404, 5xx) is not an archived copy of the cited content.
      if (closest === undefined || !closest.available || closest.status !== '200') return { ok: true, value: null };
      const t = closest.timestamp;
      return { ok: true, value: { url: closest.url, timestamp: t, capturedAt: `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(8, 10)}:${t.slice(10, 12)}:${t.slice(12, 14)}Z` } };
    },
  };
}

/** The client for a server without `SVC_WAYBACK_URL`: every call answers that the archive is not configured. */
export function unconfiguredWayback(): Wayback {
  return { closest: async () => notConfigured('The Wayback Machine', 'SVC_WAYBACK_URL') };
}
