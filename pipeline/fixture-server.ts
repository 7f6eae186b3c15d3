import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { FIXTURES_ROOT, fixtureDir, readFixtureMeta, type FixtureMeta } from './fixture-meta.ts';

/** A failure the server can inject for one source, so failure paths run over real HTTP. */
export type Fault = 'http500' | 'hang';

export interface FixtureServerOptions {
  root?: string;
  faults?: Record<string, Fault>;
  /** A fixture night (`night-2`): sources with a recording for that night serve it. */
  night?: string;
}

export interface ServedRequest {
  source: string;
  method: string;
  path: string;
  status: number;
  /** The If-None-Match / If-Modified-Since the request carried, when it was conditional. */
  conditional?: { ifNoneMatch: string | null; ifModifiedSince: string | null };
}

/**
 * Serves `fixtures/sources/<id>/` on 127.0.0.1 at a random port, each source under `/<id>/`.
 * A request matches a recorded file by the path and query of the file's original URL.
 */
export class FixtureServer {
  readonly requests: ServedRequest[] = [];
  private server: Server | null = null;
  private readonly root: string;
  private readonly faults: Record<string, Fault>;
  private readonly night: string | undefined;
  private readonly metas = new Map<string, Promise<FixtureMeta>>();
  private readonly hanging = new Set<ServerResponse>();

  constructor(options: FixtureServerOptions = {}) {
    this.root = options.root ?? FIXTURES_ROOT;
    this.faults = options.faults ?? {};
    this.night = options.night;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this.origin;
  }

  get origin(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('fixture server is not started');
    return `http://127.0.0.1:${address.port}`;
  }

  /** The base a source's `ctx.url()` resolves against in fixture mode. */
  baseFor(sourceId: string): string {
    return `${this.origin}/${sourceId}`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const [, source = '', ...rest] = url.pathname.split('/');
    const pathAndQuery = `/${rest.join('/')}${url.search}`;
    const method = req.method ?? 'GET';
    const ifNoneMatch = header(req, 'if-none-match');
    const ifModifiedSince = header(req, 'if-modified-since');
    const conditional = ifNoneMatch !== null || ifModifiedSince !== null ? { conditional: { ifNoneMatch, ifModifiedSince } } : {};
    const log = (status: number) => this.requests.push({ source, method, path: pathAndQuery, status, ...conditional });
    const fault = this.faults[source] ?? (await this.meta(source).then((m) => m.fault, () => undefined));
    if (fault === 'hang') {
      log(0);
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    if (fault === 'http500') {
      log(500);
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error (injected fault)');
      return;
    }
    try {
      const meta = await this.meta(source);
      const body = method === 'GET' ? '' : await readBody(req);
      const entry = meta.files.find(
        (f) => f.method === method && matches(pathOf(f.url), pathAndQuery) && (f.body_contains === undefined || body.includes(f.body_contains)),
      );
      if (!entry) {
        log(404);
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`no fixture for ${method} ${pathAndQuery}`);
        return;
      }
      const validators = { ...(entry.etag ? { etag: entry.etag } : {}), ...(entry.last_modified ? { 'last-modified': entry.last_modified } : {}) };
      if (method === 'GET' && entry.status === 200 && notModified(entry, ifNoneMatch, ifModifiedSince)) {
        log(304);
        res.writeHead(304, validators).end();
        return;
      }
      const content = entry.file ? await readFile(join(fixtureDir(source, this.root, this.night), entry.file)) : Buffer.alloc(0);
      log(entry.status);
      res.writeHead(entry.status, { 'content-type': entry.content_type, 'content-length': content.length, ...validators }).end(content);
    } catch (error) {
      log(404);
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no fixtures for source ${source}: ${(error as Error).message}`);
    }
  }

  private meta(source: string): Promise<FixtureMeta> {
    let meta = this.metas.get(source);
    if (!meta) {
      meta = readFixtureMeta(source, this.root, this.night);
      this.metas.set(source, meta);
    }
    return meta;
  }
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}

/** RFC 9110 §13.2.2: If-None-Match decides when present; otherwise If-Modified-Since against Last-Modified. */
function notModified(entry: FixtureMeta['files'][number], ifNoneMatch: string | null, ifModifiedSince: string | null): boolean {
  if (ifNoneMatch !== null) {
    if (!entry.etag) return false;
    const weakless = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => weakless(tag) === weakless(entry.etag!));
  }
  if (ifModifiedSince !== null && entry.last_modified) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Date.parse(entry.last_modified) <= since;
  }
  return false;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function pathOf(originalUrl: string): string {
  const match = /^[a-z]+:\/\/[^/]+(\/.*)?$/i.exec(originalUrl);
  return match ? (match[1] ?? '/') : originalUrl;
}

function matches(pattern: string, actual: string): boolean {
  if (!pattern.includes('*')) return pattern === actual;
  const regex = new RegExp(`^${pattern.split('*').map(escapeRegex).join('.*')}$`);
  return regex.test(actual);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
