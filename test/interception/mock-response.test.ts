/**
 * A mocked fetch call answers with a Response that keeps its body as text or bytes until it is
 * read (no web stream unless something asks for `body`). Every part of the Response contract an
 * app can see must be the same as for a Response built the ordinary way from the same reply.
 */
import { Readable } from 'node:stream';
import { text as readAll } from 'node:stream/consumers';
import { inspect } from 'node:util';
import { expect, test } from 'vitest';
import { startHarness } from '../engine/with-harness.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const scenarios = {
  default: { name: 'Default', mocks: [] },
  bodies: {
    name: 'Bodies',
    mocks: [
      { url: 'https://api.res.test/json', response: { body: { n: 1, s: 'é' } } },
      { url: 'https://api.res.test/text', response: { body: 'plain words' } },
      { url: 'https://api.res.test/typed', response: { headers: { 'content-type': 'text/csv' }, body: 'a,b' } },
      { url: 'https://api.res.test/png', response: { headers: { 'content-type': 'image/png' }, bodyBase64: PNG.toString('base64') } },
      { url: 'https://api.res.test/form', response: { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=two' } },
      { url: 'https://api.res.test/empty', response: { status: 204 } },
    ],
  },
};

async function asBodies<T>(fn: () => Promise<T>): Promise<T> {
  const { asTest } = await startHarness(scenarios);
  return asTest('bodies', fn);
}

test('every way of reading a mocked body gives what a Response built from the same reply gives', async () => {
  await asBodies(async () => {
    const json = await fetch('https://api.res.test/json');
    expect([json.status, json.statusText, json.url, json.headers.get('content-type')]).toEqual([200, 'OK', 'https://api.res.test/json', 'application/json']);
    expect(await json.json()).toEqual({ n: 1, s: 'é' });
    expect(await (await fetch('https://api.res.test/json')).text()).toBe('{"n":1,"s":"é"}');
    expect(new TextDecoder().decode(await (await fetch('https://api.res.test/json')).arrayBuffer())).toBe('{"n":1,"s":"é"}');
    expect(await (await fetch('https://api.res.test/json')).bytes()).toEqual(new TextEncoder().encode('{"n":1,"s":"é"}'));
    const blob = await (await fetch('https://api.res.test/typed')).blob();
    expect([blob.type, await blob.text()]).toEqual(['text/csv', 'a,b']);
    const text = await fetch('https://api.res.test/text');
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await text.text()).toBe('plain words');
    expect(Buffer.from(await (await fetch('https://api.res.test/png')).arrayBuffer())).toEqual(PNG);
    const form = await (await fetch('https://api.res.test/form')).formData();
    expect([form.get('a'), form.get('b')]).toEqual(['1', 'two']);
    const empty = await fetch('https://api.res.test/empty');
    expect([empty.status, empty.body, await empty.text()]).toEqual([204, null, '']);
  });
});

test('a body is read once: bodyUsed turns true and a second read fails as on any Response', async () => {
  await asBodies(async () => {
    const response = await fetch('https://api.res.test/json');
    expect(response.bodyUsed).toBe(false);
    await response.json();
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
    expect(response.body).not.toBeNull();
  });
});

test('the body stream, when asked for, holds the bytes; reading it uses the body up', async () => {
  await asBodies(async () => {
    const response = await fetch('https://api.res.test/json');
    expect(response.body).toBeInstanceOf(ReadableStream);
    expect(response.bodyUsed).toBe(false);
    expect(await readAll(Readable.fromWeb(response.body! as import('node:stream/web').ReadableStream))).toBe('{"n":1,"s":"é"}');
    expect(response.bodyUsed).toBe(true);
    await expect(response.json()).rejects.toThrow(TypeError);
  });
});

test('clones read independently, before and after the stream was asked for, and keep the URL', async () => {
  await asBodies(async () => {
    const response = await fetch('https://api.res.test/json');
    const copy = response.clone();
    expect([await copy.json(), await response.json(), copy.url]).toEqual([{ n: 1, s: 'é' }, { n: 1, s: 'é' }, 'https://api.res.test/json']);
    const streamed = await fetch('https://api.res.test/text');
    expect(streamed.body).not.toBeNull();
    const streamedCopy = streamed.clone();
    expect([await streamed.text(), await streamedCopy.text(), streamedCopy.url]).toEqual(['plain words', 'plain words', 'https://api.res.test/text']);
  });
});

test('bytes handed to the app are its own: changing them does not change the next answer', async () => {
  await asBodies(async () => {
    const first = new Uint8Array(await (await fetch('https://api.res.test/png')).arrayBuffer());
    first.fill(0);
    const second = await (await fetch('https://api.res.test/png')).bytes();
    second.fill(0);
    expect(Buffer.from(await (await fetch('https://api.res.test/png')).arrayBuffer())).toEqual(PNG);
  });
});

test('headers, made when first asked for, are one object that every view of the Response shows', async () => {
  await asBodies(async () => {
    const response = await fetch('https://api.res.test/typed');
    expect(response.headers).toBe(response.headers);
    expect([...response.headers]).toEqual([['content-type', 'text/csv']]);
    // What a debugging log prints, and what a Response built from this one (a proxying route) keeps.
    expect(inspect(response)).toMatch(/'content-type'(:| =>) 'text\/csv'/);
    expect(new Response('x', response).headers.get('content-type')).toBe('text/csv');
    expect(response.clone().headers.get('content-type')).toBe('text/csv');
    const streamed = await fetch('https://api.res.test/typed');
    expect(streamed.body).not.toBeNull();
    expect([streamed.headers.get('content-type'), await streamed.text()]).toEqual(['text/csv', 'a,b']);
    // Headers are read before and after the body alike.
    const read = await fetch('https://api.res.test/json');
    await read.json();
    expect(read.headers.get('content-type')).toBe('application/json');
  });
});
