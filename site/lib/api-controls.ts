// What the pages' controls do around an API call, written once: keep the button disabled while the API
// answers and say its refusal (`detail`) in the control's alert line; remove a listed item the API deleted;
// upload a form's file with its progress.
import type * as z from 'zod/mini';
import type { Reply } from './account-api.ts';
import { uploadFile } from './bids-api.ts';
import { field, marked, say, submitButton } from './dom.ts';

/**
 * Makes the call with `button` (when given) disabled until the API answers; a refusal's sentence is said in
 * `refusal`. Returns the reply's value, or null when refused.
 */
export async function answered<T>(call: () => Promise<Reply<T>>, refusal: HTMLElement, button?: HTMLButtonElement): Promise<T | null> {
  if (button) button.disabled = true;
  const reply = await call();
  if (button) button.disabled = false;
  if (!reply.ok) {
    say(refusal, reply.detail);
    return null;
  }
  return reply.value;
}

/**
 * `button` removes `item` from its list once the API accepts `call`, saying `removed` in `status`; refused, the
 * button is offered again and `status` says why.
 */
export function removesItem(button: HTMLButtonElement, item: HTMLElement, status: HTMLElement, call: () => Promise<Reply<unknown>>, removed: string): void {
  button.addEventListener('click', async () => {
    button.disabled = true;
    const reply = await call();
    if (!reply.ok) {
      button.disabled = false;
      say(status, reply.detail);
      return;
    }
    item.remove();
    say(status, removed);
  });
}

export interface Upload<T> {
  /** The stored file as the API describes it. */
  schema: z.ZodMiniType<T>;
  /** Where the file is posted. */
  path: string;
  /** What to say when the form is sent without a file. */
  missing: string;
  /** What to say once the file is stored. */
  uploaded: (stored: T) => string;
  /** What the page does next (reads its list again); a refusal then is said in the form's alert line. */
  then: (refusal: HTMLElement) => Promise<void>;
}

/**
 * The upload form (its `file` input, `data-upload-progress`, `data-upload-done` and `data-upload-refused`)
 * posts its file with the progress shown, then says what was stored or why not.
 */
export function offerUpload<T>(form: HTMLFormElement, upload: Upload<T>): void {
  const input = field(form, 'file');
  const progress = marked<HTMLProgressElement>('upload-progress', form);
  const done = marked('upload-done', form);
  const refused = marked('upload-refused', form);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    say(done, '');
    say(refused, '');
    const file = input.files?.[0];
    if (!file) {
      say(refused, upload.missing);
      return;
    }
    const button = submitButton(form);
    button.disabled = true;
    progress.value = 0;
    progress.hidden = false;
    const stored = await uploadFile(upload.schema, upload.path, file, (sent) => (progress.value = sent));
    button.disabled = false;
    progress.hidden = true;
    if (!stored.ok) {
      say(refused, stored.detail);
      return;
    }
    form.reset();
    say(done, upload.uploaded(stored.value));
    await upload.then(refused);
  });
}
