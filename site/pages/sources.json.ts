// JSON twin of /sources/: the reply of GET /v1/tenders/sources for an anonymous caller.
import { getEntry } from 'astro:content';
import { jsonTwin } from '../lib/twin.ts';

export async function GET(): Promise<Response> {
  const entry = await getEntry('sources', 'sources');
  if (!entry) throw new Error('site JSON has no sources.json');
  return jsonTwin(entry.data);
}
