import type { RecordedExchange, RecordMode } from '../../recording/recorded-exchange.js';
import type { SessionStore } from '../session-store.js';
import { touch } from './sessions.js';
import type { MemoryStoreState } from './store-state.js';

export type RecordingMethods = Required<Pick<SessionStore, 'setRecording' | 'appendRecorded' | 'readRecorded'>>;

/** A recording test's mode and the exchanges it captured, the newest `maxEntries` kept. */
export function recordingMethods(state: MemoryStoreState): RecordingMethods {
  return {
    async setRecording(testId, mode: RecordMode | undefined) {
      const session = touch(state, testId, true);
      session.recording = mode;
    },
    async appendRecorded(testId, exchange: RecordedExchange, maxEntries: number) {
      const session = touch(state, testId, true);
      session.recorded ??= [];
      session.recorded.push(exchange);
      if (session.recorded.length > maxEntries) session.recorded.splice(0, session.recorded.length - maxEntries);
    },
    async readRecorded(testId, { clear = false } = {}) {
      const session = touch(state, testId, false);
      const recorded = [...(session?.recorded ?? [])];
      if (clear && session !== undefined) session.recorded = undefined;
      return recorded;
    },
  };
}
