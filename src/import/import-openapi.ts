import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { guardDocumentFiles } from './guard-document-files.js';
import { HarnessError } from '../core/errors.js';
import { HTTP_METHODS } from '../core/scenario-schema.js';
import type { HttpMethod, Mock, MockResponse, ScenarioDefinition, ScenarioMap } from '../core/types.js';
import { canonicalJson, setOwn } from '../record/plain-data.js';
import { chooseBaseUrl } from './openapi-base-url.js';
import { chooseMedia, exampleHeaders, exampleResponse, isRecord, namedExamples, preferredExample, safeSample, type ExampleSource, type Sample } from './openapi-response.js';
import { placeOpenApiErrors } from './openapi-error-place.js';
import { openApiUrl } from './openapi-url.js';

/** How `importOpenApi` names and places the scenarios. */
export interface ImportOpenApiOptions {
  /** Prefix of the generated scenario IDs: `payments` → `payments:createCharge:card_declined`. @default none */
  name?: string;
  /** The base URL: an index into the document's servers, or a URL of your own (absolute, or a path for any origin). @default the first server */
  server?: string;
  /** The ID of the scenario with one mock per operation. @default 'default' */
  defaultScenario?: string;
  /** Refuse a document that does not validate against its specification. @default true */
  validate?: boolean;
  /** Let `$ref`s name local files outside the document's folder (their content is copied into the scenarios). @default false */
  allowRefsOutside?: boolean;
}

