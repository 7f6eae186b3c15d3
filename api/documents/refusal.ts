/**
 * Thrown by the guarded open (guard.ts) when a document is not read at all: it would inflate past the
 * limits a document may use (a decompression bomb), or it is not what its container says (a ZIP archive
 * that holds no Word document). The message is a sentence for the person who sent it; `status` is what the
 * route answers: 400 for a document of the wrong kind, 422 for one refused for what reading it would cost.
 * The analysis process reports it as a refusal (worker.ts), never as a crash.
 */
export class DocumentRefused extends Error {
  readonly status: 400 | 422;
  constructor(message: string, status: 400 | 422 = 422) {
    super(message);
    this.name = 'DocumentRefused';
    this.status = status;
  }
}
