// JSON twin of /grants/: the reply of GET /v1/grants/summary.
import { getEntry } from 'astro:content';
import { jsonTwin } from '../lib/twin.ts';

export async function GET(): Promise<Response> {
  const entry = await getEntry('grants', 'grants');
  if (!entry) throw new Error('site JSON has no grants.json');
  return jsonTwin(entry.data);
}
