// JSON twin of /buyers/<slug>/: the reply of GET /v1/awards/buyers/{buyer_key}.
import { getCollection, type CollectionEntry } from 'astro:content';
import { jsonTwin } from '../../lib/twin.ts';

export async function getStaticPaths() {
  return (await getCollection('buyers')).map((entry) => ({ params: { slug: entry.id }, props: { entry } }));
}

export function GET({ props }: { props: { entry: CollectionEntry<'buyers'> } }): Response {
  return jsonTwin(props.entry.data);
}
