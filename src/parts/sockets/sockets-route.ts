import { z } from 'zod';
import { jsonAnswer, type ControlAnswer } from '../../core/control/control-call.js';
import { closeCode, socketFrame } from '../../core/socket-schema.js';
import type { RouteRequest } from '../../core/parts/harness-part.js';
import type { OpenSockets } from './open-sockets.js';

const body = z.strictObject({
  url: z.string({ error: 'expected the socket URL (or a URL pattern) as a string' }).min(1),
  action: z.enum(['send', 'close'], { error: "expected 'send' or 'close'" }),
  data: socketFrame.optional(),
  code: closeCode.optional(),
  reason: z.string().max(123).optional(),
});

/**
 * `endpoints.sockets`: `POST { url, action: 'send', data }` pushes a frame to the test's open
 * sockets whose URL matches `url` (a socket URL or a pattern, as a socket mock's `url`);
 * `POST { url, action: 'close', code?, reason? }` closes them → `{ testId, sockets: n }`.
 * A test reaches only its own sockets; none open is a 404 that lists what is.
 */
export async function socketsRoute({ testId, readBody }: RouteRequest, sockets: OpenSockets): Promise<ControlAnswer> {
  const read = await readBody();
  if (!read.ok) return read.answer;
  const parsed = body.safeParse(read.value);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({ path: issue.path, field: issue.path.join('.') || 'body', message: issue.message }));
    return jsonAnswer({ error: `Invalid request body: ${details[0]!.field}: ${details[0]!.message}. Expected { url, action: 'send', data } or { url, action: 'close', code?, reason? }.`, details }, 400);
  }
  const { url, action, data, code, reason } = parsed.data;
  if (action === 'send' && data === undefined) return jsonAnswer({ error: "Invalid request body: data: a 'send' needs the frame: a string, { json } or { base64 }." }, 400);
  const outcome = action === 'send' ? await sockets.send(testId, url, data!) : await sockets.close(testId, url, code ?? 1000, reason ?? '');
  if (typeof outcome === 'string') return jsonAnswer({ error: outcome }, outcome.startsWith('Invalid') ? 400 : 404);
  return jsonAnswer({ testId, sockets: outcome });
}
