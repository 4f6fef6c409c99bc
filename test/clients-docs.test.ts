// Issue 16, point 10 (documents): the requests the clients of this API family send for an
// object's documents, replayed verbatim: an upload as `curl -F file=@manual.pdf` or a browser
// form sends it (multipart/form-data), a raw body with its Content-Type, a URL as JSON; the
// list, the file served back and the deletion. Stored in the database (it survives a restart,
// and deleting the object deletes its documents). Rights: reading follows the object's
// visibility, changing needs modify-objects or manage-objects; secrets in a URL are masked for
// readers without manage-service-properties.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adminClient, as } from './helpers/entities.js';
import { adminAuth, assertError, call, createUser, signIn, type TestServer, useTestServer } from './helpers/server.js';
import { serverDbRows } from './helpers/server-db.js';

const MAX = 64 * 1024;
const PW = 'pw-docs-1';
const BOUNDARY = '------------------------d74496d66958873e';

/** The body curl 8 sends for `-F file=@<name>` (optionally with `-F name=<title>` first). */
function curlForm(filename: string, type: string, content: Buffer, fields: Record<string, string> = {}, fileField = 'file'): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`));
  parts.push(content, Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}
const FORM_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A PDF-looking file with bytes that are not valid UTF-8, so a text round trip would show. */
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3]), Buffer.from('\n%%EOF\n')]);

describe('object documents (issue 16 point 10)', () => {
  let server: TestServer;
  const restart = useTestServer((s) => void (server = s), { 'docs.maxBytes': MAX });
  const admin = adminClient(() => server);
  const upload = (path: string, body: Buffer, headers: Record<string, string> = adminAuth, contentType = FORM_TYPE) =>
    call(server, 'POST', path, { rawBody: body, contentType, headers: { accept: '*/*', ...headers } });
  /** GETs a path the server handed out (`value`), relative to the server's origin. */
  const fetchValue = (value: string, headers: Record<string, string> = adminAuth) => fetch(server.url + value, { headers });

  test('curl -F file=@manual.pdf: {id, value}; value serves the file back, as an attachment, with its type and length', async () => {
    const obj = await admin.mkObject({ name: 'router-docs' });
    const res = await upload(`/objects/${obj.id}/docs`, curlForm('manual.pdf', 'application/pdf', PDF));
    assert.equal(res.status, 201, res.text);
    assert.equal(typeof res.body.id, 'string');
    assert.equal(res.body.value, `/node/api/objects/${obj.id}/docs/${res.body.id}/file`);

    const file = await fetchValue(res.body.value);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'application/pdf');
    assert.equal(file.headers.get('content-disposition'), `attachment; filename="manual.pdf"; filename*=UTF-8''manual.pdf`);
    assert.equal(file.headers.get('content-length'), String(PDF.length));
    assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), PDF);

    const list = await admin.asAdmin('GET', `/objects/${obj.id}/docs`);
    assert.equal(list.status, 200, list.text);
    const me = (await admin.asAdmin('GET', '/users/current')).body.id;
    const created: number = list.body[0].created;
    assert.ok(Math.abs(created - Date.now()) < 60_000);
    assert.deepEqual(list.body, [{ id: res.body.id, value: res.body.value, name: 'manual.pdf', contentType: 'application/pdf', size: PDF.length, created, userId: me }]);
  });

  test('a URL document: {"url", "name"} answers {id, value: url}; the list shows it; only http(s) URLs are taken', async () => {
    const obj = await admin.mkObject({ name: 'switch-docs' });
    const url = 'https://wiki.example.com/network/switch-7';
    const res = await admin.asAdmin('POST', `/objects/${obj.id}/docs`, { url, name: 'Runbook' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.value, url);
    const list = (await admin.asAdmin('GET', `/objects/${obj.id}/docs`)).body;
    assert.equal(list.length, 1);
    assert.equal(list[0].id, res.body.id);
    assert.equal(list[0].value, url);
    assert.equal(list[0].name, 'Runbook');
    // No name: the URL names itself.
    const bare = await admin.asAdmin('POST', `/objects/${obj.id}/docs`, { url: 'http://intranet/x.pdf' });
    assert.equal(bare.status, 201, bare.text);
    assert.equal((await admin.asAdmin('GET', `/objects/${obj.id}/docs`)).body[1].name, 'http://intranet/x.pdf');
    // A javascript: URL would run in the UI's origin when clicked.
    assertError(await admin.asAdmin('POST', `/objects/${obj.id}/docs`, { url: 'javascript:alert(1)' }), 400, 'BadRequest', /url/);
    assertError(await admin.asAdmin('POST', `/objects/${obj.id}/docs`, { url, owner: 'x' }), 400, 'BadRequest', /owner/);
  });

  test('a raw body with its Content-Type (curl --data-binary @x.png -H "Content-Type: image/png" "...docs?name=x.png")', async () => {
    const obj = await admin.mkObject({ name: 'camera-docs' });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const res = await upload(`/objects/${obj.id}/docs?name=x.png`, png, adminAuth, 'image/png');
    assert.equal(res.status, 201, res.text);
    const file = await fetchValue(res.body.value);
    assert.equal(file.headers.get('content-type'), 'image/png');
    assert.match(file.headers.get('content-disposition')!, /^attachment; filename="x\.png"/);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), png);
    // A text file sent raw stays bytes, not a string re-encoded.
    const txt = await upload(`/objects/${obj.id}/docs?name=notes.txt`, Buffer.from('line 1\nline 2\n'), adminAuth, 'text/plain');
    assert.equal(txt.status, 201, txt.text);
    assert.equal(await (await fetchValue(txt.body.value)).text(), 'line 1\nline 2\n');
  });

  test('over docs.maxBytes: 413 PayloadTooLarge, multipart or raw; nothing is stored', async () => {
    const obj = await admin.mkObject({ name: 'big-docs' });
    const big = Buffer.alloc(MAX + 1, 0x41);
    assertError(await upload(`/objects/${obj.id}/docs`, curlForm('big.bin', 'application/octet-stream', big)), 413, 'PayloadTooLarge');
    assertError(await upload(`/objects/${obj.id}/docs?name=big.bin`, big, adminAuth, 'application/octet-stream'), 413, 'PayloadTooLarge');
    // Exactly the limit is taken.
    const fits = await upload(`/objects/${obj.id}/docs`, curlForm('fits.bin', 'application/octet-stream', Buffer.alloc(MAX, 0x42)));
    assert.equal(fits.status, 201, fits.text);
    const list = (await admin.asAdmin('GET', `/objects/${obj.id}/docs`)).body;
    assert.deepEqual(list.map((d: { name: string }) => d.name), ['fits.bin']);
    // Two files in one form, or a form without the file field, are refused.
    const two = Buffer.concat([curlForm('a.txt', 'text/plain', Buffer.from('a')).subarray(0, -4), Buffer.from('\r\n'),
      curlForm('b.txt', 'text/plain', Buffer.from('b')).subarray(BOUNDARY.length + 4)]);
    const twoRes = await upload(`/objects/${obj.id}/docs`, two);
    assert.ok([400, 413].includes(twoRes.status), twoRes.text);
    assertError(await upload(`/objects/${obj.id}/docs`, curlForm('a.txt', 'text/plain', Buffer.from('a'), {}, 'upload')), 400, 'BadRequest', /upload/);
    assert.equal((await admin.asAdmin('GET', `/objects/${obj.id}/docs`)).body.length, 1);
  });

  test('a form whose "file" is a text field (curl -F file=<x.txt) is 400 saying so, not "unknown field file"', async () => {
    const obj = await admin.mkObject({ name: 'text-field-docs' });
    const form = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`);
    const res = await upload(`/objects/${obj.id}/docs`, form);
    assertError(res, 400, 'BadRequest', /body\.file: sent as a text field/);
    assert.doesNotMatch(res.body.message, /unknown field/);
    assert.equal((await admin.asAdmin('GET', `/objects/${obj.id}/docs`)).body.length, 0);
  });

  test('an uploaded HTML page is never rendered in our origin: attachment, nosniff, the API CSP', async () => {
    const obj = await admin.mkObject({ name: 'html-docs' });
    const res = await upload(`/objects/${obj.id}/docs`, curlForm('x".html', 'text/html', Buffer.from('<script>alert(document.cookie)</script>'), { name: 'Evil page' }));
    assert.equal(res.status, 201, res.text);
    const file = await fetchValue(res.body.value);
    assert.match(file.headers.get('content-disposition')!, /^attachment; /);
    // The quote in the file name cannot end the parameter early.
    assert.doesNotMatch(file.headers.get('content-disposition')!, /filename="x""/);
    assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
    assert.match(file.headers.get('content-security-policy')!, /default-src 'none'/);
    const list = (await admin.asAdmin('GET', `/objects/${obj.id}/docs`)).body;
    assert.equal(list[0].name, 'Evil page');
  });

  test('a browser form with a session: the CSRF header is needed, as for every change', async () => {
    const obj = await admin.mkObject({ name: 'session-docs' });
    const s = await signIn(server, 'admin', 'admin-pass-1');
    assertError(await upload(`/objects/${obj.id}/docs`, curlForm('a.txt', 'text/plain', Buffer.from('a')), { cookie: s.cookie }), 403, 'Forbidden', /csrf/);
    const ok = await upload(`/objects/${obj.id}/docs`, curlForm('a.txt', 'text/plain', Buffer.from('a')), s.unsafeHeaders);
    assert.equal(ok.status, 201, ok.text);
    // The file downloads with the session cookie alone (a link in the UI).
    assert.equal((await fetchValue(ok.body.value, { cookie: s.cookie })).status, 200);
  });

  test('DELETE /objects/:id/docs/:docId; a document of another object or an id that cannot exist answers 404', async () => {
    const a = await admin.mkObject({ name: 'del-a' });
    const b = await admin.mkObject({ name: 'del-b' });
    const doc = (await upload(`/objects/${a.id}/docs`, curlForm('a.txt', 'text/plain', Buffer.from('a')))).body;
    assertError(await admin.asAdmin('GET', `/objects/${b.id}/docs/${doc.id}/file`), 404, 'ResourceNotFound');
    assertError(await admin.asAdmin('DELETE', `/objects/${b.id}/docs/${doc.id}`), 404, 'ResourceNotFound');
    assertError(await admin.asAdmin('DELETE', `/objects/${a.id}/docs/5f1e0c9a8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f`), 404, 'ResourceNotFound');
    assertError(await admin.asAdmin('GET', `/objects/${a.id}/docs/x/file`), 404, 'ResourceNotFound');
    const del = await admin.asAdmin('DELETE', `/objects/${a.id}/docs/${doc.id}`);
    assert.equal(del.status, 204, del.text);
    assertError(await admin.asAdmin('GET', `/objects/${a.id}/docs/${doc.id}/file`), 404, 'ResourceNotFound');
    assert.deepEqual((await admin.asAdmin('GET', `/objects/${a.id}/docs`)).body, []);
  });

  test('links have documents too (/links/:id/docs)', async () => {
    const a = await admin.mkObject({ name: 'link-end-a' });
    const b = await admin.mkObject({ name: 'link-end-b' });
    const link = await admin.mkLink(a.id, b.id, { name: 'uplink' });
    const res = await upload(`/links/${link.id}/docs`, curlForm('circuit.pdf', 'application/pdf', PDF));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.value, `/node/api/links/${link.id}/docs/${res.body.id}/file`);
    assert.equal((await admin.asAdmin('GET', `/links/${link.id}/docs`)).body[0].name, 'circuit.pdf');
    assert.deepEqual(Buffer.from(await (await fetchValue(res.body.value)).arrayBuffer()), PDF);
    // An object id under /links is not a link.
    assertError(await admin.asAdmin('GET', `/links/${a.id}/docs`), 404, 'ResourceNotFound');
  });

  test('rights: a user without rights reads but cannot add or delete; a hidden object\'s documents are absent', async () => {
    const seen = await admin.mkObject({ name: 'docs-seen' });
    const hidden = await admin.mkObject({ name: 'docs-hidden' });
    const secretUrl = 'https://ops:s3cret@wiki.example.com/page?token=abc';
    const seenDoc = (await admin.asAdmin('POST', `/objects/${seen.id}/docs`, { url: secretUrl })).body;
    const hiddenDoc = (await upload(`/objects/${hidden.id}/docs`, curlForm('h.txt', 'text/plain', Buffer.from('h')))).body;
    await createUser(server, { login: 'docs-reader', password: PW, permissions: [], objectPermissions: { include: [seen.id] } });
    await createUser(server, { login: 'docs-writer', password: PW, permissions: ['modify-objects'], objectPermissions: { include: [seen.id] } });
    const reader = as('docs-reader', PW);
    const writer = as('docs-writer', PW);

    const list = await call(server, 'GET', `/objects/${seen.id}/docs`, { headers: reader });
    assert.equal(list.status, 200, list.text);
    // The URL's credentials and query values are secrets to a reader without manage-service-properties.
    assert.equal(list.body[0].value, 'https://********:********@wiki.example.com/page?token=********');
    assert.equal((await admin.asAdmin('GET', `/objects/${seen.id}/docs`)).body[0].value, secretUrl);
    assertError(await call(server, 'POST', `/objects/${seen.id}/docs`, { headers: reader, body: { url: 'https://x.example/' } }), 403, 'Forbidden', /modify-objects/);
    assertError(await upload(`/objects/${seen.id}/docs`, curlForm('r.txt', 'text/plain', Buffer.from('r')), reader), 403, 'Forbidden');
    assertError(await call(server, 'DELETE', `/objects/${seen.id}/docs/${seenDoc.id}`, { headers: reader }), 403, 'Forbidden');

    for (const headers of [reader, writer]) {
      assertError(await call(server, 'GET', `/objects/${hidden.id}/docs`, { headers }), 404, 'ResourceNotFound');
      assertError(await call(server, 'GET', `/objects/${hidden.id}/docs/${hiddenDoc.id}/file`, { headers }), 404, 'ResourceNotFound');
    }
    assertError(await upload(`/objects/${hidden.id}/docs`, curlForm('w.txt', 'text/plain', Buffer.from('w')), writer), 404, 'ResourceNotFound');
    assertError(await call(server, 'DELETE', `/objects/${hidden.id}/docs/${hiddenDoc.id}`, { headers: writer }), 404, 'ResourceNotFound');

    const added = await upload(`/objects/${seen.id}/docs`, curlForm('w.txt', 'text/plain', Buffer.from('w')), writer);
    assert.equal(added.status, 201, added.text);
    assert.equal((await call(server, 'DELETE', `/objects/${seen.id}/docs/${added.body.id}`, { headers: writer })).status, 204);
  });

  test('stored in the database: documents survive a restart, and go with their object', async () => {
    const obj = await admin.mkObject({ name: 'persist-docs' });
    const doc = (await upload(`/objects/${obj.id}/docs`, curlForm('keep.pdf', 'application/pdf', PDF))).body;
    server = await restart();
    assert.deepEqual(Buffer.from(await (await fetchValue(doc.value)).arrayBuffer()), PDF);

    const del = await admin.asAdmin('DELETE', `/objects/${obj.id}`);
    assert.ok(del.status === 200 || del.status === 204, del.text);
    assertError(await admin.asAdmin('GET', `/objects/${obj.id}/docs/${doc.id}/file`), 404, 'ResourceNotFound');
    // No row left behind in the server's database (SQLite's vigil.db or its PostgreSQL database).
    const left = await serverDbRows<{ n: number }>(server, 'SELECT count(*) AS n FROM entity_docs WHERE id = ?', [Number(doc.id)]);
    assert.deepEqual(left, [{ n: 0 }]);
  });

  test('the OpenAPI document describes the routes', async () => {
    const doc = (await call(server, 'GET', '/openapi.json', { headers: adminAuth })).body;
    for (const p of ['/node/api/objects/{id}/docs', '/node/api/objects/{id}/docs/{docId}', '/node/api/objects/{id}/docs/{docId}/file', '/node/api/links/{id}/docs']) {
      assert.ok(doc.paths[p], `${p} missing`);
    }
    const item = doc.paths['/node/api/objects/{id}/docs'].get.responses['200'].content['application/json'].schema.items;
    for (const f of ['id', 'value', 'name', 'contentType', 'size', 'created']) assert.ok(item.properties[f], f);
    assert.ok(doc.paths['/node/api/objects/{id}/docs'].post.requestBody.content['multipart/form-data']);
  });
});
