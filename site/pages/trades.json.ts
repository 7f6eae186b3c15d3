// JSON twin of /trades/: the reply of GET /v1/intelligence/trades.
import { getEntry } from 'astro:content';
import { jsonTwin } from '../lib/twin.ts';

export async function GET(): Promise<Response> {
  const entry = await getEntry('trades', 'trades');
  if (!entry) throw new Error('site JSON has no trades.json');
  return jsonTwin(entry.data);
}
