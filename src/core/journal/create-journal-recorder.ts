import type { Logger } from '../dev-utils.js';
import { parseRequestBody } from '../engine/body/parse-request-body.js';
import type { CompiledMock } from '../engine/compile-mock.js';
import type { MockReply } from '../interception/mock-reply.js';
import type { OutgoingCall } from '../interception/outgoing-call.js';
import type { SessionStore } from '../store/session-store.js';
import { storeNowOf } from '../store/store-now.js';
import { filterCalls } from './filter-calls.js';
import type { JournalEntry, JournalFilter, JournalOptions } from './journal-entry.js';
import { createHeaderRedactor } from './redact-headers.js';

export const DEFAULT_JOURNAL = Object.freeze({ maxEntries: 100, maxBodyBytes: 8192 });

/** A body larger than this is not read for the journal at all: a streamed upload stays a stream. */
const MAX_READ_FOR_JOURNAL = 1024 * 1024;

let lastIsoMs = NaN;
let lastIso = '';

/** `new Date(ms).toISOString()`, reused within a millisecond: calls under load share one. */
function isoTime(ms: number): string {
  const whole = Math.floor(ms);
  if (whole !== lastIsoMs) {
    lastIso = new Date(whole).toISOString();
    lastIsoMs = whole;
  }
  return lastIso;
}

/** True for the methods whose calls the journal records without reading a body. */
export function hasNoBodyToRead(call: OutgoingCall): boolean {
  return call.method === 'GET' || call.method === 'HEAD';
}

/** How an answered call is recorded. */
export interface AnsweredCall {
  mock: CompiledMock;
  step: number | undefined;
  reply: MockReply;
  /** The scenario the test had selected (`undefined`: none, so `default`). */
  activeScenarioId: string | undefined;
}

export interface JournalRecorder {
  readonly explainAnswered: boolean;
  /** Synchronous (returns `undefined`) for a call that has no body to read: see `hasNoBodyToRead`. */
  answered(testId: string, call: OutgoingCall, answer: AnsweredCall, startedAt: number, nearMisses?: string[]): Promise<void> | undefined;
  unanswered(testId: string, call: OutgoingCall, action: NonNullable<JournalEntry['unhandled']>, startedAt: number, nearMisses: string[]): Promise<void> | undefined;
  read(testId: string, filter?: JournalFilter): Promise<JournalEntry[]>;
  clear(testId: string): Promise<void>;
}

/**
 * The per-test call journal: builds an entry for every intercepted call and appends it to the
 * test's session in the store. `undefined` when the journal is off or the store keeps none.
 */
export function createJournalRecorder(options: JournalOptions | false | undefined, store: SessionStore, logger: Logger): JournalRecorder | undefined {
  if (options === false || options?.enabled === false) return undefined;
  const { appendCall, readCalls, clearCalls } = store;
  if (appendCall === undefined || readCalls === undefined || clearCalls === undefined) return undefined;
  const maxEntries = options?.maxEntries ?? DEFAULT_JOURNAL.maxEntries;
  const maxBodyBytes = options?.maxBodyBytes ?? DEFAULT_JOURNAL.maxBodyBytes;
  const redact = createHeaderRedactor(options?.redactHeaders ?? []);
  let warned = false;

  async function requestBody(call: OutgoingCall): Promise<Pick<JournalEntry, 'requestBody' | 'requestBodyTruncated'>> {
    const length = Number(call.headers.get('content-length') ?? 0);
    if (length > MAX_READ_FOR_JOURNAL && !call.bodyConsumed) return { requestBody: `[not recorded: ${length} bytes]`, requestBodyTruncated: true };
    const bytes = await call.bodyBytes();
    if (bytes === undefined) return {};
    if (bytes.byteLength > maxBodyBytes) {
      return { requestBody: Buffer.from(bytes.buffer, bytes.byteOffset, maxBodyBytes).toString('utf8'), requestBodyTruncated: true };
    }
    const parsed = await parseRequestBody(call.headers.get('content-type'), bytes).catch(() => undefined);
    return parsed === undefined ? {} : { requestBody: parsed.value };
  }

  function append(testId: string, call: OutgoingCall, fields: Omit<JournalEntry, 'at' | 'method' | 'url' | 'requestHeaders'>, atMs: number): Promise<void> | undefined {
    const at = isoTime(atMs);
    const requestHeaders = redact(call.headers);
    // @note One literal each: spreading two objects into a new one (`{ ...head, ...fields }`)
    // takes V8's slow path in Node 20 (≈3 µs a call, measured), a literal with spreads does not.
    if (hasNoBodyToRead(call)) return keep(testId, { at, method: call.method, url: call.url.href, requestHeaders, ...fields });
    return requestBody(call).then((body) => keep(testId, { at, method: call.method, url: call.url.href, requestHeaders, ...body, ...fields }));
  }

  const appendNow = storeNowOf(store)?.appendCall;

  function keep(testId: string, entry: JournalEntry): undefined {
    if (appendNow !== undefined) {
      appendNow(testId, entry, maxEntries);
      return undefined;
    }
    // Not awaited: the call does not wait for the store (for Redis, the append goes out pipelined
    // behind the session read, so a plain call still costs one round trip). A journal read on the
    // same connection is queued after it. The journal is a debugging aid: a store that cannot
    // take it must not fail the call.
    appendCall!.call(store, testId, entry, maxEntries).catch((error: unknown) => {
      if (!warned) logger.warn(`Failed to record a call in the journal of test "${testId}": ${(error as Error).message} (logged once).`);
      warned = true;
    });
    return undefined;
  }

  const elapsed = (startedAt: number) => Math.round((performance.now() - startedAt) * 100) / 100;
  const wallClock = (startedAt: number) => Date.now() - (performance.now() - startedAt);

  return {
    explainAnswered: options?.explainAnswered ?? false,
    answered(testId, call, { mock, step, reply, activeScenarioId }, startedAt, nearMisses) {
      const layer = mock.variant !== undefined ? 'variant' : mock.scenarioId === (activeScenarioId ?? 'default') ? 'scenario' : 'default';
      return append(
        testId,
        call,
        {
          answered: true,
          scenarioId: mock.scenarioId,
          ...(mock.variant === undefined ? {} : { variant: mock.variant }),
          layer,
          mockIndex: mock.order,
          ...(mock.id === undefined ? {} : { mockId: mock.id }),
          ...(reply.fault === undefined ? { status: reply.status } : { fault: reply.fault }),
          ...(reply.delay > 0 ? { delayMs: reply.delay } : {}),
          ...(step === undefined ? {} : { step }),
          durationMs: elapsed(startedAt) + reply.delay,
          ...(nearMisses === undefined ? {} : { nearMisses }),
        },
        wallClock(startedAt),
      );
    },
    unanswered(testId, call, action, startedAt, nearMisses) {
      return append(testId, call, { answered: false, unhandled: action, durationMs: elapsed(startedAt), nearMisses }, wallClock(startedAt));
    },
    async read(testId, filter) {
      return filterCalls(await readCalls.call(store, testId), filter);
    },
    clear: (testId) => clearCalls.call(store, testId),
  };
}
