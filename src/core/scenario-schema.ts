import { z } from 'zod';
import { record, regexData } from './schema-pieces.js';
import { socketList } from './socket-schema.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

const httpMethod = z
  .string({ error: `expected an HTTP method (${HTTP_METHODS.join(', ')})` })
  .refine((value) => (HTTP_METHODS as readonly string[]).includes(value.toUpperCase()), {
    error: `expected one of ${HTTP_METHODS.join(', ')}`,
  });

const stringMatch = z.union(
  [
    z.string(),
    z.instanceof(RegExp),
    z.strictObject({ equals: z.string() }),
    z.strictObject({ contains: z.string() }),
    z.strictObject({ startsWith: z.string() }),
    z.strictObject({ endsWith: z.string() }),
    regexData,
  ],
  { error: 'expected a string, a RegExp, or one of { equals | contains | startsWith | endsWith | regex: { source, flags? } }' },
);

const headerRecord = record(z.string(), z.string()).superRefine((headers, ctx) => {
  for (const [name, value] of Object.entries(headers)) {
    try {
      new Headers([[name, value.includes('{{') ? 'x' : value]]);
    } catch {
      ctx.addIssue({ code: 'custom', path: [name], message: `is not a valid HTTP header (name ${JSON.stringify(name)})` });
    }
  }
});

const milliseconds = z.number().finite().min(0).max(600_000);

/** `timing` on a stream or an `llm` answer (see `StreamTiming`). */
const streamTiming = z
  .strictObject({
    firstMs: milliseconds.optional(),
    intervalMs: milliseconds.optional(),
    tokensPerSecond: z.number().finite().gt(0, { error: 'expected a number of tokens a second above 0' }).max(1_000_000).optional(),
    jitter: z.number().min(0).max(1, { error: 'expected a fraction from 0 to 1 (0.2: each pause 80% to 120% of its length)' }).optional(),
    seed: z.number().int().min(0).max(0xffff_ffff).optional(),
  })
  .superRefine((timing, ctx) => {
    if (timing.intervalMs !== undefined && timing.tokensPerSecond !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['tokensPerSecond'], message: 'cannot be combined with "timing.intervalMs": both pace the chunks, give one' });
    }
  });

/** `hold` on a stream or an `llm` answer (see `StreamHold`). */
const streamHold = z.strictObject({ afterChunks: z.number().int().min(0) });

const mockStream = z
  .strictObject({
    chunks: z.array(z.unknown()).min(1, { error: 'a stream needs at least one chunk' }).optional(),
    events: z
      .array(z.strictObject({ event: z.string().optional(), data: z.unknown(), id: z.string().optional() }))
      .min(1, { error: 'a stream needs at least one event' })
      .optional(),
    intervalMs: milliseconds.optional(),
    failAfter: z.number().int().min(0).optional(),
    timing: z
      .union([z.literal('recorded'), streamTiming], {
        error: (issue) => (issue.code === 'invalid_union' ? "expected 'recorded' or { firstMs?, intervalMs?, tokensPerSecond?, jitter?, seed? }" : undefined),
      })
      .optional(),
    replaySpeed: z.number().positive({ error: 'expected a number above 0 (2 replays twice as fast)' }).optional(),
    hold: streamHold.optional(),
  })
  .superRefine((stream, ctx) => {
    if ((stream.chunks === undefined) === (stream.events === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'needs exactly one of "chunks" and "events"' });
    }
    if (stream.timing === 'recorded') return checkRecordedStream(stream, ctx);
    if (stream.replaySpeed !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['replaySpeed'], message: 'only goes with timing: \'recorded\' (it scales the recorded offsets)' });
    }
    if (stream.intervalMs !== undefined && stream.timing?.intervalMs !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['intervalMs'], message: 'cannot be combined with "timing.intervalMs": they are the same setting, give one (timing.intervalMs)' });
    }
    if (stream.intervalMs !== undefined && stream.timing?.tokensPerSecond !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['intervalMs'], message: 'cannot be combined with "timing.tokensPerSecond": both pace the chunks, give one' });
    }
  });

/**
 * A stream with `timing: 'recorded'`: chunks only, each `{ text, atMs }` (see `RecordedChunk`),
 * offsets never going down, and no other pace beside them.
 */
