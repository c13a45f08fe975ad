import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileScenarios } from '../core/engine/compile-scenarios.js';
import { HarnessError } from '../core/errors.js';
import type { ScenarioMap } from '../core/types.js';
import { loadScenarioFile, type ScenarioFile } from '../files/load-scenario-file.js';
import { loadScenarioSet } from '../files/load-scenarios.js';

/** Module extensions register imports (`.ts`/`.mts` only where Node, or a loader before register, runs TypeScript). */
const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts']);

/** A module's scenario map: its `scenarios` export, else its default export. */
async function loadScenarioModule(path: string): Promise<ScenarioFile> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (error) {
    const typescript = /\.m?ts$/.test(path) && (error as NodeJS.ErrnoException).code === 'ERR_UNKNOWN_FILE_EXTENSION';
    const remedy = typescript
      ? ' This Node does not load TypeScript by itself (Node 22.18 and later do): compile the module to .js, or load a TypeScript loader first (node --import tsx --import scenario-harness/register …).'
      : '';
    throw new HarnessError('INVALID_SCENARIOS', `Failed to load scenario module ${path}: ${(error as Error).message}.${remedy}`, { cause: error });
  }
  const scenarios = module.scenarios ?? module.default;
  if (typeof scenarios !== 'object' || scenarios === null || Array.isArray(scenarios)) {
    throw new HarnessError(
      'INVALID_SCENARIOS',
      `Failed to load scenario module ${path}: expected it to export \`scenarios\` (or a default export) holding a map of scenario ID → definition, instead its exports are ${Object.keys(module).map((name) => JSON.stringify(name)).join(', ') || 'empty'}.`,
    );
  }
  compileScenarios(scenarios as ScenarioMap, { file: path });
  return { path, scenarios: scenarios as ScenarioMap };
}

/**
 * One scenario map from scenario files (`.json`, `.yaml`, `.yml`) and modules (`.js`, `.mjs`,
 * `.cjs`, `.ts`, `.mts`), each validated, every failure reported at once with its file.
 */
export function loadScenarioSources(paths: readonly string[]): Promise<ScenarioMap> {
  return loadScenarioSet(paths, loadScenarioSource);
}

/** One scenario file or module, by its extension, validated. */
export function loadScenarioSource(path: string): Promise<ScenarioFile> {
  return MODULE_EXTENSIONS.has(extname(path).toLowerCase()) ? loadScenarioModule(path) : loadScenarioFile(path);
}
