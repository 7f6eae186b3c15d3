// The account's API keys: listed and revoked, and a new one created and shown this once, with a button that
// copies it.
import { answered, removesItem } from '../../lib/api-controls.ts';
import { callApi, CreatedKey, KeyList, KeyRevoked, type ApiKey } from '../../lib/account-api.ts';
import { actionButton, marked, say, submitButton } from '../../lib/dom.ts';
import { day, instant, plural } from '../../lib/format.ts';
import { listItem } from './list-item.ts';

const status = marked('keys-status');
const newKeyValue = marked<HTMLInputElement>('new-key-value');
const copyStatus = marked('copy-status');

function keyItem(key: ApiKey): HTMLLIElement {
  const used = key.last_used_at === null ? 'never used' : `last used ${instant(key.last_used_at)}`;
  const scope = key.scope === 'mcp' ? ' · chat connector' : '';
  const revoke = actionButton('Revoke', `the key “${key.name}”`);
  const item = listItem({ text: `${key.name} (${key.prefix}…)` }, `Created ${day(key.created_at)} · ${used}${scope}${key.disabled ? ' · disabled by us' : ''}`, revoke);
  removesItem(revoke, item, status, () => callApi(KeyRevoked, `/v1/keys/${encodeURIComponent(key.key_id)}`, { method: 'DELETE' }), `Revoked “${key.name}”: it stops working at once.`);
  return item;
}

export async function showKeys(): Promise<void> {
  const reply = await answered(() => callApi(KeyList, '/v1/keys'), status);
  if (reply === null) return;
  say(status, reply.keys.length === 0 ? 'You have no API keys.' : `You have ${plural(reply.keys.length, 'API key')}.`);
  marked('keys').replaceChildren(...reply.keys.map(keyItem));
}

/** The create form: the new key is shown once, selected, above the list read again. */
export function offerNewKeys(): void {
  const form = marked<HTMLFormElement>('create-key');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = form.querySelector<HTMLInputElement>('input[name="name"]')!.value.trim();
    const created = await answered(() => callApi(CreatedKey, '/v1/keys', { method: 'POST', body: name ? { name } : {} }), status, submitButton(form));
    if (created === null) return;
    if (created.api_key === undefined) {
      say(status, 'The key was made but not shown; revoke it and create another.');
      return;
    }
    newKeyValue.value = created.api_key;
    copyStatus.textContent = '';
    marked('new-key').hidden = false;
    form.reset();
    await showKeys();
    newKeyValue.focus();
    newKeyValue.select();
  });
  marked('copy-key').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(newKeyValue.value);
      copyStatus.textContent = 'Copied. Keep it somewhere safe, such as a password manager.';
    } catch {
      newKeyValue.select();
      copyStatus.textContent = 'This browser would not copy it: the key is selected, so copy it yourself.';
    }
  });
}
