import type { Logger } from '../dev-utils.js';
import { DEFAULT_SCENARIO_ID } from '../constants.js';
import { parseRequestBody } from '../engine/body/parse-request-body.js';
import type { CompiledMock } from '../engine/compile-mock.js';
import type { OutgoingCall } from '../interception/outgoing-call.js';
import type { CallRecord, SocketEvent } from '../parts/call-steps.js';
import type { SessionStore } from '../store/session-store.js';
import { storeNowOf } from '../store/store-now.js';
import { filterCalls } from './filter-calls.js';
import type { JournalEntry, JournalFilter, JournalOptions, JournalSocket } from './journal-entry.js';
import { createHeaderRedactor } from './redact-headers.js';
import { boundEntry } from './bound-entry.js';
import { sortEntryHeaders } from './sort-entry-headers.js';
import { keptStream, withStreamProgress } from './stream-progress.js';

export const DEFAULT_JOURNAL = Object.freeze({ maxEntries: 100, maxBodyBytes: 8192, maxEntryBytes: 32 * 1024, maxTotalBytes: 64 * 1024 * 1024 });

/**
 * A body larger than this is not read for the journal: one that says so in its `content-length`
 * is not read at all, and reading any other (chunked, a stream) stops past this many bytes, so
 * an upload stays a stream whatever its framing.
 */
const MAX_READ_FOR_JOURNAL = 1024 * 1024;

/** A request body as the journal keeps it, with its text for when the parsed form is too big to keep. */
type KeptBody = Pick<JournalEntry, 'requestBody' | 'requestBodyTruncated'> & { text?: () => string };

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

/** An entry before its duration is known (set last but `nearMisses`, so it is shown there). */
type EntryDraft = Omit<JournalEntry, 'durationMs'> & { durationMs?: number };

/** Which layer of the test's scenarios a mock answered from. */
function layerOf(mock: CompiledMock, activeScenarioId: string | undefined): NonNullable<JournalEntry['layer']> {
  if (mock.own) return 'test';
  if (mock.variant !== undefined) return 'variant';
  return mock.scenarioId === (activeScenarioId ?? 'default') ? 'scenario' : 'default';
}

/** The scenario an entry names: a test's own mock belongs to none, so the one the test had selected. */
function scenarioOf(mock: CompiledMock, activeScenarioId: string | undefined): string {
  return mock.own ? (activeScenarioId ?? DEFAULT_SCENARIO_ID) : mock.scenarioId;
}

/** Milliseconds to two decimals, as the journal shows durations. */
const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/**
 * The entry with its request body placed after the request headers, where the journal shows it.
 * A call with a body to read is already the slower path; this copy is not on the common one.
 */
function withBody(entry: JournalEntry, { requestBody, requestBodyTruncated }: KeptBody): JournalEntry {
  if (requestBody === undefined && requestBodyTruncated === undefined) return entry;
  const { at, method, url, requestHeaders, ...rest } = entry;
  return requestBodyTruncated === undefined
    ? { at, method, url, requestHeaders, requestBody, ...rest }
    : { at, method, url, requestHeaders, requestBody, requestBodyTruncated, ...rest };
}

/**
 * A frame as the journal keeps it: its size, text as text, binary as base64, cut at
 * `maxBodyBytes`. A text frame under the bound is kept as it came: no bytes are copied or decoded
 * (every frame a test's socket carries goes through here).
 */
function frameData(data: string | Buffer, binary: boolean, maxBodyBytes: number): { size: number; data: string; cut: boolean } {
  if (typeof data === 'string') {
    const size = Buffer.byteLength(data);
    if (size <= maxBodyBytes && !binary) return { size, data, cut: false };
    const bytes = Buffer.from(data);
    return frameData(bytes, binary, maxBodyBytes);
  }
  const size = data.byteLength;
  const kept = size > maxBodyBytes ? data.subarray(0, maxBodyBytes) : data;
  return { size, data: binary ? kept.toString('base64') : kept.toString('utf8'), cut: kept !== data };
}

