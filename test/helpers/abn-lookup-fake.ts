import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for ABN Lookup's JSON web services on 127.0.0.1, answering the way the real service does
 * (api/providers/abn-lookup.ts records the shape and where it was confirmed): `GET /json/AbnDetails.aspx`,
 * `/json/AcnDetails.aspx` and `/json/MatchingNames.aspx`, each with `guid` and `callback`, as JSONP with HTTP
 * 200, errors in `Message`. `mode` makes it fail: `http500`, or `hang` (never answers).
 */

/** One entity as AbnDetails.aspx answers it. */
export interface FakeAbnRecord {
  Abn: string;
  AbnStatus: 'Active' | 'Cancelled';
  AbnStatusEffectiveFrom: string;
  Acn: string;
  AddressDate: string | null;
  AddressPostcode: string;
  AddressState: string;
  BusinessName: string[];
  EntityName: string;
  EntityTypeCode: string;
  EntityTypeName: string;
  Gst: string | null;
}

export interface AbnLookupFake {
  baseUrl: string;
  guid: string;
  requests: URL[];
  mode: 'ok' | 'http500' | 'hang';
  close(): Promise<void>;
}

// The ABR's own ABN, its validator's example (checkers-research §9.5), and a company of the fixture registers
// whose ABN the live register has since cancelled, as a later week's extract would show.
export const FAKE_ABN_RECORDS: FakeAbnRecord[] = [
  {
    Abn: '51824753556', AbnStatus: 'Active', AbnStatusEffectiveFrom: '1999-11-01', Acn: '', AddressDate: '2014-10-22', AddressPostcode: '2600',
    AddressState: 'ACT', BusinessName: [], EntityName: 'AUSTRALIAN TAXATION OFFICE', EntityTypeCode: 'CGE', EntityTypeName: 'Commonwealth Government Entity', Gst: '2000-07-01',
  },
  {
    Abn: '96608139724', AbnStatus: 'Cancelled', AbnStatusEffectiveFrom: '2026-09-30', Acn: '608139724', AddressDate: '2015-10-14', AddressPostcode: '2450',
    AddressState: 'NSW', BusinessName: [], EntityName: 'COASTAL MODULAR BUILDINGS PTY LTD', EntityTypeCode: 'PRV', EntityTypeName: 'Australian Private Company', Gst: '',
  },
];

export async function startAbnLookupFake(records: FakeAbnRecord[] = FAKE_ABN_RECORDS, guid = '00000000-1111-2222-3333-444444444444'): Promise<AbnLookupFake> {
  const requests: URL[] = [];
  const state = { mode: 'ok' as AbnLookupFake['mode'] };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    if (state.mode === 'hang') return;
    if (state.mode === 'http500') {
      response.writeHead(500, { 'content-type': 'text/html' }).end('<html><body>Server Error</body></html>');
      return;
    }
    const callback = url.searchParams.get('callback') ?? 'callback';
    const reply = (payload: unknown) => response.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8' }).end(`${callback}(${JSON.stringify(payload)})`);
    const empty = { Abn: '', AbnStatus: '', AbnStatusEffectiveFrom: '', Acn: '', AddressDate: null, AddressPostcode: '', AddressState: '', BusinessName: [], EntityName: '', EntityTypeCode: '', EntityTypeName: '', Gst: null };
    if (url.searchParams.get('guid') !== guid) {
      reply({ ...empty, Message: 'The GUID entered is not recognised as a Registered Party' });
      return;
    }
    switch (url.pathname) {
      case '/json/AbnDetails.aspx': {
        const record = records.find((entry) => entry.Abn === url.searchParams.get('abn'));
        reply(record ? { ...record, Message: '' } : { ...empty, Message: 'Search text is not a valid ABN or ACN' });
        return;
      }
      case '/json/AcnDetails.aspx': {
        const record = records.find((entry) => entry.Acn !== '' && entry.Acn === url.searchParams.get('acn'));
        reply(record ? { ...record, Message: '' } : { ...empty, Message: 'Search text is not a valid ABN or ACN' });
        return;
      }
      case '/json/MatchingNames.aspx': {
        const words = (url.searchParams.get('name') ?? '').toUpperCase().split(/\s+/).filter(Boolean);
        const names = records
          .filter((entry) => words.some((word) => entry.EntityName.includes(word)))
          .slice(0, Number(url.searchParams.get('maxResults') ?? 10))
          .map((entry) => ({
            Abn: entry.Abn, AbnStatus: entry.AbnStatus, IsCurrent: true, Name: entry.EntityName, NameType: 'Entity Name', Postcode: entry.AddressPostcode,
            Score: words.every((word) => entry.EntityName.includes(word)) ? 100 : 80, State: entry.AddressState,
          }));
        reply({ Message: '', Names: names });
        return;
      }
      default:
        response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>The resource cannot be found.</body></html>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/json/`,
    guid,
    requests,
    get mode() {
      return state.mode;
    },
    set mode(mode) {
      state.mode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
