/** A page's JSON twin: the reply the API gives an anonymous caller for the same thing, as collected. */
export function jsonTwin(data: unknown): Response {
  return new Response(JSON.stringify(data), { headers: { 'content-type': 'application/json' } });
}
