import { newId } from '../../lib/tokens.ts';
import type { StateDb } from '../../data/state/db.ts';

/** The longest message a person may post to a bid's thread. */
export const MAX_MESSAGE_CHARACTERS = 4000;

/** A message of a bid's thread, as the routes reply with it. */
export interface ThreadMessage {
  message_id: string;
  author: { account_id: string; email: string };
  text: string;
  /** The run that posted it, in the name of the person who started the run; null for a person's own message. */
  run_id: string | null;
  created_at: string;
}

const SELECT_MESSAGE = `SELECT t.message_id, t.author_id, a.email, t.text, t.run_id, t.created_at
  FROM bid_thread_messages t JOIN accounts a ON a.account_id = t.author_id`;

interface MessageRow {
  message_id: string;
  author_id: string;
  email: string;
  text: string;
  run_id: string | null;
  created_at: string;
}

const asMessage = (row: MessageRow): ThreadMessage => ({
  message_id: row.message_id,
  author: { account_id: row.author_id, email: row.email },
  text: row.text,
  run_id: row.run_id,
  created_at: row.created_at,
});

export async function postMessage(state: StateDb, bidId: string, authorId: string, text: string, now: Date): Promise<ThreadMessage> {
  const messageId = newId('msg_');
  await state.run('INSERT INTO bid_thread_messages (message_id, bid_id, author_id, text, created_at) VALUES (?, ?, ?, ?, ?)', messageId, bidId, authorId, text, now.toISOString());
  return asMessage((await state.get<MessageRow>(`${SELECT_MESSAGE} WHERE t.message_id = ?`, messageId))!);
}

/** A run's message to the thread, in the name of the person who started it; returns its id. */
export async function postRunMessage(state: StateDb, bidId: string, runId: string, authorId: string, text: string, now: Date): Promise<string> {
  const messageId = newId('msg_');
  await state.run(
    'INSERT INTO bid_thread_messages (message_id, bid_id, author_id, text, run_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    messageId, bidId, authorId, text.slice(0, MAX_MESSAGE_CHARACTERS), runId, now.toISOString(),
  );
  return messageId;
}

/** The bid's thread, oldest first. */
export async function threadOf(state: StateDb, bidId: string): Promise<ThreadMessage[]> {
  return (await state.all<MessageRow>(`${SELECT_MESSAGE} WHERE t.bid_id = ? ORDER BY t.created_at, t.rowid`, bidId)).map(asMessage);
}
