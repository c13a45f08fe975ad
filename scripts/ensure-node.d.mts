// Types for the tests that import scripts/ensure-node.mjs.
/** Where the Node binaries and other runtimes are cached (SCENARIO_HARNESS_CACHE or ~/.cache/scenario-harness). */
export const cacheRoot: string;
/** The path of Node `version`'s binary (an exact version), installing it from the npm registry when missing. */
export function ensureNode(version: string): string;
/** Unpack the npm package `spec` into `home`, unless `binary` is already there. */
export function unpackFromRegistry(spec: string, home: string, binary: string): void;
/** The supported Node versions CI runs the suites on (test-runtimes.json), oldest first. */
export function supportedNodeVersions(): string[];
/** The major of the line CI runs npm test on. */
export const PRIMARY_NODE_MAJOR: string;
/** The exact version of that line (test-runtimes.json). */
export function primaryNodeVersion(): string;
