/**
 * The checker's types whose purpose is to identify their holder: a document that is not an identity document and
 * is classified as one of these would be counted as identity (test/identity-corpus.test.ts, test/pack-real-documents.test.ts).
 */
export const HOLDER_IDENTITY_TYPES: ReadonlySet<string> = new Set([
  'australian_passport',
  'foreign_passport',
  'drivers_licence',
  'national_id_card',
  'residence_permit',
  'visa',
  'medicare_card',
  'proof_of_age_card',
  'birth_certificate',
  'birth_extract',
  'citizenship_certificate',
  'immicard',
  'student_id_card',
  'government_employee_id',
  'dva_card',
  'working_with_children_card',
  'centrelink_card',
]);
