import { HarnessError } from '../core/errors.js';
import type { Mock, ScenarioMap } from '../core/types.js';
import type { ScenarioFile } from '../files/load-scenario-file.js';
import { checkMock } from './check-mock.js';
import { loadContract, type Contract } from './load-contract.js';
import { createSchemaValidators, type SchemaValidators } from './schema-validators.js';

/** Which mock: its file, scenario (and variant), index in that list, and ID when it has one. */
export interface MockPlace {
  file: string;
  scenario: string;
  variant?: string;
  index: number;
  id?: string;
}

/** A mock that does not fit a document: at `field` of the mock, `message` says what the document expects there. */
export interface ContractProblem extends MockPlace {
  /** `response.body.category.id`, `match.query.limitt`, `method`, `url`. */
  field: string;
  /** What the document expects there: `expected integer, got the string "seven"`, `missing: the schema requires it`. */
  message: string;
  /** The document, as its path was given. */
  document: string;
  /** `GET /pets/{petId}`, when the mock reached an operation. */
  operation?: string;
}

/** A mock that was not checked, or only partly, and why. */
export interface UncheckedMock extends MockPlace {
  url: string;
  reason: string;
}

/** What `check` found, as `--json` prints it. */
export interface ContractReport {
  /** `warnings`, when there are any: what of the document is not checked, and why (a `pattern` that could backtrack catastrophically). */
  documents: { path: string; specification: string; servers: string[]; warnings?: string[] }[];
  /** Every mock read, checked or not. */
  mocks: number;
  /** Mocks checked against an operation (wholly or partly). */
  checked: number;
  problems: ContractProblem[];
  unchecked: UncheckedMock[];
}

function* mocksOf(file: string, scenarios: ScenarioMap): Generator<[MockPlace, Mock]> {
  for (const [scenario, definition] of Object.entries(scenarios)) {
    for (const [index, mock] of definition.mocks.entries()) yield [{ file, scenario, index, ...(mock.id ? { id: mock.id } : {}) }, mock];
    for (const [variant, overlay] of Object.entries(definition.variants ?? {})) {
      for (const [index, mock] of overlay.mocks.entries()) yield [{ file, scenario, variant, index, ...(mock.id ? { id: mock.id } : {}) }, mock];
    }
  }
}

function urlText(url: Mock['url']): string {
  if (typeof url === 'string') return url;
  return url instanceof RegExp ? String(url) : `/${url.regex.source}/${url.regex.flags ?? ''}`;
}

/** Every file, loaded; every failure reported at once, each naming its file. */
async function loadAll<T>(paths: readonly string[], load: (path: string) => Promise<T>): Promise<T[]> {
  const results = await Promise.allSettled(paths.map((path) => load(path)));
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as Error] : []));
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new HarnessError('INVALID_ARGUMENT', `Failed to read ${failures.length} of ${paths.length} files:\n\n${failures.map((error) => error.message).join('\n\n')}`, { cause: failures[0] });
  return results.map((result) => (result as PromiseFulfilledResult<T>).value);
}

/** Check already loaded scenario files against already loaded documents; validators are compiled once per schema. */
export function checkScenarios(contracts: readonly Contract[], files: readonly ScenarioFile[]): ContractReport {
  const validators = new Map<Contract, SchemaValidators>(contracts.map((contract) => [contract, createSchemaValidators(contract.document)]));
  const report: ContractReport = {
    documents: contracts.map((contract) => ({
      path: contract.path,
      specification: contract.specification,
      servers: contract.servers.map((server) => server.url),
      ...(contract.warnings.length > 0 ? { warnings: contract.warnings } : {}),
    })),
    mocks: 0,
    checked: 0,
    problems: [],
    unchecked: [],
  };
  for (const file of files) {
    for (const [place, mock] of mocksOf(file.path, file.scenarios)) {
      report.mocks++;
      const outcome = checkMock(mock, contracts, validators);
      if (outcome.unchecked !== undefined) report.unchecked.push({ ...place, url: urlText(mock.url), reason: outcome.unchecked });
      if (outcome.checked) report.checked++;
      for (const finding of outcome.findings) report.problems.push({ ...place, ...finding });
    }
  }
  return report;
}

/**
 * `scenario-harness check`: read the API documents and the scenario files (or modules, through
 * `loadFile`), and check every mock under a document's servers against it.
 */
export async function checkScenarioFiles(
  documentPaths: readonly string[],
  scenarioPaths: readonly string[],
  loadFile: (path: string) => Promise<ScenarioFile>,
  { allowRefsOutside = false }: { allowRefsOutside?: boolean } = {},
): Promise<ContractReport> {
  const [contracts, files] = await Promise.all([loadAll(documentPaths, (path) => loadContract(path, { allowRefsOutside })), loadAll(scenarioPaths, loadFile)]);
  return checkScenarios(contracts, files);
}
