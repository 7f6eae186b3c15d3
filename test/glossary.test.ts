// The glossary names every value of every vocabulary a reader can meet, from the modules that own the vocabularies,
// so a value added there without a display name fails here rather than showing as a code.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LEANS } from '../api/checkers/ai-text/model.ts';
import { MEDIA_CATEGORIES } from '../api/checkers/adverse-media/categories.ts';
import { RISK_FLAGS } from '../api/checkers/adverse-media/result.ts';
import { CANDIDATE_RULES, COVERAGE_SOURCES, COVERAGE_STATUSES, RESOLUTION_STATUSES } from '../api/checkers/companies/result.ts';
import { OVERLAP_OUTCOMES } from '../api/checkers/overlap/result.ts';
import { STAGES } from '../api/bids/stages.ts';
import { ROLES } from '../api/orgs/roles.ts';
import { SIGNAL_KINDS } from '../data/intelligence/signals.ts';
import { SOURCE_STATUSES } from '../data/schema.ts';
import { TIERS } from '../lib/jurisdictions.ts';
import * as glossary from '../lib/glossary.ts';
import { rawWords } from './helpers/plain-words.ts';

const vocabularies: [string, glossary.Naming, readonly string[]][] = [
  ['source statuses', glossary.sourceStatusName, SOURCE_STATUSES],
  ['tiers', glossary.tierName, TIERS],
  ['bid stages', glossary.stageName, STAGES],
  ['organisation roles', glossary.roleName, ROLES],
  ['risk bands', glossary.riskBandName, ['low', 'medium', 'high', 'insufficient', 'error']],
  ['inspection quality', glossary.inspectionQualityName, ['full', 'partial', 'minimal', 'failed']],
  ['signal severities', glossary.signalSeverityName, ['info', 'low', 'medium', 'high']],
  ['signal groups', glossary.signalGroupName, ['tampering', 'structure', 'metadata', 'arithmetic']],
  ['AI-text leans', glossary.leanName, LEANS],
  ['overlap outcomes', glossary.overlapOutcomeName, OVERLAP_OUTCOMES],
  ['overlap bands', glossary.overlapBandName, ['none', 'low', 'moderate', 'high', 'very_high', 'not_assessed']],
  ['screening flags', glossary.riskFlagName, RISK_FLAGS],
  ['news categories', glossary.mediaCategoryName, MEDIA_CATEGORIES],
  ['company outcomes', glossary.resolutionStatusName, RESOLUTION_STATUSES],
  ['register statuses', glossary.registerStatusName, COVERAGE_STATUSES],
  ['registers', glossary.registerName, COVERAGE_SOURCES],
  ['company match rules', glossary.candidateRuleName, CANDIDATE_RULES],
  ['signal kinds', glossary.signalKindName, SIGNAL_KINDS],
];

test('every value of every vocabulary has a display name, and each name is plain words', () => {
  const missing: string[] = [];
  const raw: string[] = [];
  for (const [name, naming, values] of vocabularies) {
    for (const value of values) {
      if (!(value in naming.names)) missing.push(`${name}: ${value}`);
      for (const word of rawWords(naming(value))) raw.push(`${name}: ${value} → ${word}`);
    }
  }
  assert.deepEqual(missing, []);
  assert.deepEqual(raw, []);
});

test('a value without a name still reads as words, never as a code', () => {
  assert.equal(glossary.sentenceCase('likely_ai'), 'Likely ai');
  assert.equal(glossary.sentenceCase('tenderPreviewUrl'), 'Tender preview url');
  assert.equal(glossary.fieldName('value_amount'), 'Value amount');
  assert.equal(glossary.fieldName('month'), 'Month');
});
