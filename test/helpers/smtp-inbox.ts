import { SMTPServer } from 'smtp-server';

export interface SmtpInbox {
  smtpUrl: string;
  /** Raw messages received, oldest first. */
  messages: string[];
  /** While set, each message is refused with this reply (e.g. `451 4.3.0 …`, a server refusing for now) and not kept. */
  refusal: string | null;
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps every message it receives. */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: string[] = [];
  const inbox = { refusal: null as string | null };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        const refusal = /^(\d{3}) (.*)$/s.exec(inbox.refusal ?? '');
        if (refusal) {
          callback(Object.assign(new Error(refusal[2]), { responseCode: Number(refusal[1]) }));
          return;
        }
        messages.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    messages,
    get refusal() {
      return inbox.refusal;
    },
    set refusal(reply: string | null) {
      inbox.refusal = reply;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text of a raw message with quoted-printable soft line breaks and escapes undone. */
export function decodedMessage(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
