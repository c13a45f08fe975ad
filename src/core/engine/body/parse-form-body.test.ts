import { expect, test } from 'vitest';
import { FORM_LIMITS, parseFormBody } from './parse-form-body.js';

const fields = async (text: string, charset?: 'utf-8' | 'iso-8859-1') => (await parseFormBody(text, charset)).value;

test('bracket keys nest the way Stripe and qs write them', async () => {
  expect(await fields('amount=5000&currency=usd&metadata[order_id]=7&items[0][price]=p_1&items[1][price]=p_2&items[1][quantity]=2')).toEqual({
    amount: '5000',
    currency: 'usd',
    metadata: { order_id: '7' },
    items: [{ price: 'p_1' }, { price: 'p_2', quantity: '2' }],
  });
  // Stripe's encoder percent-encodes the brackets.
  expect(await fields('metadata%5Border_id%5D=7&expand%5B0%5D=customer')).toEqual({ metadata: { order_id: '7' }, expand: ['customer'] });
});

test('+ is a space, %xx is UTF-8, a repeated key is an array, a dot is part of the key', async () => {
  expect(await fields('q=a+b%20c&name=J%C3%BCrgen&tag=x&tag=y&a.b=1&empty=&flag')).toEqual({ q: 'a b c', name: 'Jürgen', tag: ['x', 'y'], 'a.b': '1', empty: '', flag: '' });
  expect(await fields('name=J%FCrgen', 'iso-8859-1')).toEqual({ name: 'Jürgen' });
});

test('a malformed escape stays as written instead of failing the body', async () => {
  expect(await fields('a=%E0%A4%A&b=%zz&c=100%')).toEqual({ a: '%E0%A4%A', b: '%zz', c: '100%' });
});

test('the result is made of ordinary objects, and keys named like Object.prototype members are plain fields', async () => {
  const value = (await fields('constructor=c&toString=t&hasOwnProperty=h&a[valueOf]=v')) as Record<string, unknown>;
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect(Object.getPrototypeOf(value.a)).toBe(Object.prototype);
  expect(value).toEqual({ constructor: 'c', toString: 't', hasOwnProperty: 'h', a: { valueOf: 'v' } });
});

test('__proto__ keys are dropped and reach no prototype', async () => {
  const value = (await fields('__proto__[polluted]=1&a[__proto__][polluted]=1&constructor[prototype][polluted]=1&ok=1')) as Record<string, unknown>;
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.hasOwn(value, '__proto__')).toBe(false);
  expect(value).toEqual({ a: {}, constructor: { prototype: { polluted: '1' } }, ok: '1' });
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
});

test('a body past a limit is refused with the limit named, never truncated', async () => {
  const many = Array.from({ length: FORM_LIMITS.fields + 1 }, (_, i) => `k${i}=v`).join('&');
  await expect(parseFormBody(many)).rejects.toThrow(`the form body is too large to read: it has more than ${FORM_LIMITS.fields} fields`);
  const deep = `a${'[x]'.repeat(FORM_LIMITS.depth + 1)}=1`;
  await expect(parseFormBody(deep)).rejects.toThrow(`a key nests deeper than ${FORM_LIMITS.depth} brackets`);
  await expect(parseFormBody('items[99999999]=1')).rejects.toThrow(`an array index is above ${FORM_LIMITS.arrayIndex}`);
  // At the limits, everything is read.
  expect(await fields(`a${'[x]'.repeat(FORM_LIMITS.depth)}=1`)).toBeTypeOf('object');
  expect(Object.keys((await fields(many.slice(0, many.lastIndexOf('&')))) as object)).toHaveLength(FORM_LIMITS.fields);
});
