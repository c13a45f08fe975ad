import type { NOT_NOW } from './interception/call-outcome.js';
import type { MockReply } from './interception/mock-reply.js';
import type { OutgoingCall } from './interception/outgoing-call.js';

/** What `contracts.onViolation` does with a call that breaks a document's contract. */
export type ContractViolationStrategy = 'warn' | 'error';

/**
 * Check each answered call against the API's OpenAPI (or Swagger 2) documents, and each `llm`
 * answer against the schemas its own request sent (`createHarness({ contracts })`). Give
 * `openapi`, or `llm: true`, or both.
 */
export interface ContractsOptions {
  /**
   * The documents, each a file path (JSON or YAML; relative to the working directory) or the
   * document as an object. A call is checked against the document whose `servers` (Swagger 2:
   * `host` + `basePath`) it falls under; calls under none are not checked. Optional when `llm`
   * is `true`.
   */
  openapi?: (string | Record<string, unknown>)[];
  /**
   * Check each `llm` mock's answer against the schemas in the request the app sent: the text
   * against `response_format` (OpenAI Chat), `text.format` (Responses), `output_config.format`
   * (Anthropic) or `generationConfig.responseSchema`/`responseJsonSchema` (Gemini), and each tool
   * call's arguments against the offered tool's parameters (`input_schema` for Anthropic). A tool
   * call naming a tool the request does not offer is a violation too. On whenever `contracts` is
   * set; `contracts: { llm: true }` alone checks LLM answers with no API document.
   * @default true
   */
  llm?: boolean;
  /**
   * `'warn'`: log each distinct problem once, and answer the call as the mock says.
   * `'error'`: fail the call (as a network error the app sees) with a message naming the problem.
   * Either way the call's journal entry lists them in `contractViolations`.
   * @default 'warn'
   */
  onViolation?: ContractViolationStrategy;
  /**
   * Let a document's `$ref`s read local files outside its folder. Off, such a `$ref` fails
   * `start()` naming the file, so a credentials file a document points at never shows in a
   * violation or the journal. Turn it on only for a document you trust.
   * @default false
   */
  allowRefsOutside?: boolean;
}

/** One problem of a call: what breaks the contract, and where it is documented (for grouping and logs). */
export interface ContractViolation {
  /** `request.body.currency: missing: the schema requires it` */
  message: string;
  /** `POST /charges in payments.yaml`, or the document's name alone when the call is on no operation of it; `openai.chat` for an `llm` answer. */
  operation: string;
  /** `'llm'`: an `llm` answer breaks a schema its own request sent (no document involved). */
  source?: 'llm';
}

/**
 * The contract checks, as the core sees them: the `contracts/` layer implements it, loaded with
 * `import()` by the composition root only when `contracts` is set (ajv never loads otherwise).
 */
export interface ContractChecker {
  /** The call's problems (its request, and the mock's reply); `undefined` when its URL is under no document's servers and it has no `llm` answer to check. */
  check(call: OutgoingCall, reply: MockReply): Promise<ContractViolation[] | undefined>;
  /**
   * The same without awaiting, for a call with no body to read (GET, HEAD), so the synchronous
   * fast path can answer it checked; `NOT_NOW` for any other call.
   */
  checkNow(call: OutgoingCall, reply: MockReply): ContractViolation[] | undefined | typeof NOT_NOW;
}
