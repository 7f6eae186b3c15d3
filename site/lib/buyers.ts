// Links to buyer pages: every buyer the release holds has one; a key the release does not hold resolves to nothing.
import { pageEntries } from './site-data.ts';

let pathsByKey: Promise<Map<string, string>> | null = null;

export async function buyerHref(buyerKey: string | undefined): Promise<string | undefined> {
  if (!buyerKey) return undefined;
  pathsByKey ??= pageEntries('buyers').then((entries) => new Map(entries.map((e) => [e.data.buyer.buyer_key, `/buyers/${e.id}/`])));
  return (await pathsByKey).get(buyerKey);
}

/** Buyers on one page of a jurisdiction's list of buyers. */
export const BUYERS_PER_PAGE = 300;
