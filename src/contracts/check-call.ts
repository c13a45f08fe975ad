import { parseRequestBody } from '../core/engine/body/parse-request-body.js';
import type { ContractViolation } from '../core/contract-check.js';
import { replyHasBody, type MockReply } from '../core/interception/mock-reply.js';
import { NOT_NOW } from '../core/interception/call-outcome.js';
import type { OutgoingCall } from '../core/interception/outgoing-call.js';
import type { MockResponse } from '../core/types.js';
import { checkParameters } from './check-parameters.js';
import { checkRequestBody, type CallBody } from './check-request-body.js';
import { checkResponse } from './check-response.js';
import { pathOperations, pathSegments, type ContractPath } from './contract-paths.js';
import { isRecord, type Located } from './json-pointer.js';
import type { Contract } from './load-contract.js';
import { operationLabel, type Finding, type OperationContext } from './operation-context.js';
import type { Placement } from './place-mock.js';
import { readOnce } from './read-once.js';
import type { SchemaValidators } from './schema-validators.js';

/** Request bodies larger than this are checked by content type only: a call's upload is not buffered whole for a check. */
const MAX_BODY_BYTES = 1024 * 1024;

/** What checking a call needs: where its URL lands among the documents, and each document's validators. */
export interface CallCheckContext {
  place(url: URL): Placement;
  validators(contract: Contract): SchemaValidators;
}

/** Per templated segment of a documented path: its place, its `{names}`, and a RegExp capturing their values. */
type SegmentCaptures = { index: number; names: string[]; capture: RegExp }[];
const capturesOf = new WeakMap<ContractPath, SegmentCaptures>();

