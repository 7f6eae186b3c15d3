import { SANDBOX_LIMITATIONS } from '../define-checker.ts';
import type { IdentityResult } from './result.ts';

/**
 * The sandbox reply of POST /v1/identity-check (spec, Shared input conventions: Sandbox): a fixed, invented result shaped
 * exactly like a real one, the same for every request.
 */
export function identitySandboxReply(): IdentityResult {
  return {
    scheme: { id: 'afp_100_point', name: 'AFP National Police Check: 100 points', source: 'Australian Federal Police, National Police Check 100 point checklist' },
    established: true,
    rule: 'points_accumulation',
    points: 135,
    target: 100,
    primaries: 1,
    satisfied_path: null,
    reason: 'One primary document (70) and two secondary documents (40 and 25) give 135 points of the 100 needed, with name, photo and address shown.',
    documents: [
      {
        filename: 'passport.jpg',
        classified_type: 'australian_passport',
        shows: ['N', 'P', 'S'],
        points: 70,
        counts: true,
        note: 'Primary document: 70 points; machine-readable zone (TD3) read: every check digit verifies.',
        mrz: {
          format: 'TD3',
          document_code: 'P<',
          issuing_state: 'AUS',
          expires: '2032-06-15',
          checks: (['document_number', 'birth_date', 'expiry_date', 'personal_number', 'composite'] as const).map((name) => ({ name, valid: true })),
          valid: true,
          corrections: [],
          adjustments: [],
          printed_agrees: { document_number: true, date_of_birth: true, expiry: true },
          where: 'page 1, pixels 42,604 1180x146',
        },
      },
      { filename: 'licence.png', classified_type: 'australian_driver_licence', shows: ['N', 'P', 'A', 'S'], points: 40, counts: true, note: 'First secondary document: 40 points.', mrz: null },
      { filename: 'power-bill.pdf', classified_type: 'utility_bill', shows: ['N', 'A'], points: 25, counts: true, note: 'Other document: 25 points; it must be under 12 months old.', mrz: null },
    ],
    limitations: `${SANDBOX_LIMITATIONS} A real check classifies documents from their content and counts points; it never verifies that a document is genuine.`,
  };
}
