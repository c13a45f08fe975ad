import type { Mock, SocketFrame, SocketMock, SocketStep } from '../../types.js';
import { compileBodyMatch } from '../body-match.js';
import { DefinitionError } from '../definition-error.js';
import { describeValue } from '../describe-value.js';
import { findUnsafeRegexes, type RegexJudge } from '../find-unsafe-regexes.js';
import { toStatelessRegExp } from '../string-match.js';
import { compileTemplate, isConstant, type CompiledValue } from '../template.js';
import { compileUrlPattern, type UrlPattern } from '../url-pattern.js';
import type { IncomingFrame } from './socket-frames.js';

/** A step of a compiled socket mock: what it does, with its templates compiled. */
export type CompiledSocketStep =
  | { kind: 'send'; binary: boolean; value: CompiledValue; json: boolean; fixed?: { data: string | Buffer; binary: boolean }; readsState: boolean }
  | { kind: 'delay'; ms: number }
  | { kind: 'close'; code: number; reason: string }
  | { kind: 'error'; message: string }
  | { kind: 'setState'; changes: { key: string; append: boolean; value: CompiledValue }[] };

export interface CompiledSocketRule {
  /** `on[0]`: the rule as the journal names it. */
  label: string;
  test(frame: IncomingFrame): boolean;
  /** Why the frame did not match, for the journal's near misses. */
  explain(frame: IncomingFrame): string;
  steps: CompiledSocketStep[];
}

/** A socket mock ready to answer: its URL pattern, and its steps and rules compiled. */
export interface CompiledSocket {
  /** Unique across the harness (`scenario#0`, `scenario~variant#1`, `own:<test>#0`). */
  key: string;
  id: string | undefined;
  /** Its place in its list. */
  order: number;
  scenarioId: string;
  variant: string | undefined;
  own: boolean;
  url: UrlPattern;
  protocol: string | undefined;
  /** `wss://stream.example.com/v1/prices` or the pattern as written: how messages name it. */
  label: string;
  onConnect: CompiledSocketStep[];
  rules: CompiledSocketRule[];
  unmatched: 'ignore' | 'close';
}

