import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkConsistency, numbersIn } from './consistency.ts';

const brief = (text: string) => checkConsistency(text).map((item) => [item.kind, item.numbers_used, item.stated, item.recomputed, item.consistent]);

describe('checkConsistency', () => {
  it('reads numbers with thousands separators, decimals, currency, percentages and scale words', () => {
    assert.deepEqual(
      numbersIn('$1,234.50 and 12.5% of 3 million, −4 and 2019').map((token) => [token.value, token.unit, token.step, token.yearLike]),
      [[1234.5, 'currency', 0.01, false], [12.5, 'percent', 0.1, false], [3_000_000, 'plain', 1_000_000, false], [-4, 'plain', 1, false], [2019, 'plain', 1, true]],
    );
  });

  it('recomputes written sums and products exactly: 4 + 5 = 10 is wrong, 12 × 3 = 36 is right', () => {
    assert.deepEqual(brief('Check: 4 + 5 = 10. And 12 × 3 = 36. Then 10 − 2.5 = 7.5.'), [
      ['expression', [4, 5], 10, 9, false],
      ['expression', [12, 3], 36, 36, true],
      ['expression', [10, 2.5], 7.5, 7.5, true],
    ]);
  });

  it('sums table columns against their Total row, allowing the rounding of the rows shown, and skips year headers', () => {
    const table = ['Region\t2023\t2024', 'North\t10.5\t11.2', 'South\t20.1\t19.9', 'Total\t30.6\t31.0', '', 'Item  Cost', 'Design  1,200', 'Build  8,450', 'Total  9,750'].join('\n');
    const items = checkConsistency(table);
    assert.deepEqual(items.map((item) => [item.stated, item.recomputed, item.tolerance, item.consistent]), [[30.6, 30.6, 0.1, true], [31, 31.1, 0.1, true], [9750, 9650, 1, false]]);
    assert.match(items[1]!.explanation, /differs by 0\.1, within the rounding of the figures shown/);
    assert.equal(items[2]!.explanation, 'Summed the column over 2 rows (Design, Build) against “Total”.');
  });

  it('checks shares, changes and their direction', () => {
    assert.deepEqual(brief('Of the bridges, 6 of 40 (15%) needed repair. Only 30 out of 120 (20%) disagreed.'), [
      ['percentage', [6, 40], 15, 15, true],
      ['percentage', [30, 120], 20, 25, false],
    ]);
    assert.deepEqual(brief('Patronage fell from 2,000 to 1,500 trips, a decrease of 25%.'), [['percentage_change', [2000, 1500], -25, -25, true]]);
    assert.deepEqual(brief('Revenue rose from $200m to $250m, an increase of 20%.'), [['percentage_change', [200_000_000, 250_000_000], 20, 25, false]]);
  });

  it('checks year spans, accepting an inclusive count only where the text says from/between', () => {
    assert.deepEqual(brief('The program ran from 2015 to 2020, a period of five years.'), [['year_span', [2015, 2020], 5, 5, true]]);
    assert.deepEqual(brief('The program ran from 2015 to 2020, six years in all.'), [['year_span', [2015, 2020], 6, 6, true]]);
    assert.deepEqual(brief('In 2020, eight years after 2014, the office closed.'), [['year_span', [2020, 2014], 8, 6, false]]);
  });

  it('adds the figures before "a total of" when their units agree, at the rounding they show', () => {
    assert.deepEqual(brief('Grants of $1.2 million, $0.8 million and $0.5 million, a total of $2.5 million, were paid.'), [['total', [1_200_000, 800_000, 500_000], 2_500_000, 2_500_000, true]]);
    assert.deepEqual(brief('Crews of 12, 15 and 9 people, 40 in total, were on site.'), [['total', [12, 15, 9], 40, 36, false]]);
    assert.deepEqual(brief('Of 12 sites and 15%, a total of 40 were kept.'), []);
  });

  it('gives each finding its place in the text', () => {
    const text = 'Intro.\nThe sum 2 + 2 = 5 is off.';
    const [item] = checkConsistency(text);
    assert.equal(text.slice(item!.start_char, item!.end_char), '2 + 2 = 5');
  });
});
