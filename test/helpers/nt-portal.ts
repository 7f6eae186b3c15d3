import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
/**
 * No capture of what "Download tender" answers exists, so the pack is stood in for by a tender document of
 * fixtures/bids/ (cth-rft-veterans-counselling.pdf, written for this project; see its README).
 */
export const PACK_PDF = readFileSync(join(FIXTURES, 'bids', 'cth-rft-veterans-counselling.pdf'));
export const NT_TENDER_URL = (id: string) => `https://tendersonline.nt.gov.au/Tender/Details/${id}`;

/** The portal on loopback: what it was asked, when, and with which User-Agent; robots.txt as the test sets it. */
export interface Portal {
  origin: string;
  requests: { path: string; at: number; userAgent: string }[];
  robots: string | null;
  /** While set, every request is cut off unanswered (the portal down). */
  down: boolean;
  /** While set, a request for a path it answers true for waits on it (returned promise) before being answered. */
  hold: ((path: string) => Promise<void> | null) | null;
  close(): Promise<void>;
}

/**
 * A loopback stand-in for NT Quotations and Tenders Online serving the recorded pages: the real capture of the
 * tender page /Tender/Details/26396 (fixtures/sources/au_nt_qtol/tender-26396.html, provenance in its _meta.json)
 * and a page derived from it (26395); the pack of 26396 is PACK_PDF, and that of 26395 a sign-in page.
 */
export async function startPortal(): Promise<Portal> {
  const pages: Record<string, { type: string; body: Buffer }> = {
    '/Tender/Details/26396': { type: 'text/html; charset=utf-8', body: readFileSync(join(FIXTURES, 'sources', 'au_nt_qtol', 'tender-26396.html')) },
    '/Tender/DownloadProfile/26396': { type: 'application/pdf', body: PACK_PDF },
    '/Tender/Details/26395': { type: 'text/html; charset=utf-8', body: readFileSync(join(FIXTURES, 'sources', 'au_nt_qtol', 'tender-26395.html')) },
    '/Tender/DownloadProfile/26395': { type: 'text/html; charset=utf-8', body: Buffer.from('<!doctype html><html><body><h1>Sign in</h1><form method="post"><input name="email"></form></body></html>') },
  };
  const portal: Portal = { origin: '', requests: [], robots: null, down: false, hold: null, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://portal').pathname;
    portal.requests.push({ path, at: Date.now(), userAgent: req.headers['user-agent'] ?? '' });
    if (portal.down) return void req.socket.destroy();
    const answer = () => {
      if (path === '/robots.txt') {
        if (portal.robots === null) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'text/plain' }).end(portal.robots);
        return;
      }
      const page = pages[path];
      if (!page) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      res.writeHead(200, { 'content-type': page.type }).end(page.body);
    };
    const held = portal.hold?.(path) ?? null;
    if (held === null) answer();
    else void held.then(() => (res.destroyed ? undefined : answer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  portal.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  portal.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return portal;
}
