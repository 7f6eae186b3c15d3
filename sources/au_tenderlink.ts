import { defineSource } from './_contract/define-source.ts';

export default defineSource({
  id: 'au_tenderlink',
  tag: 'TL',
  name: 'Tenderlink council tenders',
  jurisdiction: 'AU',
  tier: 'council',
  kinds: ['tender'],
  mode: 'html',
  origin: 'https://www.tenderlink.com',
  homepage: 'https://www.tenderlink.com',
  access: {
    kind: 'login_walled',
    why: 'Tenderlink (illion) shows each council\'s tender list only after a supplier login on that organisation\'s portal (portal.tenderlink.com/{org}/), and its alerts are a paid subscription; a public summary listing may exist but is unverified, so it is registered and not crawled.',
  },
  licence: 'Tenderlink terms of use (illion); the listings sit behind a supplier login and a paid subscription, and nothing is collected or republished from them.',
  attribution: 'Tenderlink (www.tenderlink.com), operated by illion; listed for coverage only, with no data taken.',
  caveats: [
    'No tenders are collected: the registry row says the source exists and why it is empty.',
    'Councils that publish on Tenderlink often also list on their own sites or a state portal, where other sources may find the same tenders.',
    'No capture of any Tenderlink page or of its robots.txt is public, so nothing about its markup is verified. A third-party parser reads a public illion listing by state (illion.tenderlink.com/tenders/all/australasia/australia/{state}); its terms and robots.txt have not been read, and it is not collected.',
  ],
  politeness: {
    maxConcurrency: 1, // why: never crawled while login-walled; were that to change, one request at a time to a commercial host is the start
    delayMs: 1000, // why: as above, a second apart until the site's terms and robots.txt have been read
    maxRetries: 0, // why: a refusal from a login wall is not transient, so nothing would be gained by asking again
    timeoutSecs: 30, // why: the usual half-minute bound on a single page
  },
  // Registered for the record (homepage, status, reason); the runner stops at `access`, so nothing is requested.
  start: () => [],
  routes: {},
});
