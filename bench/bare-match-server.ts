import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { parseArgs } from 'node:util';
import type { Jurisdiction } from '../lib/jurisdictions.ts';
import { exampleProfile, MATCH_EXAMPLES, type MatchExample } from '../data/intelligence/match-examples.ts';
import { rankTenders } from '../data/intelligence/match.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { matchReply } from '../api/routes/tender-match.ts';

// The baseline of bench row (c): the work of POST /v1/tenders/match for an example company (the same search,
// ranking and reply as the route) on a bare Hono app, without the access stack: no caller resolution, rate
// headers, burst guard, body checks, release check or meter.
const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
const store = await ReleaseStore.open({ dataDir: values['data-dir']!, log: () => undefined });
const app = new Hono();
app.post('/v1/tenders/match', async (c) => {
  const body = (await c.req.json()) as { example: MatchExample; jurisdiction?: Jurisdiction };
  if (!MATCH_EXAMPLES.includes(body.example)) return c.json({ detail: 'unknown example' }, 422);
  const state = store.state();
  if (!state.ready) return c.json({ detail: state.detail }, 503);
  const release = state.release;
  const profile = exampleProfile(body.example);
  const candidates = release.tenders.search({ kind: 'tender', ...(body.jurisdiction ? { jurisdiction: body.jurisdiction } : {}) }, { limit: release.tenders.size, offset: 0 }, store.now()).hits;
  const ranking = rankTenders(profile, candidates.map((hit) => hit.tender));
  const company = { example: body.example, pages_read: [], trades: profile.trades.map(({ trade, name }) => ({ trade, name })), capabilities: profile.capabilities.map((capability) => capability.phrase) };
  return c.json(matchReply(ranking, company, true, release.computedAt, release.tenders.sources), 200);
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
