import type { SocketMock } from '../../types.js';
import type { CompiledScenario, Problem } from '../compile-scenarios.js';
import { DefinitionError } from '../definition-error.js';
import type { RegexJudge } from '../find-unsafe-regexes.js';
import { compileSocket, findUnsafeSocketRegexes, type CompiledSocket } from './compile-socket.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `on[0].steps[1].send` → `['on', 0, 'steps', 1, 'send']`. */
function splitField(field: string): PropertyKey[] {
  return [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map(([, key, index]) => (index === undefined ? key! : Number(index)));
}

interface SocketLayerOptions {
  checkRegexes: boolean;
  judge: RegexJudge | undefined;
  /** `scenario/sockets/2`, `scenario/variants/gold/sockets/0`: socket mocks the schema found problems in (they are not compiled). */
  issueKeys: ReadonlySet<string>;
  empty(id: string, definition: unknown): CompiledScenario;
}

/**
 * Compile a list of socket mocks, adding each problem (URL pattern, template, regular
 * expression) under `path`. The schema has checked the shapes; a mock it refused is skipped.
 */
export function compileSocketList(sockets: readonly SocketMock[], path: readonly PropertyKey[], keyPrefix: string, owner: { scenarioId: string; variant?: string; own?: boolean }, problems: Problem[], options: Pick<SocketLayerOptions, 'checkRegexes' | 'judge'> & { skip?: (index: number) => boolean }): CompiledSocket[] {
  return sockets.flatMap((socket, i) => {
    const at = (field: string) => [...path, i, ...splitField(field)];
    let unsafe: { field: string; message: string }[] = [];
    try {
      unsafe = findUnsafeSocketRegexes(socket, options.checkRegexes, options.judge);
    } catch {
      // A part of the wrong shape: the schema reports it.
    }
    for (const { field, message } of unsafe) problems.push({ path: at(field), message });
    if (options.skip?.(i) === true || unsafe.length > 0) return [];
    try {
      return [compileSocket(socket, i, `${keyPrefix}#${i}`, owner)];
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      problems.push({ path: at(error.field), message: error.message });
      return [];
    }
  });
}

/** The `sockets` of every scenario and variant of a scenario map, compiled into its entries. */
export function compileSocketLayers(source: Record<string, unknown>, compiled: Map<string, CompiledScenario>, problems: Problem[], options: SocketLayerOptions): void {
  for (const [id, definition] of Object.entries(source)) {
    if (!isRecord(definition)) continue;
    const lists: { variant?: string; sockets: unknown; path: PropertyKey[]; issuePrefix: string }[] = [{ sockets: definition.sockets, path: [id, 'sockets'], issuePrefix: `${id}/sockets` }];
    for (const [variant, overlay] of Object.entries(isRecord(definition.variants) ? definition.variants : {})) {
      if (isRecord(overlay)) lists.push({ variant, sockets: overlay.sockets, path: [id, 'variants', variant, 'sockets'], issuePrefix: `${id}/variants/${variant}/sockets` });
    }
    for (const { variant, sockets, path, issuePrefix } of lists) {
      if (!Array.isArray(sockets) || sockets.length === 0) continue;
      const list = compileSocketList(sockets as SocketMock[], path, variant === undefined ? id : `${id}~${variant}`, { scenarioId: id, variant }, problems, { ...options, skip: (i) => options.issueKeys.has(`${issuePrefix}/${i}`) });
      const entry = compiled.get(id) ?? options.empty(id, definition);
      if (variant === undefined) entry.sockets = list;
      else (entry.variantSockets as Map<string, readonly CompiledSocket[]>).set(variant, list);
      compiled.set(id, entry);
    }
  }
}
