/**
 * Two Playwright workers hold different streams of the same URL at once, with no crosstalk
 * (issue 40, item 7): each test gives the chat mock (`id: 'chat'`, the same OpenAI URL) its own
 * text with `harness.use`, holds it after three words, and only when BOTH are held does either
 * release its own. Each page shows its own words, partial then whole, and never the other's.
 * The two tests meet through a third test ID's state in the same app (a barrier the harness
 * itself keeps), so the overlap is checked, not hoped for.
 */
import { createHarnessClient } from 'scenario-harness/client';
import { expect, test } from '../../../examples/llm-chat/tests/fixtures.js';

const TEXTS = {
  north: 'Oslo lies far north in Norway, by a fjord.',
  south: 'Cape Town lies far south in Africa, by the sea.',
} as const;
type Side = keyof typeof TEXTS;

test.describe.configure({ mode: 'parallel' });

for (const [side, other] of [['north', 'south'], ['south', 'north']] as [Side, Side][]) {
  test(`the ${side} test holds and releases only its own stream`, async ({ page, harness, baseURL }, testInfo) => {
    test.skip(testInfo.config.workers < 2, 'needs two workers to hold two streams at once');
    await harness.use({
      id: 'chat',
      method: 'POST',
      url: 'https://api.openai.com/v1/chat/completions',
      response: { llm: { api: 'openai.chat', text: TEXTS[side], hold: { afterChunks: 3 } } },
    });
    await page.goto('/');
    await page.getByLabel('Message').fill(`Where is ${side}?`);
    await page.getByRole('button', { name: 'Send' }).click();

    const held = await harness.waitForStream('chat', { state: 'held' });
    expect(held.url).toBe('https://api.openai.com/v1/chat/completions');
    const partial = TEXTS[side].split(' ').slice(0, 3).join(' ');
    await expect(page.getByTestId('answer')).toHaveText(partial);

    // Wait until the other test's stream is held too (same app, same URL, same mock id).
    const barrier = createHarnessClient({ baseURL: baseURL!, testId: `llm-chat-barrier-${testInfo.repeatEachIndex}` });
    await barrier.setState({ [side]: 'held' });
    await barrier.waitForState((state) => state[other] === 'held', { timeout: 20_000 });

    // This test sees one stream, its own, still held; the other test's is not in its list.
    expect((await harness.streams()).map((stream) => [stream.id, stream.state])).toEqual([['chat', 'held']]);
    await expect(page.getByTestId('answer')).toHaveText(partial);

    await harness.releaseStream('chat');
    await expect(page.getByTestId('answer')).toHaveText(TEXTS[side]);
    await expect(page.getByText(TEXTS[other].split(' ')[0]!)).toHaveCount(0);
    expect((await harness.streams()).map((stream) => [stream.id, stream.state])).toEqual([['chat', 'complete']]);
  });
}
