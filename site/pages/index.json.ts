// JSON twin of the home page: the reply of GET /v1/intelligence/summary.
import { getEntry } from 'astro:content';
import { jsonTwin } from '../lib/twin.ts';

export async function GET(): Promise<Response> {
  const entry = await getEntry('home', 'index');
  if (!entry) throw new Error('site JSON has no index.json');
  return jsonTwin(entry.data);
}
