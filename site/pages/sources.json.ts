// JSON twin of /sources/: the reply of GET /v1/tenders/sources for an anonymous caller.
import { getEntry } from 'astro:content';

export async function GET(): Promise<Response> {
  const entry = await getEntry('sources', 'sources');
  if (!entry) throw new Error('site JSON has no sources.json');
  return new Response(JSON.stringify(entry.data), { headers: { 'content-type': 'application/json' } });
}
