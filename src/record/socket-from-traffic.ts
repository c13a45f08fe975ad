import type { SocketMatch, SocketMock, SocketStep } from '../core/types.js';
import type { RecordedSocket } from './recorded-exchange.js';
import type { PendingRedaction } from './redaction.js';
import { rememberSecretValues } from './remember-secret-values.js';
import { scrubResponse } from './scrub-known-secrets.js';
import type { SecretRegistry } from './secret-registry.js';

type Frame = RecordedSocket['frames'][number];

/** Below this gap two frames count as sent together: no `delay` step between them. */
const MIN_DELAY_MS = 1;

/** A text frame's JSON value, when it is JSON. */
function jsonOf(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** Remember every secret the socket's handshake and frames show by their shape, as a call's. */
export function rememberSocketSecrets(url: URL, headers: readonly [string, string][], socket: RecordedSocket, secrets: SecretRegistry): void {
  const body = socket.frames.flatMap((frame) => (frame.text === undefined ? [] : [jsonOf(frame.text)?.value ?? frame.text]));
  rememberSecretValues({ url, requestHeaders: headers, requestBody: undefined, match: {}, response: { body } }, secrets);
}

/** A frame as a step sends it or a rule matches it, every known secret cut out of it. */
function scrubbed(frame: Frame, field: string, secrets: SecretRegistry, redactions: PendingRedaction[]): { send: SocketStep; match: SocketMatch } {
  if (frame.text === undefined) return { send: { send: { base64: frame.base64 ?? '' } }, match: { binary: frame.base64 ?? '' } };
  const json = jsonOf(frame.text);
  if (json !== undefined && typeof json.value === 'object' && json.value !== null) {
    const cut: PendingRedaction[] = [];
    const clean = scrubResponse({ body: json.value }, secrets, cut).body;
    for (const redaction of cut) redactions.push({ ...redaction, field: `${field}${redaction.field.slice('response.body'.length)}` });
    return { send: { send: { json: clean } }, match: { json: clean } };
  }
  const { text, found } = secrets.replace(frame.text);
  for (const secret of found) redactions.push({ field, action: 'replaced', reason: secret.source });
  return { send: { send: text }, match: { text } };
}

/** `delay` steps for the gap from `fromMs` to `toMs`, when there is one worth keeping. */
function pause(fromMs: number, toMs: number): SocketStep[] {
  const gap = Math.round((toMs - fromMs) * 1000) / 1000;
  return gap >= MIN_DELAY_MS ? [{ delay: gap }] : [];
}

/**
 * One recorded socket as a socket mock that replays it: what the server sent before the app
 * said anything becomes `onConnect`; each frame the app sent becomes a rule that matches it (the
 * same JSON as a subset, the same text, the same bytes) whose steps are what the server sent
 * next, until the app's next frame; each gap becomes a `delay`, so the replay keeps the timing.
 * A close by the server ends the steps it followed. A frame the app sent twice answers as it did
 * the first time; the note says so.
 */
export function socketMockFromTraffic(url: string, socket: RecordedSocket, secrets: SecretRegistry, redactions: PendingRedaction[], notes: string[]): SocketMock {
  const onConnect: SocketStep[] = [];
  const rules: { match: SocketMatch; steps: SocketStep[]; key: string }[] = [];
  let steps = onConnect;
  let lastMs = 0;
  let repeated = 0;
  socket.frames.forEach((frame, i) => {
    const { send, match } = scrubbed(frame, `frames[${i}]`, secrets, redactions);
    if (frame.direction === 'received') {
      steps.push(...pause(lastMs, frame.atMs), send);
    } else {
      const key = JSON.stringify(match);
      const known = rules.find((rule) => rule.key === key);
      if (known !== undefined) repeated += 1;
      // What the server sent after a repeated frame is left out: the rule of its first time answers it.
      steps = [];
      if (known === undefined) rules.push({ match, steps, key });
    }
    lastMs = frame.atMs;
  });
  if (socket.close?.by === 'server') steps.push(...pause(lastMs, socket.close.atMs), { close: { code: socket.close.code === 1005 || socket.close.code === 1006 ? 1000 : socket.close.code, ...(socket.close.reason === '' ? {} : { reason: socket.close.reason }) } });
  if (repeated > 0) notes.push(`${url}: the app sent ${repeated} frame${repeated === 1 ? '' : 's'} it had sent before; the replay answers each as the first time`);
  const mock: SocketMock = { url };
  if (socket.protocol !== undefined) mock.protocol = socket.protocol;
  if (onConnect.length > 0) mock.onConnect = onConnect;
  if (rules.length > 0) mock.on = rules.map(({ match, steps: answer }) => ({ match, steps: answer }));
  return mock;
}
