// Types for the tests that import scripts/ensure-node.mjs.
/** Where the Node binaries and other runtimes are cached (SCENARIO_HARNESS_CACHE or ~/.cache/scenario-harness). */
export const cacheRoot: string;
/** The path of Node `version`'s binary (an exact version), installing it from the npm registry when missing. */
export function ensureNode(version: string): string;
/** Unpack the npm package `spec` into `home`, unless `binary` is already there. */
export function unpackFromRegistry(spec: string, home: string, binary: string): void;
/** The Node versions CI runs besides the primary one (test-runtimes.json). */
export function supportedNodeVersions(): string[];
