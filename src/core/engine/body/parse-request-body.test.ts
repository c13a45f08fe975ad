import { expect, test } from 'vitest';
import { parseRequestBody } from './parse-request-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

test('an empty body is undefined, whatever the content type', async () => {
  expect(await parseRequestBody('application/json', new Uint8Array())).toBeUndefined();
  expect(await parseRequestBody('application/x-www-form-urlencoded', '')).toBeUndefined();
  expect(await parseRequestBody(null, '')).toBeUndefined();
});

test('JSON parses whatever the content type says; anything else stays text', async () => {
  expect(await parseRequestBody('application/json; charset=utf-8', bytes('{"a":[1,true,null]}'))).toEqual({ format: 'json', value: { a: [1, true, null] } });
  expect(await parseRequestBody('text/plain', '{"a":1}')).toEqual({ format: 'json', value: { a: 1 } });
  expect(await parseRequestBody(null, bytes('[1]'))).toEqual({ format: 'json', value: [1] });
  expect(await parseRequestBody('application/xml', bytes('<a>1</a>'))).toEqual({ format: 'text', value: '<a>1</a>' });
  expect(await parseRequestBody('application/json', bytes('{"broken":'))).toEqual({ format: 'text', value: '{"broken":' });
});

test('the charset in the content type decodes text bodies; an unknown one falls back to UTF-8', async () => {
  expect(await parseRequestBody('text/plain; charset=iso-8859-1', new Uint8Array([0x4a, 0xfc, 0x72]))).toEqual({ format: 'text', value: 'Jür' });
  expect(await parseRequestBody('text/plain; charset=utf-16le', new Uint8Array([0x68, 0x00, 0x69, 0x00]))).toEqual({ format: 'text', value: 'hi' });
  expect(await parseRequestBody('text/plain; charset=no-such-charset', bytes('Jür'))).toEqual({ format: 'text', value: 'Jür' });
});

test('form bodies are fields, also with a charset parameter and odd casing', async () => {
  expect(await parseRequestBody('application/x-www-form-urlencoded;charset=UTF-8', bytes('grant_type=client_credentials&scope=read+write'))).toEqual({
    format: 'form',
    value: { grant_type: 'client_credentials', scope: 'read write' },
  });
  expect(await parseRequestBody('Application/X-WWW-Form-Urlencoded; charset=ISO-8859-1', bytes('name=J%FCrgen'))).toEqual({ format: 'form', value: { name: 'Jürgen' } });
  // A form body that happens to look like JSON is still a form.
  expect(await parseRequestBody('application/x-www-form-urlencoded', bytes('{"a":1}'))).toEqual({ format: 'form', value: { '{"a":1}': '' } });
});

test('multipart bodies are fields by name', async () => {
  const request = new Request('http://x.test/', { method: 'POST', body: (() => { const f = new FormData(); f.set('a', '1'); return f; })() });
  const body = new Uint8Array(await request.arrayBuffer());
  expect(await parseRequestBody(request.headers.get('content-type'), body)).toEqual({ format: 'multipart', value: { a: '1' } });
});

test('a form body past the limits is refused with a message that says why', async () => {
  await expect(parseRequestBody('application/x-www-form-urlencoded', `a${'[b]'.repeat(50)}=1`)).rejects.toThrow(/^the form body is too large to read: a key nests deeper than \d+ brackets$/);
});
