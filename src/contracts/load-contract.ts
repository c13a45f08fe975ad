import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { HarnessError } from '../core/errors.js';
import { expansionProblem, guardDocumentFiles } from '../import/guard-document-files.js';
import { measureExpansion } from '../import/measure-expansion.js';
import { dropUnsafePatterns } from './drop-unsafe-patterns.js';
import { toJsonSchemaDialect } from './schema-dialect.js';
import { isRecord, type Json } from './json-pointer.js';
import { contractServers, type ContractServer } from './contract-servers.js';

/** The dialect of a document's schemas: each is turned into JSON Schema 2020-12 its own way. */
export type Dialect = 'swagger2' | 'openapi30' | 'openapi31';

/** One API document, bundled (every `$ref` local) and ready to check against. */
export interface Contract {
  /** The path as it was given. */
  path: string;
  /** The file name, for messages: `payments.yaml`. */
  name: string;
  /** `Swagger 2.0`, `OpenAPI 3.0.3`, `OpenAPI 3.1.0`. */
  specification: string;
  dialect: Dialect;
  /** The bundled document, its schemas already in JSON Schema 2020-12, without the patterns `warnings` name. */
  document: Json;
  servers: ContractServer[];
  /** What is not checked, and why: a `pattern` that could backtrack catastrophically, named by its JSON pointer. */
  warnings: string[];
}

function fail(path: string, reason: string): never {
  throw new HarnessError('INVALID_ARGUMENT', `Failed to read the API document ${path}: ${reason}`);
}

function dialectOf(document: Json, path: string): Dialect {
  const version = String(document.swagger ?? document.openapi ?? '');
  if (document.swagger !== undefined) {
    if (version.startsWith('2.')) return 'swagger2';
  } else if (version.startsWith('3.0')) return 'openapi30';
  else if (version.startsWith('3.1') || version.startsWith('3.2')) return 'openapi31';
  if (document.swagger === undefined && document.openapi === undefined) {
    fail(path, 'it has neither "openapi" nor "swagger" at the top, so it is not an OpenAPI or Swagger document. Pass the API\'s document (OpenAPI 3.0, 3.1 or Swagger 2.0, JSON or YAML).');
  }
  fail(path, `its version ${JSON.stringify(version)} is not one this check reads. Give an OpenAPI 3.0, 3.1 or Swagger 2.0 document.`);
}

export interface LoadContractOptions {
  /** Names a document given as an object in messages: `contracts.openapi[0] ("Payments")`. */
  label?: string;
  /** Let `$ref`s read local files outside the document's folder (`--allow-refs-outside`). @default false */
  allowRefsOutside?: boolean;
}

/**
 * Read an OpenAPI 3.0/3.1 or Swagger 2 document (JSON or YAML) for checking: `$ref`s to other
 * files are bundled in (local ones stay references, so recursive schemas stay finite), and its
 * schemas are rewritten as JSON Schema 2020-12 for the validator. Throws a `HarnessError` that
 * says what to do for a missing file, a file that does not parse, a `$ref` to a local file outside
 * the document's folder, or a document without servers. A document given as an object reads no
 * local file (the parser's default).
 */
export async function loadContract(source: string | Json, { label, allowRefsOutside = false }: LoadContractOptions = {}): Promise<Contract> {
  // A document given as an object (`contracts.openapi`) is named by its title in messages.
  const path = typeof source === 'string' ? source : (label ?? `the document "${String(isRecord(source.info) ? source.info.title : 'untitled')}"`);
  if (typeof source === 'string') {
    try {
      if ((await stat(path)).isDirectory()) fail(path, 'it is a directory. Give the document\'s file.');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') fail(path, `no such file. Check the path (relative paths start from ${process.cwd()}).`);
      throw error;
    }
  }
  // Loaded here only: the parser belongs to the CLI and to harnesses with `contracts`, never to other apps.
  const parser = await import('@readme/openapi-parser');
  const guard =
    typeof source === 'string'
      ? guardDocumentFiles(source, {
          allowRefsOutside,
          consequence: 'Its content could show in the check\'s report, in contract-violation answers and in the journal',
          allow: 'pass --allow-refs-outside (createHarness: contracts.allowRefsOutside: true)',
        })
      : undefined;
  if (typeof source !== 'string') {
    // Objects used in several places are shared, like YAML aliases: the parser walks each place.
    const problem = expansionProblem('it', measureExpansion(source), 'the objects it uses in several places');
    if (problem !== undefined) fail(path, problem);
  }
  let parsed: unknown;
  try {
    // A copy: the parser writes into the object it is given, and the caller's document stays theirs.
    parsed = await parser.bundle(typeof source === 'string' ? source : (structuredClone(source) as never), guard === undefined ? undefined : { resolve: guard.resolve });
  } catch (error) {
    const refusal = guard?.refusal();
    if (refusal !== undefined) fail(path, refusal);
    const reason = (error as Error).message.trim().replace(/\s+/g, ' ');
    fail(path, `it does not parse (${reason}). Fix the JSON or YAML syntax, or a $ref that points nowhere.`);
  }
  if (!isRecord(parsed)) fail(path, 'it is not a JSON or YAML object. Pass the API\'s OpenAPI or Swagger document.');
  const dialect = dialectOf(parsed, path);
  if (!isRecord(parsed.paths)) fail(path, 'it has no "paths", so it documents no operation to check against.');
  const servers = contractServers(parsed);
  if (servers.length === 0) {
    const where = dialect === 'swagger2' ? '"host" (and "basePath")' : '"servers"';
    fail(path, `it names no server (no ${where}), so no mock URL can be placed under it. Add the API's base URL to the document (${dialect === 'swagger2' ? 'host: api.example.com, basePath: /v1' : 'servers: [{ url: https://api.example.com/v1 }]'}), or check against a copy that has it.`);
  }
  const specification = `${dialect === 'swagger2' ? 'Swagger' : 'OpenAPI'} ${String(parsed.swagger ?? parsed.openapi)}`;
  const document = toJsonSchemaDialect(parsed, dialect);
  const warnings = dropUnsafePatterns(document);
  return { path, name: typeof source === 'string' ? basename(path) : path, specification, dialect, document, servers, warnings };
}