/** The journal entry of one socket event. */
function socketEntry(event: SocketEvent, redact: (entries: Iterable<[string, string]>) => Record<string, string>, maxBodyBytes: number): JournalEntry {
  let socket: JournalSocket;
  if (event.kind === 'socket.frame' && event.data !== undefined) {
    // One literal, fields in the journal's order: a frame entry is the one made most often.
    const { size, data, cut } = frameData(event.data, event.binary === true, maxBodyBytes);
    socket = { id: event.socketId, connection: event.connection, direction: event.direction, opcode: event.binary === true ? 'binary' : 'text', size, data };
    if (cut) socket.dataTruncated = true;
    if (event.rule !== undefined) socket.rule = event.rule;
    if (event.nearMisses !== undefined) socket.nearMisses = event.nearMisses;
  } else {
    socket = { id: event.socketId, connection: event.connection };
    if (event.protocol !== undefined && event.kind === 'socket.open') socket.protocol = event.protocol;
  }
  if (event.outsideTest === true) socket.outsideTest = true;
  if (event.kind === 'socket.close') {
    socket.code = event.code;
    socket.reason = event.reason;
    socket.closedBy = event.closedBy;
  }
  const entry: JournalEntry = { at: isoTime(Date.now()), kind: event.kind, method: 'GET', url: event.url, side: event.side, requestHeaders: event.kind === 'socket.open' && event.headers !== undefined ? redact(event.headers.entries()) : {}, answered: true, durationMs: 0, socket };
  if (event.scenarioId !== undefined) entry.scenarioId = event.scenarioId;
  if (event.variant !== undefined) entry.variant = event.variant;
  if (event.layer !== undefined) entry.layer = event.layer;
  return entry;
}

/** The journal's step on the call path (`answered` is synchronous for a call with no body to read: see `hasNoBodyToRead`), and what its route and methods read. */
export interface JournalRecorder extends CallRecord {
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
  const maxEntryBytes = options?.maxEntryBytes ?? DEFAULT_JOURNAL.maxEntryBytes;
  const bounds = { maxTotalBytes: options?.maxTotalBytes ?? DEFAULT_JOURNAL.maxTotalBytes };
  const redact = createHeaderRedactor(options?.redactHeaders ?? []);
  let warned = false;
  let warnedTotal = false;

