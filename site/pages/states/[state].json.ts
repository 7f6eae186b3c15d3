// JSON twin of /states/<state>/: the reply of GET /v1/intelligence/{jurisdiction}.
import { getCollection, type CollectionEntry } from 'astro:content';
import { jsonTwin } from '../../lib/twin.ts';

export async function getStaticPaths() {
  return (await getCollection('states')).map((entry) => ({ params: { state: entry.id }, props: { entry } }));
}

export function GET({ props }: { props: { entry: CollectionEntry<'states'> } }): Response {
  return jsonTwin(props.entry.data);
}