function checkRecordedStream(stream: { chunks?: unknown[]; events?: unknown[]; intervalMs?: number }, ctx: z.RefinementCtx): void {
  if (stream.events !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['timing'], message: "'recorded' replays stream.chunks with their atMs; events have no recorded times (use chunks of { text, atMs })" });
  }
  if (stream.intervalMs !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['intervalMs'], message: "cannot be combined with timing: 'recorded': each chunk goes at its own atMs" });
  }
  let before = 0;
  for (const [i, chunk] of (stream.chunks ?? []).entries()) {
    const fields = typeof chunk === 'object' && chunk !== null && !Array.isArray(chunk) ? (chunk as Record<string, unknown>) : undefined;
    if (fields === undefined) {
      ctx.addIssue({ code: 'custom', path: ['chunks', i], message: "expected { text, atMs } with timing: 'recorded' (a recorded chunk: its text and its milliseconds after the headers)" });
      continue;
    }
    if (typeof fields.text !== 'string') ctx.addIssue({ code: 'custom', path: ['chunks', i, 'text'], message: "expected a string: a recorded chunk's text (timing: 'recorded')" });
    const { atMs } = fields;
    if (atMs === undefined) ctx.addIssue({ code: 'custom', path: ['chunks', i, 'atMs'], message: "is required with timing: 'recorded': the chunk's milliseconds after the headers" });
    else if (typeof atMs !== 'number' || !Number.isFinite(atMs) || atMs < 0) ctx.addIssue({ code: 'custom', path: ['chunks', i, 'atMs'], message: 'expected a number of milliseconds, 0 or more' });
    else if (atMs < before) ctx.addIssue({ code: 'custom', path: ['chunks', i, 'atMs'], message: `expected ${before} or more: a recorded chunk cannot go before the one ahead of it` });
    else before = atMs;
    const extra = Object.keys(fields).filter((key) => key !== 'text' && key !== 'atMs');
    if (extra.length > 0) ctx.addIssue({ code: 'custom', path: ['chunks', i], message: `unknown key ${JSON.stringify(extra[0])}: a recorded chunk has only text and atMs` });
  }
}

export const LLM_APIS = ['openai.chat', 'openai.responses', 'anthropic.messages', 'gemini'] as const;
const LLM_FINISHES = ['stop', 'length', 'tool_calls', 'content_filter'] as const;
const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
const tokenCount = z.number().int().min(0);

/**
 * A tool call's arguments: an object, or a string holding a JSON object (one with templates is
 * checked when they are filled in). Anthropic and Gemini send them as objects, so anything else
 * could not be sent to every API alike.
 */
function isToolArguments(value: unknown): boolean {
  if (typeof value === 'string') {
    if (value.includes('{{')) return true;
    try {
      value = JSON.parse(value);
    } catch {
      return false;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `response.llm`: an LLM provider's answer as data (see `LlmResponse`). */
const llmResponse = z
  .strictObject({
    api: z.enum(LLM_APIS, { error: `expected one of ${quoted(LLM_APIS)}` }),
    text: z.string().optional(),
    toolCalls: z
      .array(
        z.strictObject({
          name: z.string().min(1, { error: 'a tool call needs a name' }),
          arguments: z.unknown().refine(isToolArguments, { error: 'expected the arguments: an object, or a string holding a JSON object' }),
          id: z.string().min(1).optional(),
        }),
      )
      .optional(),
    reasoning: z.string().optional(),
    usage: z.strictObject({ inputTokens: tokenCount.optional(), outputTokens: tokenCount.optional() }).optional(),
    finish: z.enum(LLM_FINISHES, { error: `expected one of ${quoted(LLM_FINISHES)}` }).optional(),
    chunking: z
      .union([z.enum(['token', 'word']), z.strictObject({ chars: z.number().int().min(1) })], { error: "expected 'token', 'word' or { chars: <a whole number of at least 1> }" })
      .optional(),
    timing: streamTiming.optional(),
    failAfter: z.number().int().min(0).optional(),
    errorAfter: z.strictObject({ chunks: z.number().int().min(0), message: z.string().optional(), type: z.string().min(1).optional() }).optional(),
    hold: streamHold.optional(),
  })
  .superRefine((llm, ctx) => {
    if (llm.text === undefined && llm.toolCalls === undefined && llm.reasoning === undefined) {
      ctx.addIssue({ code: 'custom', path: [], message: 'needs at least one of "text", "toolCalls" and "reasoning"' });
    }
    if (llm.failAfter !== undefined && llm.errorAfter !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['errorAfter'], message: 'cannot be combined with "failAfter": both end the stream, give one' });
    }
  });

const mockResponse = z
  .strictObject({
    status: z.number().int().min(200).max(599).optional(),
    headers: headerRecord.optional(),
    body: z.unknown().optional(),
    bodyBase64: z.base64({ error: 'expected a base64 string (standard alphabet, with padding)' }).optional(),
    stream: mockStream.optional(),
    llm: llmResponse.optional(),
    delay: milliseconds.optional(),
    error: z.enum(['network', 'reset', 'timeout', 'malformed'], { error: "expected one of 'network', 'reset', 'timeout', 'malformed'" }).optional(),
  })
  .superRefine((response, ctx) => {
    const bodies = (['body', 'bodyBase64', 'stream', 'llm'] as const).filter((key) => response[key] !== undefined);
    if (bodies.length > 1) ctx.addIssue({ code: 'custom', path: [bodies[1]!], message: `cannot be combined with "${bodies[0]}": give one of body, bodyBase64, stream and llm` });
    if (response.status !== undefined && NULL_BODY_STATUSES.has(response.status) && bodies.length > 0) {
      ctx.addIssue({ code: 'custom', path: [bodies[0]!], message: `must be left out: status ${response.status} has no body` });
    }
  });

/** `match.graphql`: which GraphQL operation a call must carry (see `GraphqlMatch`). */
const graphqlMatch = z.strictObject(
  {
    operationName: stringMatch.optional(),
    variables: record(z.string(), z.unknown(), { error: 'expected an object of variables (a partial match, like match.body)' }).optional(),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'expected { operationName?, variables? }' : undefined) },
);

