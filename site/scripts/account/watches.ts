// The account's saved searches and watches, each in words with a link to what it watches, and removable.
import { answered, removesItem } from '../../lib/api-controls.ts';
import { BuyerNamed, callApi, TenderNamed, WatchDeleted, WatchList, type Watch } from '../../lib/account-api.ts';
import { actionButton, marked, say } from '../../lib/dom.ts';
import { day, plural } from '../../lib/format.ts';
import { watchWords } from '../../lib/watch-words.ts';
import { listItem } from './list-item.ts';

const status = marked('watches-status');

async function tenderOf(watch: Watch): Promise<{ name: string; path: string } | undefined> {
  const key = watch.criteria['page_key'];
  if (typeof key !== 'string') return undefined;
  const reply = await callApi(TenderNamed, `/v1/tenders/${encodeURIComponent(key)}`);
  return reply.ok ? { name: reply.value.title, path: `/tenders/${reply.value.page_key}/` } : undefined;
}

async function buyerOf(watch: Watch): Promise<{ name: string; path: string } | undefined> {
  const key = watch.criteria['buyer_key'];
  if (typeof key !== 'string') return undefined;
  const reply = await callApi(BuyerNamed, `/v1/awards/buyers/${encodeURIComponent(key)}`);
  return reply.ok ? { name: reply.value.buyer.name, path: `/buyers/${reply.value.buyer.slug}/` } : undefined;
}

async function watchItem(watch: Watch): Promise<HTMLLIElement> {
  const named = watch.kind === 'buyer' ? await buyerOf(watch) : watch.kind === 'tender' ? await tenderOf(watch) : undefined;
  const words = watchWords(watch.kind, watch.criteria, named);
  const remove = actionButton('Remove', `“${words.text}”`);
  const item = listItem(words, `Saved ${day(watch.created_at)}`, remove);
  removesItem(remove, item, status, () => callApi(WatchDeleted, `/v1/tenders/watch/${encodeURIComponent(watch.watch_id)}`, { method: 'DELETE' }), `Removed: ${words.text}. No more emails for it.`);
  return item;
}

export async function showWatches(): Promise<void> {
  const reply = await answered(() => callApi(WatchList, '/v1/tenders/watch'), status);
  if (reply === null) return;
  const { watches } = reply;
  say(status, watches.length === 0 ? 'You have no saved searches or watches yet.' : `You have ${plural(watches.length, 'saved search or watch', 'saved searches and watches')}.`);
  marked('watches').replaceChildren(...(await Promise.all(watches.map(watchItem))));
}
