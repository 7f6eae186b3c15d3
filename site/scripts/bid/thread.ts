// The bid's thread: its messages and the form that posts one.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { ThreadMessage } from '../../lib/bids-api.ts';
import { element, marked, say } from '../../lib/dom.ts';
import { instant } from '../../lib/format.ts';
import type { BidState } from './bid-state.ts';

export function threadSection(state: BidState): void {
  function showThread(): void {
    const messages = state.overview.thread;
    marked('thread').replaceChildren(...(messages.length === 0 ? [element('li', 'No messages yet.')] : messages.map((message) => {
      const item = element('li');
      const what = element('span');
      what.append(element('span', `${message.author.email}, ${instant(message.created_at)}`, 'meta'), element('br'), message.text);
      item.append(what);
      return item;
    })));
  }

  state.drawsWith(showThread);
  const form = marked<HTMLFormElement>('post');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const refused = marked('post-refused', form);
    say(refused, '');
    const text = form.querySelector<HTMLTextAreaElement>('textarea')!;
    const posted = await answered(() => callApi(ThreadMessage, state.view.api('/thread'), { method: 'POST', body: { text: text.value } }), refused);
    if (posted === null) return;
    form.reset();
    state.overview.thread.push(posted);
    showThread();
  });
}
