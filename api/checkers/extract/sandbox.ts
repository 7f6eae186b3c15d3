import { SANDBOX_LIMITATIONS } from '../define-checker.ts';
import type { ExtractionResult } from './result.ts';

/**
 * The sandbox reply of POST /v1/extract (spec, Shared input conventions: Sandbox): a fixed, invented result shaped
 * exactly like a real one, the same for every request.
 */
export function extractSandboxReply(): ExtractionResult {
  return {
    mode: 'template',
    document_type: 'tax_invoice',
    fields: {
      supplier_name: { value: 'Ridgeline Civil Pty Ltd', confidence: 0.98, page: 1 },
      supplier_abn: { value: '51 824 753 556', confidence: 0.99, page: 1 },
      invoice_number: { value: 'INV-0042', confidence: 0.99, page: 1 },
      invoice_date: { value: '2026-06-02', confidence: 0.97, page: 1 },
      gst: { value: 113.64, confidence: 0.95, page: 1 },
      total: { value: 1250, confidence: 0.98, page: 1 },
    },
    not_found: ['buyer_abn'],
    pages_read: 1,
    page_limit: 10,
    page_count: 1,
    capabilities_used: ['text_layer'],
    limitations: `${SANDBOX_LIMITATIONS} Extraction is not verification: values are read from the document as it stands, and the document is never stored.`,
  };
}