  async function requestBody(call: OutgoingCall): Promise<KeptBody> {
    const length = Number(call.headers.get('content-length') ?? 0);
    if (length > MAX_READ_FOR_JOURNAL && !call.bodyConsumed) return { requestBody: `[not recorded: ${length} bytes]`, requestBodyTruncated: true };
    // Only the head: a chunked upload without a length is not buffered whole for the journal.
    const head = await call.bodyHead(MAX_READ_FOR_JOURNAL);
    if (head === undefined) return {};
    if (!head.complete) return { requestBody: `[not recorded: more than ${MAX_READ_FOR_JOURNAL} bytes]`, requestBodyTruncated: true };
    const { bytes } = head;
    if (bytes.byteLength > maxBodyBytes) {
      return { requestBody: Buffer.from(bytes.buffer, bytes.byteOffset, maxBodyBytes).toString('utf8'), requestBodyTruncated: true };
    }
    const parsed = await parseRequestBody(call.headers.get('content-type'), bytes).catch(() => undefined);
    return parsed === undefined ? {} : { requestBody: parsed.value, text: () => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
  }

  /**
   * The entry's head: when, what, to where. The fields after it are added one assignment at a
   * time, in the order the journal shows them.
   * @note Not object spreads: an answered entry built with `...(cond ? {} : { x })` in one literal
   * costs almost three times as much on Node 22, 24 and 26 (≈ 57 ns against ≈ 20 ns, measured),
   * on every intercepted call.
   */
  function head(call: OutgoingCall, atMs: number): EntryDraft {
    if (call.side !== undefined) return { at: isoTime(atMs), method: call.method, url: call.url.href, side: call.side, requestHeaders: redact(call.headerEntries()), answered: false };
    return { at: isoTime(atMs), method: call.method, url: call.url.href, requestHeaders: redact(call.headerEntries()), answered: false };
  }

  /**
   * The entry of the common answer (no variant, fault, delay, sequence or near misses) as one
   * literal, fields in the journal's order: its fields are stored in the object itself, where
   * fields added one by one go to a second array (≈ 40 B more an entry, and a journal keeps
   * `maxEntries` of them for every live test).
   */
  function plainAnswer(call: OutgoingCall, atMs: number, mock: CompiledMock, activeScenarioId: string | undefined, status: number, durationMs: number): JournalEntry {
    const at = isoTime(atMs);
    const requestHeaders = redact(call.headerEntries());
    return mock.id === undefined
      ? { at, method: call.method, url: call.url.href, requestHeaders, answered: true, scenarioId: scenarioOf(mock, activeScenarioId), layer: layerOf(mock, activeScenarioId), mockIndex: mock.order, status, durationMs }
      : { at, method: call.method, url: call.url.href, requestHeaders, answered: true, scenarioId: scenarioOf(mock, activeScenarioId), layer: layerOf(mock, activeScenarioId), mockIndex: mock.order, mockId: mock.id, status, durationMs };
  }

  /** Keep the entry, after its request body when the call has one to read. */
  function append(testId: string, call: OutgoingCall, entry: JournalEntry): Promise<void> | undefined {
    if (hasNoBodyToRead(call)) return keep(testId, entry, undefined);
    return requestBody(call).then((body) => keep(testId, withBody(entry, body), body.text));
  }

  const appendNow = storeNowOf(store)?.appendCall;

  /** Say once that the store's journals hold `maxTotalBytes` and their oldest entries went to make room. */
  function droppedForTotal(dropped: number | void): void {
    if (warnedTotal || typeof dropped !== 'number' || dropped === 0) return;
    warnedTotal = true;
    logger.warn(
      `The journals of all tests hold journal.maxTotalBytes (${bounds.maxTotalBytes} bytes): the oldest entries of the least recently used tests are dropped to make room (logged once). Raise createHarness({ journal: { maxTotalBytes } }) to keep more.`,
    );
  }

  function keep(testId: string, unbounded: JournalEntry, bodyText: (() => string) | undefined): undefined {
    // Every entry is bounded before any store sees it: the memory store, Redis and a process tree's host alike.
    const { entry, bytes } = boundEntry(unbounded, () => bodyText?.(), maxEntryBytes);
    const keepBounds = { entryBytes: bytes, maxTotalBytes: bounds.maxTotalBytes };
    if (appendNow !== undefined) {
      droppedForTotal(appendNow(testId, entry, maxEntries, keepBounds));
      return undefined;
    }
    // Not awaited: the call does not wait for the store (for Redis, the append goes out pipelined
    // behind the session read, so a plain call still costs one round trip). A journal read on the
    // same connection is queued after it. The journal is a debugging aid: a store that cannot
    // take it must not fail the call.
    appendCall!.call(store, testId, entry, maxEntries, keepBounds).then(droppedForTotal, (error: unknown) => {
      if (!warned) logger.warn(`Failed to record a call in the journal of test "${testId}": ${(error as Error).message} (logged once).`);
      warned = true;
    });
    return undefined;
  }

  return {
    explainAnswered: options?.explainAnswered ?? false,
    recordsNow: hasNoBodyToRead,
    answered(testId, call, { mock, step, reply, activeScenarioId, contractViolations }, startedAt, nearMisses) {
      // One clock read for the duration and the start time of the call.
      const tookMs = performance.now() - startedAt;
      // A browser's call takes the general path: its entry carries `side`.
      if (mock.variant === undefined && reply.fault === undefined && reply.delay === 0 && step === undefined && nearMisses === undefined && call.side === undefined && contractViolations === undefined && reply.stream === undefined) {
        return append(testId, call, plainAnswer(call, Date.now() - tookMs, mock, activeScenarioId, reply.status, roundMs(tookMs)));
      }
      const entry = head(call, Date.now() - tookMs);
      entry.answered = true;
      entry.scenarioId = scenarioOf(mock, activeScenarioId);
      if (mock.variant !== undefined) entry.variant = mock.variant;
      entry.layer = layerOf(mock, activeScenarioId);
      entry.mockIndex = mock.order;
      if (mock.id !== undefined) entry.mockId = mock.id;
      if (reply.fault === undefined) entry.status = reply.status;
      else entry.fault = reply.fault;
      if (reply.delay > 0) entry.delayMs = reply.delay;
      if (step !== undefined) entry.step = step;
      entry.durationMs = roundMs(tookMs) + reply.delay;
      if (contractViolations !== undefined) entry.contractViolations = contractViolations;
      if (nearMisses !== undefined) entry.nearMisses = nearMisses;
      if (reply.stream !== undefined) entry.stream = keptStream(reply.stream, mock);
      return append(testId, call, entry as JournalEntry);
    },
    unanswered(testId, call, action, startedAt, nearMisses) {
      const tookMs = performance.now() - startedAt;
      const entry = head(call, Date.now() - tookMs);
      if (call.upgrade !== undefined) entry.upgrade = call.upgrade;
      entry.unhandled = action;
      entry.durationMs = roundMs(tookMs);
      entry.nearMisses = nearMisses;
      return append(testId, call, entry as JournalEntry);
    },
    socket(testId, event) {
      keep(testId, socketEntry(event, redact, maxBodyBytes), undefined);
    },
    async read(testId, filter) {
      const entries = filterCalls(await readCalls.call(store, testId), filter).map(sortEntryHeaders);
      return entries.some((entry) => entry.stream !== undefined) ? withStreamProgress(store, testId, entries) : entries;
    },
    clear: (testId) => clearCalls.call(store, testId),
  };
}
