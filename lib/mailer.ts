import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { writePrivateFile } from './private-files.ts';
import { newId } from './tokens.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Extra header fields, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) on digest mail. */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Sends one message; rejects when the mail server refuses it. */
  send(message: MailMessage): Promise<void>;
  /** Where mail goes, for logs: `smtp://host:port` or the outbox folder. */
  readonly description: string;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:port` (or `smtps://`); without it, messages are written to `outboxDir`. */
  smtpUrl?: string;
  outboxDir: string;
  from?: string;
}

/**
 * Email through nodemailer: SMTP when `SMTP_URL` is configured; otherwise each message is written as an
 * `.eml` file in the outbox folder, so `npm start` works on a machine with no mail server and a person can
 * open the sign-in link from the file.
 */
export function createMailer(options: MailerOptions): Mailer {
  const from = options.from ?? 'Tender Intel <no-reply@tender-intel.invalid>';
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    const url = new URL(options.smtpUrl);
    return {
      description: `${url.protocol}//${url.host}`,
      async send(message) {
        await transport.sendMail({ from, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: options.outboxDir,
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      // Private: a sign-in message holds a link that signs its reader in.
      await writePrivateFile(join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId('')}.eml`), info.message as Buffer);
    },
  };
}