/**
 * A response, or in code a function that makes one per call. The function is checked here as
 * an empty response; what it returns is checked on each call. Files hold data only, so the
 * file schema (schema.json) describes the data form alone.
 */
const responseOrFunction = z.preprocess((value) => (typeof value === 'function' ? {} : value), mockResponse);

/** What a response function must return: checked on every call, with the same messages. */
export const mockResponseSchema = mockResponse;

const mock = z
  .strictObject({
    id: z.string().min(1, { error: 'a mock id must not be empty' }).max(200).optional(),
    method: z.union([httpMethod, z.array(httpMethod).min(1)]).optional(),
    url: z.union([z.string().min(1), z.instanceof(RegExp), regexData], { error: 'expected a URL pattern string, a RegExp or { regex: { source, flags? } }' }),
    match: z
      .strictObject({
        body: z.unknown().optional(),
        graphql: graphqlMatch.optional(),
        query: record(z.string(), stringMatch).optional(),
        headers: record(z.string(), stringMatch).optional(),
        state: z.record(z.string(), z.unknown()).optional(),
      })
      .optional(),
    response: responseOrFunction.optional(),
    sequence: z
      .strictObject({
        responses: z.array(responseOrFunction).min(1, { error: 'a sequence needs at least one response' }),
        repeat: z.enum(['last', 'cycle', 'none']).optional(),
      })
      .optional(),
    afterResponse: z.strictObject({ setState: z.record(z.string().min(1), z.unknown()) }).optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.response === undefined) === (value.sequence === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'needs exactly one of "response" and "sequence"' });
    }
  });

/** A list of mocks; `id`s are unique within it, so a journal entry or a verification names one mock. */
const mockList = z.array(mock, { error: 'expected an array of mocks' }).superRefine((mocks, ctx) => {
  const seen = new Map<string, number>();
  mocks.forEach((item, index) => {
    if (item.id === undefined) return;
    const first = seen.get(item.id);
    if (first === undefined) seen.set(item.id, index);
    else ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `repeats the id ${JSON.stringify(item.id)} of mock ${first}: ids are unique in a scenario` });
  });
});

const scenario = z.strictObject({
  name: z.string({ error: 'expected a name (a string)' }),
  description: z.string().optional(),
  mocks: mockList,
  sockets: socketList.optional(),
  variants: record(z.string().min(1), z.strictObject({ mocks: mockList, sockets: socketList.optional() })).optional(),
});

/** The shape every scenario map must have; `createHarness` parses with it before compiling. */
export const scenarioMapSchema = record(z.string().min(1, { error: 'scenario IDs must not be empty' }), scenario, {
  error: 'expected an object mapping scenario IDs to definitions',
});
