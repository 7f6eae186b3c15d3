import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { bodyLimit, wellFormedJson } from '../middleware/body-limit.ts';
import { errorReplies } from '../middleware/errors.ts';
import { base64Bytes, base64Problem, invalidBodyStatus, readJsonBody, sandboxField } from './common.ts';

const DocumentBody = z.object({ bytes_b64: base64Bytes, filename: z.string().min(1, { error: 'must not be empty' }), sandbox: sandboxField }).strict();
const json = { 'content-type': 'application/json' };
const pdf = Buffer.from('%PDF-1.7 tender response');

function post(app: Hono | OpenAPIHono, body: string, headers: Record<string, string> = json) {
  return app.request('/v1/documents', { method: 'POST', body, headers });
}

test('base64Problem accepts standard, URL-safe, unpadded and line-wrapped base64, and names what is wrong otherwise', () => {
  for (const good of [pdf.toString('base64'), pdf.toString('base64url'), 'QUJD', 'QUI', 'QUI=', 'QQ==', 'QUJD\r\nREVG\n']) assert.equal(base64Problem(good), null, good);
  assert.match(base64Problem('') ?? '', /^is empty/);
  assert.match(base64Problem(' \n') ?? '', /^is empty/);
  assert.match(base64Problem('QUJ%RA==') ?? '', /character 4 is "%"/);
  assert.match(base64Problem('ab+c-d==') ?? '', /mixes the standard/);
  assert.match(base64Problem('QU=JD') ?? '', /"=" may only pad the end/);
  assert.match(base64Problem('QUJ==') ?? '', /"=" may only pad the end/);
  assert.match(base64Problem('QUJDR') ?? '', /one character short/);
});

/** A route declared with createRoute, its validation hook choosing 400 or 422 with invalidBodyStatus. */
function openApiApp() {
  const received: z.output<typeof DocumentBody>[] = [];
  const errors = errorReplies({ log: () => {} });
  const app = new OpenAPIHono({
    defaultHook: (result, c) => {
      if (result.success) return undefined;
      const status = result.target === 'json' ? invalidBodyStatus(result.error) : 400;
      return c.json({ detail: result.error.issues.map((issue) => `Invalid body field ${issue.path.join('.')}: ${issue.message}.`).join(' ') }, status);
    },
  });
  app.onError(errors.onError);
  app.use('*', bodyLimit(), wellFormedJson());
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/documents',
      request: { body: { content: { 'application/json': { schema: DocumentBody } }, required: true } },
      responses: { 200: { description: 'Stored.', content: { 'application/json': { schema: z.object({ size: z.number() }) } } } },
    }),
    (c) => {
      const body = c.req.valid('json');
      received.push(body);
      return c.json({ size: body.bytes_b64.length }, 200);
    },
  );
  return { app, received };
}

test('through createRoute: malformed JSON and malformed base64 answer 400, a schema mismatch 422, good bytes decode', async () => {
  const { app, received } = openApiApp();
  const good = await post(app, JSON.stringify({ bytes_b64: pdf.toString('base64'), filename: 'response.pdf' }));
  assert.deepEqual(await good.json(), { size: pdf.length });
  assert.deepEqual(Buffer.from(received[0]!.bytes_b64), pdf);

  const malformedJson = await post(app, '{"bytes_b64": "QUJD", }');
  assert.equal(malformedJson.status, 400);
  assert.match((await malformedJson.json()).detail, /not valid JSON/);

  const malformedBase64 = await post(app, JSON.stringify({ bytes_b64: 'not base64!', filename: 'a.pdf' }));
  assert.equal(malformedBase64.status, 400);
  assert.match((await malformedBase64.json()).detail, /^Invalid body field bytes_b64: is not base64: character 11 is "!"; encode the file's bytes with standard base64/);

  const mismatch = await post(app, JSON.stringify({ bytes_b64: 'QUJD', filename: '' }));
  assert.equal(mismatch.status, 422);
  assert.match((await mismatch.json()).detail, /filename: must not be empty/);
  assert.equal((await post(app, JSON.stringify({ bytes_b64: 'QUJD', filename: 'a.pdf', verdict: 'x' }))).status, 422, 'an unknown field');
  assert.equal(received.length, 1);
});

test('the OpenAPI document shows bytes_b64 as a base64 string and the sandbox switch as a boolean', () => {
  const { app } = openApiApp();
  const document = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '0' } });
  const schema = document.paths?.['/v1/documents']?.post?.requestBody as { content: Record<string, { schema: { properties: Record<string, { type?: string; format?: string }> } }> };
  const properties = schema.content['application/json']!.schema.properties;
  assert.deepEqual([properties['bytes_b64']?.type, properties['bytes_b64']?.format], ['string', 'byte']);
  assert.equal(properties['sandbox']?.type, 'boolean');
});

test('readJsonBody: 400 for a wrong content type, an empty body, malformed JSON or base64; 422 for a schema mismatch', async () => {
  const app = new Hono();
  app.onError(errorReplies({ log: () => {} }).onError);
  app.post('/v1/documents', async (c) => {
    const body = await readJsonBody(c, DocumentBody);
    return c.json({ size: body.bytes_b64.length, filename: body.filename });
  });
  const cases: [string, Record<string, string>, number, RegExp][] = [
    [JSON.stringify({ bytes_b64: 'QUJD', filename: 'a.pdf' }), json, 200, /./],
    [JSON.stringify({ bytes_b64: 'QUJD', filename: 'a.pdf' }), { 'content-type': 'text/plain' }, 400, /^This route takes a JSON body; send it with Content-Type: application\/json\.$/],
    ['', json, 400, /^The request body is empty/],
    ['{"bytes_b64": "QUJD"', json, 400, /^The request body is not valid JSON \(Expected ',' or '}' after property value in JSON at position 20/],
    [JSON.stringify({ bytes_b64: 'QUJDR', filename: 'a.pdf' }), json, 400, /^Invalid body field bytes_b64: is not base64: it ends one character short/],
    [JSON.stringify({ bytes_b64: 'QUJD=', filename: 7 }), json, 400, /^Invalid body field bytes_b64: [^.]*\.$/],
    [JSON.stringify({ bytes_b64: 'QUJD', filename: 7 }), json, 422, /^Invalid body field filename: Invalid input: expected string, received number\.$/],
    [JSON.stringify({ bytes_b64: 'QUJD', filename: 'a.pdf', colour: 'red' }), json, 422, /^Unknown body field colour: remove it\.$/],
    ['[1, 2]', json, 422, /^Invalid request body: /],
  ];
  for (const [body, headers, status, detail] of cases) {
    const reply = await post(app, body, headers);
    const answer = await reply.json();
    assert.equal(reply.status, status, body);
    if (status === 200) assert.deepEqual(answer, { size: 3, filename: 'a.pdf' });
    else assert.match(answer.detail, detail, body);
  }
});