/** `ws:`/`wss:` patterns as the `http:`/`https:` URLs the handshake is made to. */
function asHttpPattern(url: SocketMock['url']): Parameters<typeof compileUrlPattern>[0] {
  return typeof url === 'string' ? url.replace(/^ws(s?):\/\//i, 'http$1://') : url;
}

/** A `send` step: its template compiled, and its frame made once when it has no template. */
function compileSend(frame: SocketFrame, field: string): CompiledSocketStep {
  const [value, binary, json] =
    typeof frame === 'string' ? [compileTemplate(frame, field), false, false] : 'json' in frame ? [compileTemplate(frame.json, `${field}.json`), false, true] : [compileTemplate(frame.base64, `${field}.base64`), true, false];
  const readsState = value.reads.some((read) => read === 'state' || read.startsWith('state.'));
  if (!isConstant(value)) return { kind: 'send', binary, json, value, readsState };
  const constant = value.evaluate(undefined as never);
  const fixed = binary ? { data: Buffer.from(String(constant), 'base64'), binary } : { data: json ? JSON.stringify(constant) : String(constant ?? ''), binary };
  return { kind: 'send', binary, json, value, fixed, readsState };
}

function compileSteps(steps: readonly SocketStep[], field: string): CompiledSocketStep[] {
  return steps.map((step, i) => {
    const at = `${field}[${i}]`;
    if ('send' in step) return compileSend(step.send, `${at}.send`);
    if ('delay' in step) return { kind: 'delay', ms: step.delay };
    if ('close' in step) return { kind: 'close', code: step.close.code ?? 1000, reason: step.close.reason ?? '' };
    if ('error' in step) return { kind: 'error', message: step.error === true ? 'the socket mock dropped the connection' : step.error };
    return {
      kind: 'setState',
      changes: Object.entries(step.setState).map(([name, value]) => {
        const append = name.endsWith('[]');
        return { key: append ? name.slice(0, -2) : name, append, value: compileTemplate(value, `${at}.setState.${name}`) };
      }),
    };
  });
}

function compileRule(match: NonNullable<SocketMock['on']>[number]['match'], field: string): Pick<CompiledSocketRule, 'test' | 'explain'> {
  if ('json' in match) {
    const body = compileBodyMatch(match.json, `${field}.json`);
    return {
      test: (frame) => frame.json !== undefined && body.test(frame.json.value),
      explain: (frame) => (frame.json === undefined ? `${field}.json: the frame is not JSON` : (body.explain(frame.json.value) ?? `${field}.json: did not match`)),
    };
  }
  if ('text' in match) {
    const wanted = match.text;
    return {
      test: (frame) => frame.text === wanted,
      explain: (frame) => (frame.text === undefined ? `${field}.text: the frame is binary` : `${field}.text: expected ${describeValue(wanted)}, received ${describeValue(frame.text)}`),
    };
  }
  if ('regex' in match) {
    const { source, flags } = typeof match.regex === 'string' ? { source: match.regex, flags: undefined } : match.regex;
    let regex: RegExp;
    try {
      regex = toStatelessRegExp(source, flags);
    } catch (error) {
      throw new DefinitionError(`${field}.regex`, `is not a valid regular expression (${(error as Error).message})`);
    }
    return {
      test: (frame) => frame.text !== undefined && regex.test(frame.text),
      explain: (frame) => (frame.text === undefined ? `${field}.regex: the frame is binary` : `${field}.regex: ${describeValue(frame.text)} does not match /${source}/${flags ?? ''}`),
    };
  }
  const bytes = Buffer.from(match.binary, 'base64');
  return {
    test: (frame) => frame.text === undefined && frame.data.equals(bytes),
    explain: (frame) => (frame.text !== undefined ? `${field}.binary: the frame is text` : `${field}.binary: expected ${bytes.byteLength} bytes (${match.binary}), received ${frame.data.byteLength} others`),
  };
}

/** Every regular expression of a socket mock that is invalid or could backtrack, by field. */
export function findUnsafeSocketRegexes(socket: SocketMock, backtracking: boolean, judge?: RegexJudge): { field: string; message: string }[] {
  return regexCarriers(socket).flatMap(({ mock, field }) => findUnsafeRegexes(mock, { backtracking, judge }).map(({ field: found, message }) => ({ field: field ?? found, message })));
}

/**
 * A socket mock's regular expressions in mocks of their own (its URL; each rule's `regex` as a
 * body matcher), so the mock format's regex checks judge them: `field` names a rule's place.
 */
function regexCarriers(socket: SocketMock): { mock: Mock; field?: string }[] {
  const carriers: { mock: Mock; field?: string }[] = [{ mock: { url: socket.url, response: {} } }];
  (socket.on ?? []).forEach((rule, i) => {
    const match = rule?.match as { regex?: unknown } | undefined;
    if (match === undefined || match.regex === undefined) return;
    const data = typeof match.regex === 'string' ? { source: match.regex } : match.regex;
    carriers.push({ mock: { url: '/', match: { body: { regex: data as { source: string } } }, response: {} }, field: `on[${i}].match.regex` });
  });
  return carriers;
}

/** The regular expressions of socket mocks that came with a request, as mocks the request-time check can collect. */
export function socketRegexMocks(sockets: readonly unknown[]): Mock[] {
  return sockets.flatMap((socket) => {
    try {
      return regexCarriers(socket as SocketMock).map(({ mock }) => mock);
    } catch {
      return [];
    }
  });
}

/**
 * Compile one socket mock. Throws `DefinitionError` naming the field (relative to the mock)
 * for a bad URL pattern, template or regular expression.
 */
export function compileSocket(socket: SocketMock, order: number, key: string, owner: { scenarioId: string; variant?: string | undefined; own?: boolean }): CompiledSocket {
  const url = compileUrlPattern(asHttpPattern(socket.url));
  return {
    key,
    id: socket.id,
    order,
    scenarioId: owner.scenarioId,
    variant: owner.variant,
    own: owner.own === true,
    url,
    protocol: socket.protocol,
    label: typeof socket.url === 'string' ? socket.url : String(socket.url instanceof RegExp ? socket.url : `/${socket.url.regex.source}/${socket.url.regex.flags ?? ''}`),
    onConnect: compileSteps(socket.onConnect ?? [], 'onConnect'),
    rules: (socket.on ?? []).map((rule, i) => ({ label: `on[${i}]`, ...compileRule(rule.match, `on[${i}].match`), steps: compileSteps(rule.steps, `on[${i}].steps`) })),
    unmatched: socket.unmatched ?? 'ignore',
  };
}
