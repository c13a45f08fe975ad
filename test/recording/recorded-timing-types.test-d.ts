/**
 * Compile-time checks of recorded timing (tsc over test/): `timing: 'recorded'`, `replaySpeed`
 * and `RecordedChunk` from the package. Never executed: each `// @ts-expect-error` line must fail to compile.
 */
import { defineScenarios, type Mock, type RecordedChunk } from 'scenario-harness';

const chunks: RecordedChunk[] = [
  { text: 'data: {"n":0}\n\n', atMs: 0.7 },
  { text: 'data: {"n":1}\n\n', atMs: 29.1 },
];

export const scenarios = defineScenarios({
  default: {
    name: 'Replayed',
    mocks: [{ id: 'chat', method: 'POST', url: 'https://api.x.test/chat', response: { headers: { 'content-type': 'text/event-stream' }, stream: { timing: 'recorded', replaySpeed: 2, chunks, hold: { afterChunks: 1 } } } }],
  },
});

export const wrong: Mock[] = [
  // @ts-expect-error -- timing is 'recorded' or a StreamTiming object
  { url: '/x', response: { stream: { chunks: ['a'], timing: 'replayed' } } },
  // @ts-expect-error -- replaySpeed is a number (2 = twice as fast)
  { url: '/x', response: { stream: { chunks, timing: 'recorded', replaySpeed: 'fast' } } },
];

// @ts-expect-error -- a recorded chunk has its time
export const untimed: RecordedChunk = { text: 'data: x\n\n' };
