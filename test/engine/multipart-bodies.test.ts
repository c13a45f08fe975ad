import axios from 'axios';
import { expect, test } from 'vitest';
import { json, startHarness } from './with-harness.js';

const UPLOADS = 'https://files.x.test/v1/uploads';

const scenarios = {
  default: {
    name: 'Uploads',
    mocks: [
      {
        method: 'POST' as const,
        url: UPLOADS,
        match: { body: { purpose: 'receipt', file: { filename: { endsWith: '.pdf' }, contentType: 'application/pdf' } } },
        response: { status: 201, body: { id: 'file_1', name: '{{body.file.filename}}', bytes: '{{body.file.size}}', purpose: '{{body.purpose}}' } },
        afterResponse: { setState: { 'uploads[]': '{{body.file}}' } },
      },
      {
        method: 'POST' as const,
        url: UPLOADS,
        match: { body: { purpose: 'gallery', photo: [{ contentType: 'image/png' }, { contentType: 'image/png' }] } },
        response: { status: 201, body: { count: 2, tags: '{{body.tag}}', first: '{{body.photo.0.filename}}' } },
      },
      { method: 'POST' as const, url: UPLOADS, response: { status: 415, body: { error: 'unsupported upload' } } },
    ],
  },
};

test('a fetch FormData upload matches its text fields and its file part by filename, type and size', async () => {
  const { harness, asTest } = await startHarness(scenarios);
  await asTest(undefined, async (testId) => {
    const form = new FormData();
    form.set('purpose', 'receipt');
    form.set('file', new File(['%PDF-1.7 fake receipt'], 'receipt-2024.pdf', { type: 'application/pdf' }));
    expect(await json(UPLOADS, { method: 'POST', body: form })).toEqual({
      status: 201,
      // A file part's size is a number: an exact template keeps its type.
      body: { id: 'file_1', name: 'receipt-2024.pdf', bytes: 21, purpose: 'receipt' },
    });
    expect(await harness.getState(testId)).toEqual({ uploads: [{ filename: 'receipt-2024.pdf', contentType: 'application/pdf', size: 21 }] });

    const wrongType = new FormData();
    wrongType.set('purpose', 'receipt');
    wrongType.set('file', new File(['x'], 'receipt.pdf', { type: 'text/plain' }));
    expect((await json(UPLOADS, { method: 'POST', body: wrongType })).status).toBe(415);
  });
});

test('the same upload through node:http (axios) reads the same', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    const form = new FormData();
    form.set('purpose', 'receipt');
    form.set('file', new File(['%PDF-1.7'], 'r.pdf', { type: 'application/pdf' }));
    const response = await axios.post(UPLOADS, form);
    expect([response.status, response.data]).toEqual([201, { id: 'file_1', name: 'r.pdf', bytes: 8, purpose: 'receipt' }]);
  });
});

test('several parts with one name are an array, for matching and for templates', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    const form = new FormData();
    form.append('purpose', 'gallery');
    form.append('photo', new Blob([new Uint8Array(10)], { type: 'image/png' }), 'a.png');
    form.append('tag', 'beach');
    form.append('photo', new Blob([new Uint8Array(20)], { type: 'image/png' }), 'b.png');
    form.append('tag', 'sunset');
    expect(await json(UPLOADS, { method: 'POST', body: form })).toEqual({ status: 201, body: { count: 2, tags: ['beach', 'sunset'], first: 'a.png' } });
  });
});

test('a malformed multipart body answers from the mocks that do not need its fields, without crashing', async () => {
  const { asTest, logs } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    const response = await fetch(UPLOADS, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=XyZ123' }, body: '--XyZ123\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nreceipt' });
    expect(response.status).toBe(415);
  });
  expect(logs).toEqual([]);
});
