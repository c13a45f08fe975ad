// Types for the tests that import scripts/ensure-runtimes.mjs (test/runtimes/).
export type RuntimeName = 'bun' | 'deno';
/** The pinned version of `name` (test-runtimes.json). */
export function pinnedVersion(name: RuntimeName): string;
/** Where the binary of `name` at `version` lives once installed (whether or not it is there yet). */
export function runtimeBinary(name: RuntimeName, version?: string): string;
/** The path of the binary of `name` at its pinned version, installing it from the npm registry when missing. */
export function ensureRuntime(name: RuntimeName, version?: string): string;
