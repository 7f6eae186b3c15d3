// The document checkers the "Check a document" page offers (spec, Document checkers): what each one reads,
// and how the page turns what a person gave into the request the API takes.

/** What a person can give a checker: a file (or several), pasted text, a web address, a person's name, a company. */
export type InputKind = 'file' | 'text' | 'url' | 'name' | 'query';

export interface Choice {
  value: string;
  label: string;
}

export interface Checker {
  id: string;
  label: string;
  /** One sentence saying what the checker looks at and what it does not decide. */
  about: string;
  path: string;
  inputs: readonly InputKind[];
  /** The file types offered in the file picker (the `accept` attribute). */
  accept?: string;
  /** How many files one check reads (identity and pack read a set). */
  maxFiles?: number;
  /** A list the checker needs one value from (identity scheme, pack checklist, extract template). */
  option?: { name: string; label: string; choices: readonly Choice[]; sentIn: 'query' | 'body' };
  /** Whether the route answers `?stream=1` with Server-Sent Events; company resolution answers at once. */
  streams: boolean;
}

const PDF_OR_IMAGE = '.pdf,.png,.jpg,.jpeg,.webp,.bmp,.tif,.tiff';
const PROSE = '.pdf,.txt,.text,.md,.html,.htm';

export const CHECKERS: readonly Checker[] = [
  {
    id: 'warrant',
    label: 'Signs of editing (forensic warrant)',
    about: 'Reads the file’s structure, saved revisions, metadata and invoice arithmetic, and lists what it found for you to review. It is not a fraud verdict.',
    path: '/v1/warrants',
    inputs: ['file'],
    accept: PDF_OR_IMAGE,
    streams: true,
  },
  {
    id: 'references',
    label: 'References and arithmetic (fact-check)',
    about: 'Checks each link, DOI and citation, and recomputes the totals and percentages the document states.',
    path: '/v1/verify-references',
    inputs: ['file', 'text', 'url'],
    accept: `${PROSE},.docx`,
    streams: true,
  },
  {
    id: 'ai-text',
    label: 'AI-written prose (estimate)',
    about: 'Estimates from writing style whether prose was written by an AI model; it abstains on forms, tables and texts under 150 words. An estimate to weigh, never a verdict.',
    path: '/v1/detect-ai-text',
    inputs: ['text', 'file', 'url'],
    accept: PROSE,
    streams: true,
  },
  {
    id: 'overlap',
    label: 'Text found on the web (source overlap)',
    about: 'Searches the web for passages of the document and confirms each match against the page it was found on.',
    path: '/v1/check-source-overlap',
    inputs: ['file', 'text', 'url'],
    accept: `${PROSE},.docx`,
    streams: true,
  },
  {
    id: 'extract',
    label: 'Fields of a document (extraction)',
    about: 'Finds the labelled values of a document with the page each was found on. Extraction is not verification, and the document is not stored.',
    path: '/v1/extract',
    inputs: ['file', 'url'],
    accept: `${PDF_OR_IMAGE},.docx,.txt,.html`,
    option: {
      name: 'template',
      label: 'Kind of document',
      sentIn: 'query',
      choices: [
        { value: '', label: 'Recognise it for me' },
        { value: 'tax_invoice', label: 'Tax invoice' },
        { value: 'receipt', label: 'Receipt' },
        { value: 'payslip', label: 'Payslip' },
        { value: 'bank_statement', label: 'Bank statement' },
        { value: 'contract', label: 'Contract' },
      ],
    },
    streams: true,
  },
  {
    id: 'identity',
    label: 'Identity documents (identity check)',
    about: 'Says what each document is, what it shows and how it counts under the scheme. Coverage for you to act on, never a verdict.',
    path: '/v1/identity-check',
    inputs: ['file'],
    accept: PDF_OR_IMAGE,
    maxFiles: 10,
    option: {
      name: 'scheme',
      label: 'Scheme',
      sentIn: 'body',
      choices: [
        { value: 'afp_100_point', label: 'AFP 100-point check' },
        { value: 'austrac_safe_harbour', label: 'AUSTRAC safe harbour' },
      ],
    },
    streams: true,
  },
  {
    id: 'pack',
    label: 'Document pack (completeness)',
    about: 'Recognises each document from its first page and says which items of the checklist are there and which are missing.',
    path: '/v1/check-pack',
    inputs: ['file'],
    accept: `${PDF_OR_IMAGE},.docx,.txt,.html`,
    maxFiles: 12,
    option: {
      name: 'scheme',
      label: 'Checklist',
      sentIn: 'body',
      choices: [
        { value: 'rental_application', label: 'Rental application' },
        { value: 'income_proof', label: 'Proof of income' },
        { value: 'lending_prequal', label: 'Lending pre-qualification' },
      ],
    },
    streams: true,
  },
  {
    id: 'adverse-media',
    label: 'A person: sanctions and news (adverse media)',
    about: 'Screens a name, or the name read from an identity document, against sanctions lists and news articles. Lists of politically exposed persons are not screened.',
    path: '/v1/adverse-media',
    inputs: ['name', 'file'],
    accept: PDF_OR_IMAGE,
    streams: true,
  },
  {
    id: 'company',
    label: 'A company: registration and standing',
    about: 'Finds a company by name, ABN, ACN or NZBN in the Australian registers and says whether it is in good standing with ASIC.',
    path: '/v1/companies/resolve',
    inputs: ['query'],
    streams: false,
  },
];