function segmentCaptures(path: ContractPath): SegmentCaptures {
  return readOnce(capturesOf, path, () =>
    path.segments.flatMap((segment, index) => {
      if (segment.pattern === undefined) return [];
      const names = [...segment.text.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
      const capture = new RegExp(`^${segment.text.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^/]+?)')}$`);
      return [{ index, names, capture }];
    }),
  );
}

/** The values of the documented path's `{params}` in the call's path (`/pets/{petId}` on `/v2/pets/7`: `{ petId: '7' }`). */
function pathValues(path: ContractPath, pathname: string): Record<string, string> {
  const captures = segmentCaptures(path);
  const values: Record<string, string> = {};
  if (captures.length === 0) return values;
  const segments = pathSegments(pathname).slice(-path.segments.length);
  captures.forEach(({ index, names, capture }) => {
    const found = capture.exec(segments[index] ?? '');
    names.forEach((name, j) => {
      const raw = found?.[j + 1];
      if (raw === undefined) return;
      try {
        values[name] = decodeURIComponent(raw);
      } catch {
        values[name] = raw;
      }
    });
  });
  return values;
}

/** What a call's body is to the checks, when it has none to read (GET, HEAD): known without awaiting. */
const hasNoBody = (call: OutgoingCall) => call.method === 'GET' || call.method === 'HEAD';

async function bodyOf(call: OutgoingCall): Promise<CallBody> {
  if (hasNoBody(call)) return undefined;
  const head = await call.bodyHead(MAX_BODY_BYTES);
  if (head === undefined) return undefined;
  if (!head.complete) return 'too-large';
  return parseRequestBody(call.headers.get('content-type'), head.bytes).catch(() => undefined);
}

/** The reply as a mock response, for the checks `scenario-harness check` runs on mocks: its status, headers and body. */
function asMockResponse(reply: MockReply, method: string): MockResponse {
  const response: MockResponse = { status: reply.status, headers: { ...reply.headers } };
  if (!replyHasBody(method, reply.status)) return response;
  // Streams and binary bodies are checked by their content type only, as the command does.
  if (reply.stream !== undefined) response.stream = { chunks: [] };
  else if (reply.body instanceof Uint8Array) response.bodyBase64 = '';
  else if (typeof reply.body === 'string' && reply.body !== '') response.body = reply.body;
  return response;
}

const contextsOf = new WeakMap<Located, OperationContext>();

/** The operation the call is for: its method on the documented path (HEAD falls back to GET, as servers answer it). */
function operationOf(path: ContractPath, method: string) {
  const operations = pathOperations(path);
  return { operations, found: operations.find(([documented]) => documented === method) ?? (method === 'HEAD' ? operations.find(([documented]) => documented === 'GET') : undefined) };
}

/**
 * What the response checks found for a fixed reply (a mock without templates hands out the same
 * reply object on every call), per operation: checked once, not once a call.
 */
const responseFindingsOf = new WeakMap<MockReply, Map<OperationContext, Finding[]>>();

function responseFindings(operation: OperationContext, reply: MockReply, method: string): Finding[] {
  // A fault answers nothing: there is no response to check.
  if (reply.fault !== undefined) return [];
  const byOperation = readOnce(responseFindingsOf, reply, () => new Map<OperationContext, Finding[]>());
  let findings = byOperation.get(operation);
  if (findings === undefined) {
    findings = checkResponse(operation, asMockResponse(reply, method), 'response');
    byOperation.set(operation, findings);
  }
  return findings;
}

/**
 * One answered call against the documents, its body already read: `undefined` when its URL is
 * under no document's servers; else its problems (none: `[]`): a path or method the document
 * does not have, the request's parameters and body, and the mock's status, headers and body.
 */
function checkCallWith(call: OutgoingCall, reply: MockReply, context: CallCheckContext, readBody: (operation: OperationContext) => CallBody | Promise<CallBody>): ContractViolation[] | undefined | Promise<ContractViolation[] | undefined> {
  const placement = context.place(call.url);
  if (placement.kind === 'unchecked') return undefined;
  if (placement.kind === 'unknown-path') {
    const names = placement.contracts.map((contract) => contract.name).join(', ');
    return [{ message: `url: expected a path ${names} documents: ${call.url.pathname} is under its servers, but none of its paths matches it`, operation: names }];
  }
  const { path } = placement;
  const { operations, found } = operationOf(path, call.method);
  if (found === undefined) {
    return [{ message: `method: expected a method ${path.template} documents (${operations.map(([m]) => m).join(', ') || 'none'}), got ${call.method}`, operation: `${path.template} in ${path.contract.name}` }];
  }
  // One context per documented operation, so what the checks read of it is read once (see readOnce).
  const operation = readOnce(contextsOf, found[1], (): OperationContext => ({ contract: path.contract, validators: context.validators(path.contract), method: found[0], template: path.template, operation: found[1], pathItem: path.item }));
  const finish = (body: CallBody): ContractViolation[] => {
    const form = body !== undefined && body !== 'too-large' && body.format === 'form' && isRecord(body.value) ? body.value : undefined;
    const findings: Finding[] = [
      ...checkParameters(operation, { url: call.url, headers: call.headers, pathValues: pathValues(path, call.url.pathname), form }),
      ...checkRequestBody(operation, call.headers.get('content-type'), body),
      ...responseFindings(operation, reply, call.method),
    ];
    const where = `${operationLabel(operation)} in ${path.contract.name}`;
    return findings.map((finding) => ({ message: `${finding.field}: ${finding.message}`, operation: where }));
  };
  const body = readBody(operation);
  return body instanceof Promise ? body.then(finish) : finish(body);
}

/** One answered call against the documents (see `checkCallWith`), reading its body first when it has one. */
export async function checkCall(call: OutgoingCall, reply: MockReply, context: CallCheckContext): Promise<ContractViolation[] | undefined> {
  return checkCallWith(call, reply, context, () => bodyOf(call));
}

/** `checkCall` without awaiting, for a call with no body to read (GET, HEAD); `NOT_NOW` for any other. */
export function checkCallNow(call: OutgoingCall, reply: MockReply, context: CallCheckContext): ContractViolation[] | undefined | typeof NOT_NOW {
  if (!hasNoBody(call)) return NOT_NOW;
  return checkCallWith(call, reply, context, () => undefined) as ContractViolation[] | undefined;
}
