import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LibraryDocument } from '../orgs/documents.ts';
import type { LibraryText } from './drafts/library-text.ts';
import type { StoredDraft } from './drafts/store.ts';
import { deriveGaps } from './gaps.ts';
import type { WorkspaceRequirement } from './workspace-requirement.ts';

const requirement = (id: string, text: string, mandatory = true): WorkspaceRequirement => ({ requirement_id: id, ref: id.replace('req_', '3.'), text, kind: 'clause', mandatory, state: 'open', weight: null });
const libraryText = (docId: string, filename: string, expiresOn: string | null, text: string): LibraryText => ({
  document: { doc_id: docId, filename, expires_on: expiresOn } as LibraryDocument,
  pages: [{ n: 1, text }],
});
const draft = (requirementId: string, citedDocs: string[], origin: StoredDraft['origin'] = 'assembled'): StoredDraft => ({
  requirement_id: requirementId, text: '…', origin, note: '', model: null, edited_by: null, updated_at: '2026-06-10T00:00:00Z',
  citations: citedDocs.map((docId, index) => ({ n: index + 1, source: 'library', document: docId, page: 1, doc_id: docId, excerpt: '…', score: 1 })),
});

describe('derived gaps', () => {
  const requirements = [
    requirement('req_1', 'The Contractor must hold public liability insurance of at least $20 million.'),
    requirement('req_2', 'Tenderers must be certified to ISO 9001 or an equivalent quality management standard.'),
    requirement('req_3', 'Describe your experience with traffic management on arterial roads.'),
    requirement('req_4', 'Describe your approach to community consultation.', false),
  ];
  const library = [
    libraryText('doc_insurance', 'Certificate of currency.pdf', '2026-07-01', 'Public Liability: $20,000,000. Insurer: Harbour Mutual.'),
    libraryText('doc_capability', 'Capability statement.pdf', '2027-01-01', 'Traffic management for councils.'),
    libraryText('doc_old', 'Old brochure.pdf', '2020-01-01', 'Nothing the bid cites.'),
  ];
  const drafts = [draft('req_1', ['doc_insurance']), draft('req_2', []), draft('req_4', [])];

  it('finds the insurance expiring before closing, the missing ISO certificate and the mandatory requirement with no evidence', () => {
    const gaps = deriveGaps({ requirements, drafts, library, today: '2026-06-10', closingDate: '2026-07-15', region: 'AU-NSW' });
    assert.deepEqual(
      gaps.map((gap) => [gap.gap_key, gap.kind, gap.category, gap.region]),
      [
        ['evidence:req_2', 'no_evidence', 'bid_writing', 'AU-NSW'],
        ['evidence:req_3', 'no_evidence', 'bid_writing', 'AU-NSW'],
        ['credential:iso_9001', 'missing_credential', 'quality_certification', 'AU-NSW'],
        ['expiry:doc_insurance', 'document_expiry', 'insurance', 'AU-NSW'],
      ],
    );
    const expiry = gaps.find((gap) => gap.kind === 'document_expiry')!;
    assert.equal(expiry.title, 'Certificate of currency.pdf expires on 2026-07-01, before the tender closes');
    assert.match(expiry.detail, /for public liability insurance, which expires on 2026-07-01, before the tender closes on 2026-07-15/);
    assert.equal(gaps.find((gap) => gap.kind === 'missing_credential')!.requirement_id, 'req_2');
  });

  it('a document valid past closing, a person-written draft and a non-mandatory requirement raise nothing', () => {
    const gaps = deriveGaps({
      requirements: [requirements[0]!, requirements[3]!],
      drafts: [draft('req_1', [], 'person')],
      library,
      today: '2026-06-10',
      closingDate: '2026-06-30',
      region: null,
    });
    assert.deepEqual(gaps, []);
  });

  it("a mandatory requirement a person marked met or not applicable needs no evidence", () => {
    const settled = [{ ...requirements[2]!, mandatory: true, state: 'met' as const }, { ...requirements[1]!, text: 'Provide a signed declaration.', state: 'not_applicable' as const }];
    assert.deepEqual(deriveGaps({ requirements: settled, drafts: [], library, today: '2026-06-10', closingDate: null, region: null }), []);
  });

    it('an already expired document the bid cites is a gap even without a closing day', () => {
    const gaps = deriveGaps({ requirements: [requirements[2]!], drafts: [draft('req_3', ['doc_capability'])], library, today: '2027-02-01', closingDate: null, region: 'NZ' });
    assert.deepEqual(gaps.map((gap) => [gap.gap_key, gap.category, gap.title]), [['expiry:doc_capability', 'compliance_documents', 'Capability statement.pdf expired on 2027-01-01']]);
  });
});
