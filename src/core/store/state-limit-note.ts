import { quote } from '../dev-utils.js';
import type { StateRefusal } from './session-store.js';

/** What to do about a state past `limits.maxStateBytes`, said the same way in every message. */
const REMEDY = 'Keep less in state (IDs and totals rather than whole request bodies), clear it by switching the test\'s scenario or ending the test, or raise createHarness({ limits: { maxStateBytes } })';

/** The 413 of a seed past the bound (`POST /__harness__/state`, `harness.setState`): the error and the `x-harness-hint`. */
export function stateSeedRefusal(testId: string, refusal: StateRefusal, maxStateBytes: number): { error: string; hint: string } {
  return {
    error: `Failed to set the state of test ${quote(testId)}: it holds ${refusal.bytes} bytes and these keys would add ${refusal.adding} more, past limits.maxStateBytes (${maxStateBytes}). Nothing was changed. ${REMEDY}.`,
    hint: `limits.maxStateBytes (${maxStateBytes}) bounds one test's state, its keys and values measured as JSON; a switch or the end of the test clears it.`,
  };
}

/** The log line of a mock's `afterResponse.setState` past the bound: the call was still answered. */
export function setStateRefusalNote(testId: string, refusal: StateRefusal, maxStateBytes: number, mock: string, call: string): string {
  return `The state of test ${quote(testId)} holds ${refusal.bytes} bytes, and the setState of mock ${mock} for ${call} would add ${refusal.adding} more, past limits.maxStateBytes (${maxStateBytes}): the state was left as it was and the call was answered (logged once per test). ${REMEDY}.`;
}
