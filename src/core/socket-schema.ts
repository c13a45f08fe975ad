import { z } from 'zod';
import { record, regexData } from './schema-pieces.js';

/** A frame a socket mock sends: text, `{ json }` or `{ base64 }` (see `SocketFrame`). */
export const socketFrame = z.union([z.string(), z.strictObject({ json: z.unknown() }), z.strictObject({ base64: z.base64({ error: 'expected a base64 string (standard alphabet, with padding)' }) })], {
  error: 'expected a string (a text frame), { json: <value> } (a text frame of JSON) or { base64: <bytes> } (a binary frame)',
});

/** RFC 6455 §7.4: 1000, or 3000–4999; 1001–1014 the spec's own that an endpoint may send. */
export const closeCode = z
  .number()
  .int()
  .refine((code) => code === 1000 || (code >= 1001 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999), {
    error: 'expected a close code an endpoint may send: 1000, 1001–1003, 1007–1014, or 3000–4999 (RFC 6455 §7.4)',
  });

const STEP_KEYS = ['send', 'delay', 'close', 'error', 'setState'] as const;

const socketStep = z.union(
  [
    z.strictObject({ send: socketFrame }),
    z.strictObject({ delay: z.number().finite().min(0).max(600_000) }),
    z.strictObject({ close: z.strictObject({ code: closeCode.optional(), reason: z.string().max(123, { error: 'a close reason is at most 123 bytes (RFC 6455 §5.5)' }).optional() }) }),
    z.strictObject({ error: z.union([z.string(), z.literal(true)]) }),
    z.strictObject({ setState: record(z.string().min(1), z.unknown()) }),
  ],
  { error: `expected a step with exactly one of ${STEP_KEYS.map((key) => `{ ${key} }`).join(', ')}` },
);

const socketMatch = z.union(
  [
    z.strictObject({ json: z.unknown() }),
    z.strictObject({ text: z.string() }),
    z.strictObject({ regex: z.union([z.string(), z.strictObject({ source: z.string(), flags: z.string().optional() })]) }),
    z.strictObject({ binary: z.base64({ error: 'expected a base64 string (standard alphabet, with padding)' }) }),
  ],
  { error: 'expected one of { json: <subset> }, { text: <string> }, { regex: <source> | { source, flags? } } or { binary: <base64> }' },
);

const socketMock = z.strictObject({
  id: z.string().min(1, { error: 'a socket id must not be empty' }).max(200).optional(),
  url: z.union([z.string().min(1), z.instanceof(RegExp), regexData], { error: 'expected a URL pattern string, a RegExp or { regex: { source, flags? } }' }),
  protocol: z.string().min(1).optional(),
  onConnect: z.array(socketStep, { error: 'expected an array of steps' }).optional(),
  on: z.array(z.strictObject({ match: socketMatch, steps: z.array(socketStep, { error: 'expected an array of steps' }) }), { error: 'expected an array of { match, steps } rules' }).optional(),
  unmatched: z.enum(['ignore', 'close'], { error: "expected 'ignore' or 'close'" }).optional(),
});

/** A scenario's (or variant's, or a test's own) `sockets`; `id`s are unique within it. */
export const socketList = z.array(socketMock, { error: 'expected an array of socket mocks' }).superRefine((sockets, ctx) => {
  const seen = new Map<string, number>();
  sockets.forEach((item, index) => {
    if (item.id === undefined) return;
    const first = seen.get(item.id);
    if (first === undefined) seen.set(item.id, index);
    else ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `repeats the id ${JSON.stringify(item.id)} of socket ${first}: ids are unique in a list of sockets` });
  });
});