/** An imported document: scenarios for a scenario file, their IDs in order, and what else to know. */
export interface ImportedOpenApi {
  scenarios: ScenarioMap;
  /** Every scenario ID, the default one first: for the `as const` list (`idsModule`). */
  ids: string[];
  /** `Swagger 2.0`, `OpenAPI 3.0.3`, `OpenAPI 3.1.0`. */
  specification: string;
  operations: number;
  /** Where the default mocks' examples came from: `{ example: 3, examples: 2, 'schema example': 1, sample: 4 }`. */
  exampleSources: Partial<Record<ExampleSource, number>>;
  notes: string[];
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** An operation's documented response, answered as a mock. */
interface DocumentedResponse {
  code: string;
  status: number;
  description: string | undefined;
  response: MockResponse;
  source: ExampleSource;
  examples: [name: string, summary: string | undefined, response: MockResponse][];
}

/** A response code's status: `402`, `4XX` → 400; `undefined` for `default`; `NaN` for what a mock cannot answer (1xx, nonsense). */
function statusOf(code: string): number | undefined {
  if (/^[2-5]\d\d$/.test(code)) return Number(code);
  if (/^[2-5]xx$/i.test(code)) return Number(code[0]) * 100;
  return code === 'default' ? undefined : NaN;
}

/** Mock IDs are at most 200 characters. */
function mockId(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** `createCharge`, or for an operation without one `getPetsPetId`; never a `:` (the ID separator). */
function operationName(operation: Json, method: string, path: string): string {
  if (typeof operation.operationId === 'string' && operation.operationId.trim() !== '') return operation.operationId.trim().replace(/[:\s]+/g, '_');
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

async function loadDocument(path: string, validate: boolean, allowRefsOutside: boolean): Promise<Json> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new HarnessError('INVALID_ARGUMENT', `Failed to import ${path}: it is a directory. Give the OpenAPI document's file.`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new HarnessError('INVALID_ARGUMENT', `Failed to import ${path}: no such file. Check the path (relative paths start from ${process.cwd()}).`);
    throw error;
  }
  // Loaded here only: the CLI's import is the one place these parsers run, never an app.
  const parser = await import('@readme/openapi-parser');
  const guard = guardDocumentFiles(path, { allowRefsOutside, consequence: 'Its content would be copied into the scenario file', allow: 'pass --allow-refs-outside' });
  const resolve = { resolve: guard.resolve };
  try {
    if (validate) {
      const result = await parser.validate(path, resolve);
      if (!result.valid) {
        // The validator points at lines of a JSON rendering of the document: point each error at the user's own file.
        let report = parser.compileErrors(result).trim();
        const messages = result.errors.map(({ message }) => message);
        const placed = await placeOpenApiErrors(await readFile(path, 'utf8'), path, messages).catch(() => messages);
        messages.forEach((message, i) => (report = report.replace(message, () => placed[i]!)));
        throw new HarnessError('INVALID_ARGUMENT', `Failed to import ${path}: it is not a valid OpenAPI or Swagger document:\n${report}\nFix the document, or pass --skip-validation to import it as it is.`);
      }
    }
    return (await parser.dereference(path, { ...resolve, dereference: { circular: 'ignore' } })) as unknown as Json;
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    const refusal = guard.refusal();
    if (refusal !== undefined) throw new HarnessError('INVALID_ARGUMENT', `Failed to import ${path}: ${refusal}`);
    throw new HarnessError('INVALID_ARGUMENT', `Failed to import ${path}: ${(error as Error).message.trim()}`, { cause: error });
  }
}

/** One documented response as a mock response, with its named examples (OpenAPI 3) or its `examples` by media type (Swagger 2). */
function documentedResponse(code: string, object: Json, operation: Json, document: Json, sample: Sample, method: string, notes: string[]): DocumentedResponse {
  const status = statusOf(code) ?? 500;
  const description = typeof object.description === 'string' ? object.description : undefined;
  const base = { code, status, description };
  if (method === 'head') return { ...base, response: { status }, source: 'none', examples: [] };
  if (document.swagger !== undefined) {
    const produces = (operation.produces ?? document.produces ?? ['application/json']) as string[];
    const examples = isRecord(object.examples) ? object.examples : {};
    const type = Object.keys(examples).find((t) => t.includes('json')) ?? produces.find((t) => t.includes('json')) ?? Object.keys(examples)[0] ?? produces[0];
    const schema = isRecord(object.schema) ? object.schema : undefined;
    const headers = exampleHeaders(object.headers);
    let value: unknown;
    let source: ExampleSource = 'none';
    if (type !== undefined && examples[type] !== undefined) [value, source] = [examples[type], 'example'];
    else if (schema?.example !== undefined) [value, source] = [schema.example, 'schema example'];
    else if (schema !== undefined) [value, source] = [safeSample(sample, schema, document, notes), 'sample'];
    return { ...base, response: exampleResponse(status, value === undefined ? undefined : type, value, headers, notes, source === 'sample'), source, examples: [] };
  }
  const media = chooseMedia(object.content);
  const headers = exampleHeaders(object.headers);
  const { value, source } = preferredExample(media?.media, document, sample, notes);
  return {
    ...base,
    response: exampleResponse(status, media?.type, value, headers, notes, source === 'sample'),
    source,
    examples: namedExamples(media?.media).map(([name, example]) => [name, typeof example.summary === 'string' ? example.summary : undefined, exampleResponse(status, media!.type, example.value, headers, notes)]),
  };
}

/**
 * Read an OpenAPI 3.0/3.1 or Swagger 2 document (JSON or YAML, `$ref`s resolved by
 * @readme/openapi-parser) and build scenarios from it: a default scenario with one mock per
 * operation (its first 2xx response, from `example` → `examples` → the schema's example → a
 * deterministic sample with openapi-sampler), and one scenario per named example and per
 * documented error status holding only that mock (`payments:createCharge:card_declined`,
 * `payments:createCharge:402`). A request example that shares its name with a response example
 * adds a mock to the default scenario answering that response for that request body.
 * Loads the parsers on first use: for the CLI, never for an app.
 *
 * @example
 * const { scenarios, ids } = await importOpenApi('specs/payments.yaml', { name: 'payments' });
 */
export async function importOpenApi(path: string, options: ImportOpenApiOptions = {}): Promise<ImportedOpenApi> {
  const document = await loadDocument(path, options.validate ?? true, options.allowRefsOutside === true);
  const { sample } = (await import('openapi-sampler')) as { sample: Sample };
  const version = String(document.swagger ?? document.openapi ?? '');
  const specification = document.swagger !== undefined ? `Swagger ${version}` : `OpenAPI ${version}`;
  if (!isRecord(document.paths)) throw new HarnessError('INVALID_ARGUMENT', `Failed to import ${path}: it has no "paths", so there is nothing to mock.`);

  const prefix = options.name ? `${options.name}:` : '';
  const defaultId = options.defaultScenario ?? 'default';
  const info = isRecord(document.info) ? document.info : {};
  const notes: string[] = [];
  const defaultMocks: Mock[] = [];
  const extras: [string, ScenarioDefinition][] = [];
  const taken = new Set<string>([defaultId]);
  const claim = (...candidates: string[]) => {
    const id = candidates.find((candidate) => !taken.has(candidate)) ?? `${candidates.at(-1)}:${taken.size}`;
    taken.add(id);
    return id;
  };
  const exampleSources: Partial<Record<ExampleSource, number>> = {};
  const names = new Set<string>();
  let operations = 0;

  for (const [path_, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) continue;
    for (const method of Object.keys(item).filter((key) => METHODS.includes(key))) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const upper = method.toUpperCase();
      let opName = operationName(operation, method, path_);
      for (let n = 2; names.has(opName); n++) opName = `${operationName(operation, method, path_)}_${n}`;
      names.add(opName);
      const label = `${upper} ${path_}`;
      if (!(HTTP_METHODS as readonly string[]).includes(upper)) {
        notes.push(`${label} (${opName}): skipped, scenario files have no ${upper} mocks`);
        continue;
      }
      operations++;
      const url = openApiUrl(chooseBaseUrl(document, options.server, operation.servers ?? item.servers), path_);
      const opNotes: string[] = [];
      const documentedCodes = Object.entries(isRecord(operation.responses) ? operation.responses : {});
      for (const [code] of documentedCodes.filter(([code]) => Number.isNaN(statusOf(code) ?? 0))) opNotes.push(`response ${code} skipped: a mock answers 200–599`);
      const responses = documentedCodes
        .filter((entry): entry is [string, Json] => isRecord(entry[1]) && !Number.isNaN(statusOf(entry[0]) ?? 0))
        .map(([code, object]) => documentedResponse(code, object, operation, document, sample, method, opNotes));
      const success = [...responses].filter(({ code }) => /^2/.test(code)).sort((a, b) => a.status - b.status)[0] ?? responses.find(({ code }) => code === 'default');
      const summary = typeof operation.summary === 'string' ? operation.summary : opName;
      const mock = (id: string, response: MockResponse, match?: Mock['match']): Mock => ({ id: mockId(id), method: upper as HttpMethod, url, ...(match ? { match } : {}), response });
      const scenario = (id: string, name: string, description: string, mocks: Mock[]) => extras.push([id, { name, description, mocks }]);
      for (const line of [...new Set(opNotes)]) notes.push(`${label} (${opName}): ${line}`);

      if (success === undefined) {
        notes.push(`${label} (${opName}): no 2xx or default response documented; no mock in "${defaultId}"`);
      } else {
        const response = success.code === 'default' ? { ...success.response, status: 200 } : success.response;
        defaultMocks.push(mock(opName, response));
        exampleSources[success.source] = (exampleSources[success.source] ?? 0) + 1;
        // Request and response examples sharing a name: that request body answers that response, in the default scenario too.
        const requestMedia = isRecord(operation.requestBody) ? chooseMedia(operation.requestBody.content) : undefined;
        for (const [name, example] of namedExamples(requestMedia?.media)) {
          const answer = responses.flatMap(({ examples }) => examples).find(([responseName]) => responseName === name);
          if (answer === undefined || !isRecord(example.value) || canonicalJson(answer[2]) === canonicalJson(response)) continue;
          defaultMocks.push(mock(`${opName}:${name}`, answer[2], { body: example.value }));
        }
      }

      for (const documented of responses) {
        for (const [name, exampleSummary, response] of documented.examples) {
          const id = claim(`${prefix}${opName}:${name}`, `${prefix}${opName}:${documented.code}:${name}`);
          scenario(id, `${summary}: ${exampleSummary ?? name}`, `${label} answers ${documented.status} with the example "${name}" (from ${basename(path)}).`, [mock(`${opName}:${name}`, response)]);
        }
        const isError = documented.status >= 400 && (documented.code !== 'default' || success !== documented);
        if (isError) {
          const id = claim(`${prefix}${opName}:${documented.code}`, `${prefix}${opName}:${documented.code}:status`);
          const what = documented.description ?? `status ${documented.status}`;
          scenario(id, `${summary}: ${what}`, `${label} answers ${documented.status}${documented.code === 'default' ? ' (the document\'s "default" response)' : ''}: ${what} (from ${basename(path)}).`, [mock(`${opName}:${documented.code}`, documented.response)]);
        }
      }
    }
  }

  const scenarios: ScenarioMap = {};
  const title = typeof info.title === 'string' ? info.title : basename(path);
  setOwn(scenarios, defaultId, {
    name: `${title}${typeof info.version === 'string' ? ` ${info.version}` : ''}`,
    description: `Imported from ${basename(path)} (${specification}) by scenario-harness: one mock per operation, answering its first 2xx response.`,
    mocks: defaultMocks,
  } satisfies ScenarioDefinition);
  for (const [id, definition] of extras) setOwn(scenarios, id, definition);
  return { scenarios, ids: [defaultId, ...extras.map(([id]) => id)], specification, operations, exampleSources, notes };
}
