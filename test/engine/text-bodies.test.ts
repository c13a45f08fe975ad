import { expect, test } from 'vitest';
import { startHarness } from './with-harness.js';

test('an XML or plain-text body stays text: string matchers test it whole and {{body}} is the text', async () => {
  const { asTest } = await startHarness({
    default: {
      name: 'SOAP',
      mocks: [
        { method: 'POST' as const, url: 'https://soap.x.test/orders', match: { body: { contains: '<orderId>7</orderId>' } }, response: { body: 'order 7 <- {{body}}' } },
        { method: 'POST' as const, url: 'https://soap.x.test/orders', match: { body: /^PING$/ }, response: { body: 'PONG' } },
        { method: 'POST' as const, url: 'https://soap.x.test/orders', response: { status: 404, body: 'no such order' } },
      ],
    },
  });
  await asTest(undefined, async () => {
    const send = async (body: string, type: string) => {
      const response = await fetch('https://soap.x.test/orders', { method: 'POST', headers: { 'content-type': type }, body });
      return `${response.status} ${await response.text()}`;
    };
    expect(await send('<order><orderId>7</orderId></order>', 'application/xml; charset=utf-8')).toBe('200 order 7 <- <order><orderId>7</orderId></order>');
    expect(await send('PING', 'text/plain')).toBe('200 PONG');
    expect(await send('<order><orderId>8</orderId></order>', 'text/xml')).toBe('404 no such order');
  });
});
