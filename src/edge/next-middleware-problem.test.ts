import { expect, test } from 'vitest';
import { nextMiddlewareProblem } from './next-middleware-problem.js';

test('Next.js 15.0 to 15.4 get a message naming the release found and the one harnessProxy needs', () => {
  for (const version of ['15.0.0', '15.2.3', '15.4.7', '15.3.0-canary.12']) {
    const message = nextMiddlewareProblem(version);
    expect(message).toContain(`Next.js ${version} runs middleware on the edge runtime only`);
    expect(message).toContain('from Next.js 15.5.0');
    expect(message).toContain('harnessRouteHandlers');
  }
});

test('releases whose middleware or proxy runs on Node.js, and unknown ones, get none', () => {
  for (const version of ['15.5.0', '15.5.29', '16.0.0', '16.4.6', '17.0.0', 'not a version', undefined]) expect(nextMiddlewareProblem(version)).toBeUndefined();
});
