import { jsonAnswer, type ControlAnswer } from '../../core/control/control-call.js';
import type { ControlRoute } from '../../core/control/control-routes.js';
import { quote } from '../../core/dev-utils.js';
import { isHarnessError } from '../../core/errors.js';
import { isLoopback } from '../../core/is-loopback.js';
import type { TakeStep } from '../../core/parts/call-steps.js';
import { answerRoutes, type PartContext, type PartDefinition, type RouteRequest } from '../../core/parts/harness-part.js';
import { createCapture } from '../../core/recording/capture.js';
import { recordSocket } from './record-socket.js';
import type { SessionStore } from '../../core/store/session-store.js';

const ROUTES: readonly ControlRoute[] = [{ endpoint: 'record', methods: ['POST', 'GET', 'DELETE'], listed: 'never', access: 'guarded', bodyLimit: 'maxBodyBytes' }];

/** Exchanges kept per recording test: a recording is one test's calls, not a soak. */
const MAX_RECORDED = 500;

type RecordingStore = Required<Pick<SessionStore, 'setRecording' | 'readRecorded' | 'appendRecorded'>> & SessionStore;

function canRecord(store: SessionStore): store is RecordingStore {
  return store.setRecording !== undefined && store.readRecorded !== undefined && store.appendRecorded !== undefined;
}

/**
 * The call path's side of a recording: a test recording `'all'` has every call passed on to
 * the real upstream, one recording `'missing'` what its scenario cannot answer; the exchange is
 * kept in its session. In an app, loopback calls are its own and in-process test clients':
 * never recorded. The standalone server's calls come from other processes, so there a loopback
 * target (a configured upstream) is recorded too.
 */
function recordingTake(store: RecordingStore, { options, logger }: PartContext): TakeStep {
  const loopbackPasses = options.intercept !== false;
  return {
    wants: (session, moment) => session?.recording !== undefined && (moment === 'unmatched' || session.recording === 'all'),
    async take(call, testId) {
      if (loopbackPasses && isLoopback(call.url.hostname)) return undefined;
      // A WebSocket: relayed through the bridge to the real server, its frames kept (record-socket.ts).
      if (call.upgrade === 'websocket') {
        const url = new URL(call.url.href.replace(/^http/, 'ws'));
        const offered = (call.headers.get('sec-websocket-protocol') ?? '').split(',').map((name) => name.trim()).filter(Boolean);
        const socket = recordSocket(url, offered, (recorded, headers) => {
          const exchange = { request: { method: 'GET', url: url.href, headers: Object.fromEntries(headers) }, response: { status: 101, headers: {} }, socket: recorded };
          store.appendRecorded(testId, exchange, MAX_RECORDED).catch((error: unknown) => logger.error(`Failed to keep a recorded socket of test ${quote(testId)}: ${(error as Error).message}`));
        });
        return { kind: 'socket', socket };
      }
      const capture = await createCapture(call, (exchange) => {
        store.appendRecorded(testId, exchange, MAX_RECORDED).catch((error: unknown) => logger.error(`Failed to keep a recorded call of test ${quote(testId)}: ${(error as Error).message}`));
      });
      return { kind: 'pass', capture };
    },
  };
}

/** `POST { mode: 'missing' | 'all' }` starts recording; `GET` shows the draft; `DELETE` stops and hands the draft over. */
async function recordRoute({ call, testId, readBody }: RouteRequest, store: RecordingStore, { options }: PartContext): Promise<ControlAnswer> {
  if (call.method === 'POST') {
    const body = await readBody();
    if (!body.ok) return body.answer;
    const mode = (body.value as { mode?: unknown } | null)?.mode ?? 'missing';
    if (mode !== 'missing' && mode !== 'all') {
      return jsonAnswer({ error: `Invalid request body: "mode" must be "missing" (the scenario answers what it can, the rest is recorded) or "all" (every call is recorded), instead got ${JSON.stringify(mode)}.` }, 400);
    }
    await store.setRecording(testId, mode);
    return jsonAnswer({ success: true, testId, mode });
  }
  const format = new URLSearchParams(call.search).get('format') === 'yaml' ? 'yaml' : 'json';
  const stop = call.method === 'DELETE';
  const mode = (await store.read(testId))?.recording;
  if (stop) await store.setRecording(testId, undefined);
  const exchanges = await store.readRecorded(testId, { clear: stop });
  try {
    // Loaded on the first draft only: nothing of the converter loads in an app that never records.
    const { scenarios, redactions, notes, fileText } = await (await import('../../record/recording-draft.js')).recordingDraft(exchanges, format, options.recording);
    return jsonAnswer({ testId, mode: stop ? null : (mode ?? null), exchanges: exchanges.length, scenarios, redactions, notes, fileText });
  } catch (error) {
    // A secret still in the draft: say where (never what), and hand nothing over.
    if (isHarnessError(error) && error.code === 'SECRET_LEAK') return jsonAnswer({ error: error.message, testId }, 422);
    throw error;
  }
}

/** Recording (`endpoints.record`, `recording` option): a test's calls passed on to the real upstreams, turned into a draft scenario file. */
export const RECORDING_PART: PartDefinition = {
  name: 'recording',
  routes: ROUTES,
  create(context) {
    const { store } = context;
    if (!canRecord(store)) {
      const unavailable = async () => jsonAnswer({ error: 'Recording is not available: the session store keeps no recordings (it needs setRecording, appendRecorded and readRecorded).' }, 404);
      return { on: false, routes: answerRoutes(ROUTES, { record: unavailable }) };
    }
    return {
      routes: answerRoutes(ROUTES, { record: (request) => recordRoute(request, store, context) }),
      steps: { take: recordingTake(store, context) },
    };
  },
};
