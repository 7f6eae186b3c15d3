// Links to buyer pages: only listed buyers have one, so a buyer key resolves to a path or to nothing.
import { pageEntries } from './site-data.ts';

let pathsByKey: Promise<Map<string, string>> | null = null;

export async function buyerHref(buyerKey: string | undefined): Promise<string | undefined> {
  if (!buyerKey) return undefined;
  pathsByKey ??= pageEntries('buyers').then((entries) => new Map(entries.map((e) => [e.data.buyer.buyer_key, `/buyers/${e.id}/`])));
  return (await pathsByKey).get(buyerKey);
}
