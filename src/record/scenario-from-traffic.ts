import { compileScenarios } from '../core/engine/compile-scenarios.js';
import { HarnessError } from '../core/errors.js';
import { HTTP_METHODS } from '../core/scenario-schema.js';
import type { HttpMethod, Mock, MockMatch, MockResponse, ScenarioMap, SocketMock } from '../core/types.js';
import { collapseResponses } from './collapse-responses.js';
import { findSecretLeaks, type SecretLeak } from './find-secret-leaks.js';
import { formatScenarioFile, type ScenarioFileFormat } from './format-scenario-file.js';
import { headerEntries } from './header-entries.js';
import { keepTemplatesLiteral } from './keep-templates-literal.js';
import { canonicalJson } from './plain-data.js';
import { mockLabel, recordedUrl } from './recorded-url.js';
import type { RecordedExchange, RecordedSocket } from './recorded-exchange.js';
import type { PendingRedaction, Redaction } from './redaction.js';
import { rememberSecretValues } from './remember-secret-values.js';
import { requestMatch, type MatchRules } from './request-match.js';
import { responseDraft, type DraftResponse } from './response-draft.js';
import { scrubMatch, scrubPath, scrubResponse } from './scrub-known-secrets.js';
import { secretNameSet } from './secret-names.js';
import { createSecretRegistry, MIN_NAMED_SECRET_LENGTH, type KnownSecret } from './secret-registry.js';
import { volatileRules, type VolatileNames } from './volatile-names.js';
import { secretLeakError } from './secret-leak-error.js';
import { rememberSocketSecrets, socketMockFromTraffic } from './socket-from-traffic.js';

/** How `scenarioFromTraffic` turns calls into a scenario. */
export interface ScenarioFromTrafficOptions {
  /** The scenario's ID in the map. @default 'default' */
  scenarioId?: string;
  /** The scenario's `name`. @default 'Recorded' */
  name?: string;
  /** The one timestamp written (in the scenario's `description`). @default now */
  recordedAt?: Date | string;
  /**
   * Values never to write: `env` names environment variables whose values are replaced by
   * `[redacted]` wherever they appear; `values` gives values directly (a recorder that knows them).
   */
  secrets?: { env?: string[]; values?: string[] };
  /** Where `secrets.env` is read from. @default process.env */
  env?: Record<string, string | undefined>;
  /** Request headers to match (`match.headers`); secret-looking ones never are. @default [] */
  matchHeaders?: string[];
  /** More names to redact, on top of the defaults: header names, and JSON/form/query key names. */
  redact?: { headers?: string[]; keys?: string[] };
  /** More names to treat as volatile: query parameters, body keys, response headers. */
  volatile?: VolatileNames;
}

/** The result of a conversion: one scenario, what was redacted, and what else was done. */
export interface RecordedScenario {
  scenarioId: string;
  /** `{ [scenarioId]: definition }`: valid for `createHarness` and `loadScenarios`. */
  scenarios: ScenarioMap;
  /** Every redaction applied, in mock order (also listed in the scenario's `description`). */
  redactions: Redaction[];
  /** What else was left out or changed, one line each (volatile parameters, skipped calls, kept-as-bytes bodies). */
  notes: string[];
  /** Calls converted (skipped ones not counted). */
  calls: number;
  /**
   * The scenario file's text (`json` by default), checked once more for every known secret
   * value: throws `SECRET_LEAK` rather than return a text that holds one.
   */
  toFileText(format?: ScenarioFileFormat): Promise<string>;
}

interface Group {
  key: string;
  label: string;
  method: HttpMethod;
  url: Mock['url'];
  match: MockMatch;
  drafts: DraftResponse[];
  redactions: PendingRedaction[];
  notes: string[];
}

function envSecrets(options: ScenarioFromTrafficOptions, notes: string[]): KnownSecret[] {
  const env = options.env ?? process.env;
  const out: KnownSecret[] = [];
  for (const name of options.secrets?.env ?? []) {
    const value = env[name];
    if (value === undefined || value === '') {
      notes.push(`secrets.env: ${name} is not set; nothing to replace for it`);
      continue;
    }
    if (value.length < MIN_NAMED_SECRET_LENGTH) {
      throw new HarnessError('INVALID_ARGUMENT', `Failed to record: the environment variable ${name} (in secrets.env) holds only ${value.length} characters, too short to find and replace safely. Give a secret of at least ${MIN_NAMED_SECRET_LENGTH} characters, or leave ${name} out.`);
    }
    out.push({ value, source: `env ${name}` });
  }
  for (const [i, value] of (options.secrets?.values ?? []).entries()) {
    if (value.length >= MIN_NAMED_SECRET_LENGTH) out.push({ value, source: `secrets.values[${i}]` });
  }
  return out;
}

