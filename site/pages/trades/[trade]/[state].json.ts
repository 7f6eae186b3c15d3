// JSON twin of /trades/<trade>/<state>/: the reply of GET /v1/intelligence/trades/{trade}/{state}.
import { getCollection, type CollectionEntry } from 'astro:content';
import { jsonTwin } from '../../../lib/twin.ts';

export async function getStaticPaths() {
  return (await getCollection('tradeStates')).map((entry) => {
    const [trade, state] = entry.id.split('/');
    return { params: { trade, state }, props: { entry } };
  });
}

export function GET({ props }: { props: { entry: CollectionEntry<'tradeStates'> } }): Response {
  return jsonTwin(props.entry.data);
}
