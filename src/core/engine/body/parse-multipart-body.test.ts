import { expect, test } from 'vitest';
import { parseMultipartBody } from './parse-multipart-body.js';

/** A FormData encoded the way fetch sends it: the bytes and the content type with its boundary. */
async function encode(form: FormData) {
  const request = new Request('http://x.test/', { method: 'POST', body: form });
  return { contentType: request.headers.get('content-type')!, bytes: new Uint8Array(await request.arrayBuffer()) };
}

test('text fields are strings, file parts are { filename, contentType, size }', async () => {
  const form = new FormData();
  form.set('title', 'Holiday – Zürich');
  form.set('avatar', new File([new Uint8Array(1234)], 'me.png', { type: 'image/png' }));
  const { contentType, bytes } = await encode(form);
  expect(await parseMultipartBody(contentType, bytes)).toEqual({
    format: 'multipart',
    value: { title: 'Holiday – Zürich', avatar: { filename: 'me.png', contentType: 'image/png', size: 1234 } },
  });
});

test('several parts with one name become an array in body order; names are not nested', async () => {
  const form = new FormData();
  form.append('tag', 'a');
  form.append('file', new File(['one'], 'a.txt', { type: 'text/plain' }));
  form.append('tag', 'b');
  form.append('file', new File(['three'], 'b.txt'));
  form.append('meta[id]', '7');
  form.append('tag', 'c');
  const { contentType, bytes } = await encode(form);
  expect((await parseMultipartBody(contentType, bytes)).value).toEqual({
    tag: ['a', 'b', 'c'],
    file: [
      { filename: 'a.txt', contentType: 'text/plain', size: 3 },
      { filename: 'b.txt', contentType: 'application/octet-stream', size: 5 },
    ],
    'meta[id]': '7',
  });
});

test('a part named __proto__ is an own field and reaches no prototype', async () => {
  const form = new FormData();
  form.append('__proto__', 'x');
  form.append('__proto__', 'y');
  form.append('constructor', 'c');
  const { contentType, bytes } = await encode(form);
  const value = (await parseMultipartBody(contentType, bytes)).value as Record<string, unknown>;
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect(Object.hasOwn(value, '__proto__') && value['__proto__']).toEqual(['x', 'y']);
  expect(value.constructor).toBe('c');
});

test('a body written by hand (other clients, curl) reads the same; a file part without a type is text/plain', async () => {
  const body = [
    '--XyZ123',
    'Content-Disposition: form-data; name="purpose"',
    '',
    'dispute_evidence',
    '--XyZ123',
    'content-disposition: form-data; name="file"; filename="receipt.pdf"',
    '',
    '%PDF-1.4',
    '--XyZ123--',
    '',
  ].join('\r\n');
  expect((await parseMultipartBody('multipart/form-data; boundary="XyZ123"', body)).value).toEqual({
    purpose: 'dispute_evidence',
    file: { filename: 'receipt.pdf', contentType: 'text/plain', size: 8 },
  });
});

test('a malformed body is kept as text, never a crash', async () => {
  const cut = '--XyZ123\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue-without-end';
  expect(await parseMultipartBody('multipart/form-data; boundary=XyZ123', new TextEncoder().encode(cut))).toEqual({ format: 'text', value: cut });
  expect(await parseMultipartBody('multipart/form-data', 'no boundary')).toEqual({ format: 'text', value: 'no boundary' });
  expect(await parseMultipartBody('multipart/form-data; boundary=zz', '{"json":"instead"}')).toEqual({ format: 'text', value: '{"json":"instead"}' });
});
