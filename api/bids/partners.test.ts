import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GAP_CATEGORIES } from './credentials.ts';
import { activePartners, partnerCatalogue } from './partners.ts';

describe('the partners catalogue', () => {
  it('parses against its schema and has an active partner for every gap category in every Australian state and New Zealand', () => {
    const catalogue = partnerCatalogue();
    for (const category of GAP_CATEGORIES) {
      for (const region of ['AU-NSW', 'AU-VIC', 'AU-QLD', 'AU-WA', 'AU-SA', 'AU-TAS', 'AU-ACT', 'AU-NT', 'NZ'] as const) {
        assert.ok(activePartners(catalogue, category, region).length > 0, `${category} in ${region}`);
      }
    }
  });

  it('leaves out inactive partners, other categories and other regions; a partner listed for AU serves each state', () => {
    const names = activePartners(partnerCatalogue(), 'insurance', 'AU-NSW').map((partner) => partner.name);
    assert.deepEqual(names, ['Harbourline Insurance Brokers']);
    assert.deepEqual(activePartners(partnerCatalogue(), 'security_clearance', 'AU-WA').map((partner) => partner.partner_id), ['ptn_sentinel_vetting']);
  });
});
