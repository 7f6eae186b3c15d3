import type { StateDb } from '../../../data/state/db.ts';
import type { OrgProfile } from '../../orgs/profile.ts';
import type { LibraryText } from './library-text.ts';
import { splitPassages, type Passage } from './retrieval.ts';

/**
 * What a draft may draw on, as passages: the organisation's profile (what it does, in its own words), its
 * library documents page by page, and the drafts of its earlier bids that a person wrote or a model wrote
 * from cited passages (assembled drafts only repeat passages already here).
 */
export async function organisationPassages(state: StateDb, profile: OrgProfile, library: readonly LibraryText[], bidId: string): Promise<Passage[]> {
  const passages: Passage[] = [];
  if (profile.description) {
    const text = `${profile.company_name}: ${profile.description}`;
    for (const piece of splitPassages(text)) passages.push({ text: piece, citation: { source: 'profile', document: 'Organisation profile', page: null } });
  }
  for (const { document, pages } of library) {
    for (const page of pages) {
      for (const piece of splitPassages(page.text)) {
        passages.push({ text: piece, citation: { source: 'library', document: document.filename, page: page.n, doc_id: document.doc_id } });
      }
    }
  }
  const earlier = await state.all<{ bid_id: string; title: string; requirement_id: string; text: string }>(
    `SELECT d.bid_id, b.title, d.requirement_id, d.text FROM bid_drafts d JOIN bids b ON b.bid_id = d.bid_id
     WHERE b.org_id = ? AND d.bid_id <> ? AND d.origin IN ('person', 'model') ORDER BY b.created_at, d.requirement_id`,
    profile.org_id,
    bidId,
  );
  for (const draft of earlier) {
    for (const piece of splitPassages(draft.text)) {
      passages.push({ text: piece, citation: { source: 'bid', document: draft.title, page: null, bid_id: draft.bid_id, requirement_id: draft.requirement_id } });
    }
  }
  return passages;
}
