import { expect, test } from 'vitest';
import { firstTimeFor } from './first-time.js';

test('a key is new once; past the bound the check starts over', () => {
  const firstTime = firstTimeFor(2);
  expect([firstTime('a'), firstTime('a'), firstTime('b'), firstTime('b')]).toEqual([true, false, true, false]);
  // 'c' finds the check full: it forgets 'a' and 'b', so each is new once more.
  expect([firstTime('c'), firstTime('a'), firstTime('c')]).toEqual([true, true, false]);
});