function describe(at: string, calls: number, redactions: readonly Redaction[], folds: readonly string[]): string {
  const lines = [`Recorded by scenario-harness at ${at} from ${calls} call${calls === 1 ? '' : 's'}.`];
  if (redactions.length > 0) {
    lines.push('Redacted (values never written; redacted request fields are not matched):');
    for (const r of redactions) lines.push(`- ${r.mock}: ${r.field} ${r.action} (${r.reason})`);
  }
  if (folds.length > 0) lines.push('Repeated calls:', ...folds.map((line) => `- ${line}`));
  return lines.join('\n');
}

function dedupe(redactions: readonly PendingRedaction[]): PendingRedaction[] {
  const seen = new Set<string>();
  return redactions.filter((r) => {
    const key = `${r.field}\u0000${r.action}\u0000${r.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Turn recorded calls into one scenario: a mock per request key (method, origin + path, the
 * query, body or GraphQL operation that tells calls apart), in first-seen order; repeated calls
 * to one key become a `sequence`. Volatile values are dropped, secrets redacted (never matched
 * against a placeholder), and the output is checked for every known secret value before it is
 * returned: it throws a `HarnessError` with code `SECRET_LEAK`, naming the field (never the value),
 * rather than return a leak. Deterministic: the same calls and options give the same result.
 *
 * @example
 * const recorded = await scenarioFromTraffic(exchanges, { scenarioId: 'checkout', secrets: { env: ['STRIPE_KEY'] } });
 * await writeFile('scenarios/checkout.json', await recorded.toFileText('json'));
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/record-and-import.md
 */
export async function scenarioFromTraffic(exchanges: readonly RecordedExchange[], options: ScenarioFromTrafficOptions = {}): Promise<RecordedScenario> {
  if (!Array.isArray(exchanges)) throw new TypeError(`Expected the recorded exchanges to be an array, instead got ${exchanges === null ? 'null' : typeof exchanges}.`);
  const scenarioId = options.scenarioId ?? 'default';
  if (typeof scenarioId !== 'string' || scenarioId === '') throw new TypeError(`Expected "scenarioId" to be a non-empty string, instead got ${JSON.stringify(scenarioId)}.`);
  const notes: string[] = [];
  const secrets = createSecretRegistry();
  for (const secret of envSecrets(options, notes)) secrets.add(secret.value, secret.source, MIN_NAMED_SECRET_LENGTH);
  const secretKeys = secretNameSet(options.redact?.keys);
  const secretHeaders = new Set((options.redact?.headers ?? []).map((name) => name.toLowerCase()));
  const rules: MatchRules = { volatile: volatileRules(options.volatile), secretKeys, secretHeaders, matchHeaders: new Set((options.matchHeaders ?? []).map((name) => name.toLowerCase())), secrets };

  // First pass: read every call, redacting by name; every secret value met (by its name or by its shape) is remembered.
  const read: { method: HttpMethod; url: URL; match: MockMatch; operationName: string | undefined; draft: DraftResponse; redactions: PendingRedaction[]; notes: string[] }[] = [];
  const sockets: { url: string; socket: RecordedSocket }[] = [];
  for (const [i, { request, response, socket }] of exchanges.entries()) {
    const method = request.method.toUpperCase();
    // A WebSocket: its secrets are learnt with the calls', and it is drafted after them (socket-from-traffic.ts).
    if (socket !== undefined) {
      try {
        rememberSocketSecrets(new URL(request.url.replace(/^ws/, 'http')), headerEntries(request.headers), socket, secrets);
        sockets.push({ url: request.url, socket });
      } catch {
        notes.push(`socket ${i}: skipped, ${JSON.stringify(request.url)} is not an absolute URL`);
      }
      continue;
    }
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      notes.push(`call ${i}: skipped, ${JSON.stringify(request.url)} is not an absolute URL`);
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      notes.push(`call ${i} (${method} ${url.origin}${url.pathname}): skipped, only http and https calls are recorded`);
      continue;
    }
    if (!(HTTP_METHODS as readonly string[]).includes(method)) {
      notes.push(`call ${i} (${method} ${url.origin}${url.pathname}): skipped, scenario files have no ${method} mocks (methods: ${HTTP_METHODS.join(', ')})`);
      continue;
    }
    if (!Number.isInteger(response.status) || response.status < 200 || response.status > 599) {
      notes.push(`call ${i} (${method} ${url.origin}${url.pathname}): skipped, status ${response.status} cannot be replayed (200–599)`);
      continue;
    }
    const redactions: PendingRedaction[] = [];
    const callNotes: string[] = [];
    const headers = headerEntries(request.headers);
    const { match, operationName } = await requestMatch({ method, url, headers, body: request.body }, rules, redactions, callNotes);
    const draft = responseDraft(method, response.status, headerEntries(response.headers), response.body, rules, redactions, response.chunks);
    rememberSecretValues({ url, requestHeaders: headers, requestBody: request.body, match, response: draft.response }, secrets);
    read.push({ method: method as HttpMethod, url, match, operationName, draft, redactions, notes: callNotes });
  }

  // Second pass: every known secret value is cut from matches and replaced in responses; calls group by request key.
  const groups = new Map<string, Group>();
  for (const call of read) {
    const path = scrubPath(call.url.pathname, secrets, call.redactions);
    const match = scrubMatch(call.match, secrets, call.redactions);
    const draft: DraftResponse = { ...call.draft, response: keepTemplatesLiteral(scrubResponse(call.draft.response, secrets, call.redactions), call.draft.kind, call.notes) };
    const url = recordedUrl(call.url.origin, path);
    const key = `${call.method} ${canonicalJson(url)} ${canonicalJson(match)}`;
    const group = groups.get(key);
    if (group) {
      group.drafts.push(draft);
      group.redactions.push(...call.redactions);
      group.notes.push(...call.notes);
    } else {
      groups.set(key, { key, label: mockLabel(call.method, call.url.host, path, call.operationName), method: call.method, url, match, drafts: [draft], redactions: call.redactions, notes: call.notes });
    }
  }

  const mocks: Mock[] = [];
  const redactions: Redaction[] = [];
  const folds: string[] = [];
  const labels = new Map<string, number>();
  for (const group of groups.values()) {
    const count = (labels.get(group.label) ?? 0) + 1;
    labels.set(group.label, count);
    const id = count === 1 ? group.label : `${group.label} #${count}`;
    const { response, sequence, note } = collapseResponses(group.drafts.map(({ response }) => response));
    if (note !== undefined) folds.push(`${id}: ${note}`);
    for (const line of [...new Set(group.notes)]) notes.push(`${id}: ${line}`);
    for (const redaction of dedupe(group.redactions)) redactions.push({ mock: id, ...redaction });
    const mock: Mock = { id, method: group.method, url: group.url };
    if (Object.keys(group.match).length > 0) mock.match = group.match;
    if (sequence !== undefined) mock.sequence = sequence;
    else mock.response = response as MockResponse;
    mocks.push(mock);
  }

  // One socket mock per URL, from its first connection; the others are named in the notes.
  const socketMocks: SocketMock[] = [];
  for (const { url, socket } of sockets) {
    if (socketMocks.some((mock) => mock.url === url)) {
      notes.push(`${url}: another connection to it was recorded; the socket mock replays the first`);
      continue;
    }
    const pending: PendingRedaction[] = [];
    socketMocks.push(socketMockFromTraffic(url, socket, secrets, pending, notes));
    for (const redaction of dedupe(pending)) redactions.push({ mock: url, ...redaction });
  }

  const at = options.recordedAt === undefined ? new Date().toISOString() : new Date(options.recordedAt).toISOString();
  const scenarios: ScenarioMap = {};
  Object.defineProperty(scenarios, scenarioId, {
    value: { name: options.name ?? 'Recorded', description: describe(at, read.length, redactions, folds), mocks, ...(socketMocks.length === 0 ? {} : { sockets: socketMocks }) },
    enumerable: true,
    writable: true,
    configurable: true,
  });

  const known = secrets.list();
  const leaks: SecretLeak[] = findSecretLeaks(scenarios, known);
  if (leaks.length > 0) throw secretLeakError(scenarioId, leaks);
  // The output must load as any scenario file does; a failure here is a bug of the converter, said with the field.
  compileScenarios(scenarios, { checkedBy: 'scenarioFromTraffic()' });
  return {
    scenarioId,
    scenarios,
    redactions,
    notes,
    calls: read.length,
    toFileText: async (format = 'json') => formatScenarioFile(scenarios, format, { secrets: known, scenarioId }),
  };
}
