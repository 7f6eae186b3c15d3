import { isJurisdiction } from '../../lib/jurisdictions.ts';
import { cleanText } from '../../lib/text.ts';
import { DEFAULT_POLITENESS, defineSource, type SourceMode } from '../../sources/_contract/define-source.ts';

/**
 * A minimal adapter over the hand-written table fixtures in test/fixtures/sources/, for tests of the
 * pipeline and of the crawler paths that must not depend on any real source's markup.
 */
export function tableSource(id: string, mode: SourceMode) {
  return defineSource({
    id,
    tag: id.toUpperCase(),
    name: `Test source ${id}`,
    jurisdiction: 'AU',
    tier: 'council',
    kinds: ['tender'],
    mode,
    origin: 'https://example.gov.au',
    homepage: 'https://example.gov.au/',
    licence: 'test data',
    attribution: 'test data',
    caveats: [],
    politeness: DEFAULT_POLITENESS,
    start: (ctx) => [{ url: ctx.url(mode === 'browser' ? '/opportunities' : '/list'), label: 'LIST' }],
    routes: {
      LIST: async (fetched) => {
        const $ = await fetched.dom({ waitFor: 'tr.tender' });
        $('tr.tender').each((_, row) => {
          const cell = (name: string) => cleanText($(row).find(`td.${name}`).text());
          const state = cell('state') ?? 'AU';
          fetched.emit({
            record_type: 'tender',
            kind: 'tender',
            title: cell('title') ?? '',
            buyer: cell('buyer'),
            reference: cell('ref'),
            jurisdiction: isJurisdiction(state) ? state : 'AU',
            tier: 'council',
            summary: null,
            category: null,
            category_name: null,
            notice_type: null,
            published_date: null,
            closing_date: cell('closes'),
            closing_at: null,
            value_text: null,
            url: fetched.ctx.publicUrl(fetched.request.url),
            listing_url: fetched.ctx.publicUrl(fetched.request.url),
          });
        });
        const next = $('a.next').attr('href');
        if (next) await fetched.enqueue({ url: fetched.ctx.url(next), label: 'LIST' });
      },
    },
  });
}
