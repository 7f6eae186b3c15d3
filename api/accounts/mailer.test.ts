import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { createMailer } from './mailer.ts';

test('without SMTP_URL each message is written to the outbox as an .eml file', async () => {
  const outboxDir = join(await mkdtemp(join(tmpdir(), 'outbox-')), 'outbox');
  const mailer = createMailer({ outboxDir });
  await mailer.send({ to: 'person@example.com', subject: 'Your sign-in link', text: 'Open https://example.test/x' });
  const [file] = await readdir(outboxDir);
  const eml = await readFile(join(outboxDir, file!), 'utf8');
  assert.match(eml, /^To: person@example\.com$/m);
  assert.match(eml, /^Subject: Your sign-in link$/m);
  assert.match(eml, /https:\/\/example\.test\/x/);
});

test('with SMTP_URL messages go to the SMTP server, which really receives them', async () => {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        received.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  try {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: '/nonexistent' });
    assert.equal(mailer.description, `smtp://127.0.0.1:${port}`);
    await mailer.send({ to: 'person@example.com', subject: 'Hello', text: 'body text' });
    assert.equal(received.length, 1);
    assert.match(received[0]!, /Subject: Hello/);
    assert.match(received[0]!, /body text/);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
