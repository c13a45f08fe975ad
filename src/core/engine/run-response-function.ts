import { quote, type Logger } from '../dev-utils.js';
import { HarnessError } from '../errors.js';
import type { OutgoingCall } from '../interception/outgoing-call.js';
import { mockResponseSchema } from '../scenario-schema.js';
import type { MockResponse, MockResponseContext, MockResponseFunction } from '../types.js';
import { compileResponse, type CompiledMock, type CompiledResponse } from './compile-mock.js';
import { parseRequestBody } from './body/parse-request-body.js';

/**
 * Run a mock's response function and compile what it returns. A throw or an invalid response
 * fails the call with an error that names the mock (and is logged), never a silent pass-through.
 */
export async function runResponseFunction(
  fn: MockResponseFunction,
  call: OutgoingCall,
  mock: CompiledMock,
  context: MockResponseContext,
  logger: Logger,
): Promise<CompiledResponse | HarnessError> {
  const where = `the response function of mock ${mock.key}${mock.id === undefined ? '' : ` (id ${quote(mock.id)})`} for ${call.method} ${call.url.href} (test ${quote(context.testId)})`;
  const failure = (message: string, cause?: unknown) =>
    new HarnessError('RESPONSE_FUNCTION_FAILED', `[scenario-harness] ${message[0]!.toUpperCase()}${message.slice(1)}`, cause === undefined ? undefined : { cause });
  let made: unknown;
  try {
    made = await fn((await call.toRequest()).clone(), context);
  } catch (error) {
    const message = `${where} threw: ${(error as Error)?.message ?? String(error)}. The call fails.`;
    logger.error(message, error);
    return failure(message, error);
  }
  const checked = mockResponseSchema.safeParse(made ?? {});
  if (!checked.success || typeof made !== 'object' || made === null) {
    const problems = checked.success ? ['expected an object'] : checked.error.issues.map((issue) => `${issue.path.join('.') || 'response'}: ${issue.message}`);
    const message = `${where} returned an invalid response (${problems.join('; ')}). Return { status?, headers?, body? | bodyBase64? | stream? | llm?, delay?, error? }. The call fails.`;
    logger.error(message);
    return failure(message);
  }
  try {
    const response = made as MockResponse;
    // An `llm` answer's form depends on the request body (its streaming flag, model), which matching a function mock did not read.
    const requestBody = response.llm === undefined ? undefined : await readBody(call);
    return compileResponse(response, 'response', requestBody, mock.id ?? `${mock.label} (${mock.key})`);
  } catch (error) {
    const message = `${where} returned a response that cannot be used: ${(error as Error).message}. The call fails.`;
    logger.error(message);
    return failure(message);
  }
}

/** The call's body as `{{body}}` templates see it (`undefined` when empty or unreadable). */
async function readBody(call: OutgoingCall): Promise<unknown> {
  const bytes = await call.bodyBytes();
  if (bytes === undefined) return undefined;
  return (await parseRequestBody(call.headers.get('content-type'), bytes).catch(() => undefined))?.value;
}
