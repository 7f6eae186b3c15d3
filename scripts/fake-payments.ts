/**
 * A local test checkout, so a person can buy bid preparation from a fresh clone without a Stripe account: runs
 * the fake of Stripe the checkout tests use (test/helpers/fake-stripe.ts) on 127.0.0.1, whose hosted page has a
 * "Pay" button that completes the session and delivers the signed `checkout.session.completed` to the API's
 * webhook. No money moves. Prints the settings to start the API with.
 *
 *   npm run fake-payments                      # fake on 127.0.0.1:12111, webhook http://127.0.0.1:8787/v1/payments/stripe/webhook
 *   npm run fake-payments -- --port 12112 --api http://127.0.0.1:9000
 */
import { parseArgs } from 'node:util';
import { PAYMENT_WEBHOOK_PATH } from '../api/routes/bid-checkout.ts';
import { startFakeStripe } from '../test/helpers/fake-stripe.ts';

// Placeholders only the fake accepts; a real Stripe account has its own, kept out of the repository.
const SECRET_KEY = 'sk_test_local_fake_payments';
const WEBHOOK_SECRET = 'whsec_local_fake_payments';

const { values } = parseArgs({ options: { port: { type: 'string', default: '12111' }, api: { type: 'string', default: process.env.SVC_PUBLIC_URL || 'http://127.0.0.1:8787' } }, strict: true });
const webhookUrl = `${values.api.replace(/\/+$/, '')}${PAYMENT_WEBHOOK_PATH}`;
const fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, webhookUrl, port: Number(values.port) });

console.log(`Test checkout (no real money) on ${fake.origin}; events go to ${webhookUrl}`);
console.log('Start the API in another terminal with:');
// The API must listen where the webhook goes: a port other than the default is named for `npm start`.
const apiPort = new URL(webhookUrl).port;
const portSetting = apiPort !== '' && apiPort !== '8787' ? `PORT=${apiPort} ` : '';
console.log(`  ${portSetting}SVC_BID_PRICE=149 SVC_STRIPE_SECRET_KEY=${SECRET_KEY} SVC_STRIPE_WEBHOOK_SECRET=${WEBHOOK_SECRET} SVC_STRIPE_API_BASE=${fake.origin} npm start`);
console.log('then buy a bid on its page ("Buy bid preparation") or with POST /v1/bids/{bid}/checkout, and open the url it gives.');

let reported = 0;
setInterval(() => {
  for (const { event, deliveredStatus } of fake.events.slice(reported)) {
    console.log(`${new Date().toISOString()} ${event.type} ${(event.data.object as { id: string }).id} → webhook ${deliveredStatus === 0 ? 'unreachable' : `HTTP ${deliveredStatus}`}`);
  }
  reported = fake.events.length;
}, 500);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