export function checkerById(id: string): Checker | undefined {
  return CHECKERS.find((checker) => checker.id === id);
}

/** What a person gave, as the page's form read it. */
export interface Submission {
  input: InputKind;
  files: readonly File[];
  /** The text, address, name or company, for the inputs other than `file`. */
  value: string;
  /** The checker's option (scheme, template), when it has one; '' for none. */
  option: string;
  /** Adverse media only: details that tell the subject from a namesake. */
  details?: { dob?: string; country?: string };
}

/** The API's document size limit (spec, Limits: 25 MB), checked before sending: a browser cut off mid-upload by the 413 may never read its detail. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

/** What stops a submission being sent, in a sentence to show; null when it can be sent. */
export function submissionProblem(checker: Checker, submission: Submission): string | null {
  const most = checker.maxFiles ?? 1;
  if (submission.input !== 'file') {
    if (submission.value !== '') return null;
    return { text: 'Paste the text to check.', url: 'Give the web address of the document.', name: 'Give the person’s name.', query: 'Give a company name or number.' }[submission.input];
  }
  if (submission.files.length === 0) return 'Choose or drop a file to check.';
  if (submission.files.length > most) return `This checker reads at most ${most === 1 ? 'one file' : `${most} files`} at once; you chose ${submission.files.length}.`;
  const large = submission.files.find((file) => file.size > MAX_FILE_BYTES);
  return large ? `${large.name} is larger than 25 MB, the largest file a checker reads.` : null;
}

/** The request for a submission: where it goes and its body (multipart for files, JSON otherwise). */
export function requestFor(checker: Checker, submission: Submission): { url: string; init: RequestInit } {
  const query = new URLSearchParams();
  if (checker.streams) query.set('stream', '1');
  const details = Object.entries(submission.details ?? {}).filter((entry): entry is [string, string] => Boolean(entry[1]));
  const option: [string, string][] = checker.option && submission.option ? [[checker.option.name, submission.option]] : [];
  const headers: Record<string, string> = { accept: checker.streams ? 'text/event-stream, application/json' : 'application/json' };

  let body: BodyInit;
  if (submission.input === 'file') {
    const form = new FormData();
    const field = (checker.maxFiles ?? 1) > 1 ? 'files' : 'file';
    for (const file of submission.files) form.append(field, file, file.name);
    for (const [name, value] of details) form.append(name, value);
    // With a multipart upload, extract reads its parameters from the query; identity and pack read a form field.
    for (const [name, value] of option) (checker.option?.sentIn === 'query' ? query : form).append(name, value);
    body = form;
  } else {
    body = JSON.stringify({ [submission.input]: submission.value, ...Object.fromEntries(details), ...Object.fromEntries(option) });
    headers['content-type'] = 'application/json';
  }
  const search = query.toString();
  return { url: `${checker.path}${search ? `?${search}` : ''}`, init: { method: 'POST', body, headers } };
}
