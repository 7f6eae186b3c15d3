import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ocdsPackageValidator } from '../test/helpers/ocds-validator.ts';

export interface OcdsValidity {
  valid: number;
  total: number;
  /** The most common error messages with their counts, most frequent first. */
  topErrors: [string, number][];
}

/**
 * Validates the lines of an OCDS JSON Lines export against the official 1.1 schemas, reading it line by line:
 * every line, or every `every`th one (the first, then each `every` after).
 */
export async function ocdsValidity(file: string, every = 1): Promise<OcdsValidity> {
  const validate = ocdsPackageValidator();
  const errorCounts = new Map<string, number>();
  let valid = 0;
  let total = 0;
  let seen = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line === '') continue;
    seen += 1;
    if ((seen - 1) % every !== 0) continue;
    total += 1;
    const result = validate(JSON.parse(line));
    if (result.valid) valid += 1;
    // array positions dropped, so one defect on every line counts as one message
    for (const error of new Set(result.errors.map((message) => message.replace(/\/\d+/g, '/*')))) errorCounts.set(error, (errorCounts.get(error) ?? 0) + 1);
  }
  return { valid, total, topErrors: [...errorCounts].sort((a, b) => b[1] - a[1]).slice(0, 3) };
}
