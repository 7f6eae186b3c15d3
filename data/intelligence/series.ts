import { z } from 'zod';

// The per-month and per-year series the state and buyer pages chart. Values are summed in one currency
// (the jurisdiction's, or the buyer's usual one) and never converted: a contract in another currency, or
// stating no value, is counted but adds no value.

export const EndingMonth = z
  .object({
    month: z.string().meta({ description: 'YYYY-MM.' }),
    count: z.number().int().meta({ description: 'Contracts ending in the month.' }),
    value: z.number().meta({ description: 'What those stating a value in the reply\'s `value_currency` add up to.' }),
  })
  .meta({ id: 'EndingMonth' });
export type EndingMonth = z.infer<typeof EndingMonth>;

export const SpendYear = z
  .object({
    year: z.string().meta({ description: 'Calendar year (YYYY) of the award day.' }),
    count: z.number().int().meta({ description: 'Contracts awarded in the year (within the award window).' }),
    value: z.number().meta({ description: 'What those stating a value in the buyer\'s `value_currency` add up to.' }),
  })
  .meta({ id: 'SpendYear' });
export type SpendYear = z.infer<typeof SpendYear>;
