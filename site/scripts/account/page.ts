// The account page's script: once the reader is signed in, who it is (with signing out), the saved searches
// and watches, and the API keys.
import { answered } from '../../lib/api-controls.ts';
import { callApi, SignedOut } from '../../lib/account-api.ts';
import { marked } from '../../lib/dom.ts';
import { signedInArea } from '../../lib/signed-in-area.ts';
import { offerNewKeys, showKeys } from './keys.ts';
import { showWatches } from './watches.ts';

offerNewKeys();
marked('sign-out').addEventListener('click', async () => {
  const out = await answered(() => callApi(SignedOut, '/v1/auth/logout', { method: 'POST' }), marked('sign-out-refused'));
  if (out !== null) location.reload();
});

void (async () => {
  const account = await signedInArea();
  if (account === null) return;
  marked('email').textContent = account.email;
  await Promise.all([showWatches(), showKeys()]);
})();
