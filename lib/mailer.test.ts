import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSmtpInbox } from '../test/helpers/smtp-inbox.ts';
import { createMailer } from './mailer.ts';
import { tempDir } from '../test/helpers/temp-dir.ts';

test('without SMTP_URL each message is written to the outbox as an .eml file', async () => {
  const outboxDir = join(await tempDir('outbox-'), 'outbox');
  const mailer = createMailer({ outboxDir });
  await mailer.send({ to: 'person@example.com', subject: 'Your sign-in link', text: 'Open https://example.test/x' });
  const [file] = await readdir(outboxDir);
  const eml = await readFile(join(outboxDir, file!), 'utf8');
  assert.match(eml, /^To: person@example\.com$/m);
  assert.match(eml, /^Subject: Your sign-in link$/m);
  assert.match(eml, /https:\/\/example\.test\/x/);
});

test('with SMTP_URL messages go to the SMTP server, which really receives them', async () => {
  const inbox = await startSmtpInbox();
  try {
    const mailer = createMailer({ smtpUrl: inbox.smtpUrl, outboxDir: '/nonexistent' });
    assert.equal(mailer.description, inbox.smtpUrl);
    await mailer.send({ to: 'person@example.com', subject: 'Hello', text: 'body text' });
    assert.equal(inbox.messages.length, 1);
    assert.match(inbox.messages[0]!, /Subject: Hello/);
    assert.match(inbox.messages[0]!, /body text/);
  } finally {
    await inbox.close();
  }
});
