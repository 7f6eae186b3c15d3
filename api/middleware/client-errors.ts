import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { clientIpOf } from './caller.ts';
import { rateFiguresOf, type RateFigures, type RateHeadersOptions } from './rate-headers.ts';

export interface ClientErrorsOptions {
  meter: RateHeadersOptions['meter'] & { caps: { anonymous: number } };
  /** Whether client addresses come from X-Forwarded-For (`SVC_TRUST_PROXY`): then a socket's peer is the proxy, not the caller. */
  trustProxy: boolean;
  /** Where a failure to read the rate figures is reported (the reply then goes without them). */
  log?: (message: string) => void;
}

/** The replies Node's HTTP parser would make on its own, by the parser's error code. */
const PARSER_STATUSES: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

const DETAILS: Record<number, string> = {
  400: 'The request could not be read as HTTP: its request line or a header is malformed. Send a well-formed HTTP/1.1 request.',
  408: 'The request did not arrive in time. Send it again, all at once.',
  413: 'The chunk extensions of the request body are too large. Send the body without chunk extensions.',
  431: `The request's headers are larger than the ${Math.round(maxHeaderSize / 1024)} KB the server reads. Send fewer or smaller headers (long cookies are the usual cause).`,
};

const MISSING_HOST = 'An HTTP/1.1 request must carry a Host header. Send the host name you called in a Host header.';

/**
 * Replies to requests Node refuses before the app sees them, as `{detail}` JSON with the rate headers, like
 * every other reply (spec: every response carries them), where Node's own replies have an empty body:
 *
 * - `onClientError` is the server's `clientError` listener: a malformed request line or header (400), headers
 *   over Node's limit (431), chunk extensions over it (413) or a request that timed out (408). The figures are
 *   those of the peer's anonymous allowance, all that is known of a caller whose headers were not read (and
 *   with a trusted proxy in front, the peer is the proxy: the remainder is then left out). A client that has
 *   gone, or a connection that already carried a reply, is closed without one, as Node does.
 * - `answerMissingHost` answers an HTTP/1.1 request without a Host header (400), which Node otherwise
 *   refuses with an empty reply; create the server with `requireHostHeader: false` so the request reaches it.
 *
 * @example
 * const replies = clientErrors({ meter, trustProxy: false });
 * const server = createServer({ requireHostHeader: false });
 * server.on('clientError', replies.onClientError);
 * server.on('request', (incoming, outgoing) => {
 *   if (replies.answerMissingHost(incoming, outgoing)) return;
 *   // … the app
 * });
 * // a 20 KB header → 431 {"detail":"The request's headers are larger than the 16 KB …"} with RateLimit-* headers
 */
export function clientErrors(options: ClientErrorsOptions): {
  onClientError: (error: Error & { code?: string }, socket: Duplex) => Promise<void>;
  answerMissingHost: (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<boolean>;
} {
  const { meter, trustProxy } = options;
  const log = options.log ?? ((message: string) => console.error(message));

  /** The anonymous figures of `ip`; without an address, the limit and reset alone. */
  async function figuresFor(ip: string | undefined): Promise<RateFigures | undefined> {
    try {
      if (ip !== undefined) return await rateFiguresOf(meter, { kind: 'anonymous', ip });
      const secondsToReset = Math.max(0, Math.ceil((meter.week().resetAt.getTime() - meter.now().getTime()) / 1000));
      return { limit: String(meter.caps.anonymous), remaining: undefined, reset: String(secondsToReset) };
    } catch (error) {
      // These replies are made outside the app, where a throw would take the whole server down.
      log(`rate headers left off a reply Node refused: ${String(error)}`);
      return undefined;
    }
  }

  function replyHeaders(figures: RateFigures | undefined, body: string): Record<string, string> {
    return {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
      ...(figures ? { 'RateLimit-Limit': figures.limit } : {}),
      ...(figures?.remaining === undefined ? {} : { 'RateLimit-Remaining': figures.remaining }),
      ...(figures ? { 'RateLimit-Reset': figures.reset } : {}),
    };
  }

  return {
    async onClientError(error, duplex) {
      // Node hands every HTTP/1 server's connections over as sockets; its types name the base class.
      const socket = duplex as Socket;
      if (error.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
        socket.destroy();
        return;
      }
      const status = PARSER_STATUSES[error.code ?? ''] ?? 400;
      const body = JSON.stringify({ detail: DETAILS[status] });
      const headers = replyHeaders(await figuresFor(trustProxy ? undefined : socket.remoteAddress), body);
      const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
    },
    async answerMissingHost(incoming, outgoing) {
      if (incoming.httpVersion !== '1.1' || incoming.headers.host !== undefined) return false;
      const body = JSON.stringify({ detail: MISSING_HOST });
      outgoing.writeHead(400, replyHeaders(await figuresFor(clientIpOf(incoming, trustProxy)), body));
      outgoing.end(body);
      return true;
    },
  };
}
