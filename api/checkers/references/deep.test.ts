import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claimOf, judgeClaim } from './deep.ts';

const PAGE = 'Australian Bureau of Statistics. Household spending rose 4.2% in the June quarter. Wages grew 3.1% over the year. The unemployment rate did not change.';
const verdict = (sentence: string) => judgeClaim(sentence, PAGE).verdict;

describe('judgeClaim', () => {
  it('drops URLs, DOIs and citation markers from the claim', () => {
    assert.equal(claimOf('Spending rose 4.2% (https://abs.example/x) [3] (Smith et al., 2020), see doi:10.1/abc.'), 'Spending rose 4.2%, see');
  });

  it('supports a claim a page sentence states with the same words, figures and polarity', () => {
    const judged = judgeClaim('Household spending rose 4.2% in the June quarter (https://www.abs.example/x).', PAGE);
    assert.deepEqual(judged, {
      verdict: 'supports',
      evidence: 'Household spending rose 4.2% in the June quarter.',
      overlap: 1,
      reason: "A sentence of the page holds 100% of the claim's content words and every figure it gives, with the same polarity.",
    });
  });

  it('contradicts on the opposite direction, a different figure of the same kind, or a negation the other lacks', () => {
    assert.equal(verdict('Household spending fell 4.2% in the June quarter [1].'), 'contradicts');
    assert.equal(judgeClaim('Household spending rose 6.5% in the June quarter [1].', PAGE).reason, 'The claim gives 6.5%; the closest sentence of the page gives 4.2% instead.');
    assert.equal(verdict('The unemployment rate changed [2].'), 'contradicts');
  });

  it('is unclear when no sentence holds half the claim, or the overlap is partial', () => {
    assert.equal(verdict('Cats are better than dogs (https://x.example).'), 'unclear');
    assert.equal(verdict('Household spending on holidays and imported cars surged strongly [1].'), 'unclear');
    assert.equal(judgeClaim('Anything at all.', '').verdict, 'unclear');
  });
});
