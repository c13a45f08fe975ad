/** How long a lazy import may take while something else keeps the process alive, before it counts as stuck. */
const STUCK_AFTER_MS = 15_000;

/** Why a lazily imported package did not load, and what to change; the caller words the error around them. */
export type LazyImportFailure = (reason: string, remedy: string, cause?: unknown) => Error;

const EXTERNAL_REMEDY =
  'Keep scenario-harness out of the server bundle so Node loads it from node_modules: Vite `ssr: { external: ["scenario-harness"] }` (SvelteKit adapter-node: list it in "dependencies"), Rollup `external`, esbuild `--external:scenario-harness`, webpack `externals`. See docs/troubleshooting.md, "Bundled builds".';

/** Lazy imports in flight, each told when the event loop empties before it finished (one process listener for all). */
const pending = new Set<() => void>();
const rejectPending = () => {
  for (const reject of pending) reject();
};

/** A file a bundled module reads from beside itself (`new URL('./x.wasm', import.meta.url)`), not there. */
export function isMissingAsset(error: unknown): boolean {
  const { code, path } = error as { code?: unknown; path?: unknown };
  return code === 'ENOENT' && typeof path === 'string' && path.endsWith('.wasm');
}

function isNotFound(error: unknown, pkg: string): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && typeof message === 'string' && message.includes(pkg);
}

/**
 * A third-party package loaded with `import()` on first use (the interception library, the YAML
 * parser), so an app that never needs it never loads it, with every way that can go wrong in an
 * app's bundle named: the package missing, a chunk that failed while it was evaluated, and an
 * import that can never finish.
 *
 * @note Under a top-level `await harness.start()`, a bundler (Rollup, Vite) may put the package
 * in a chunk that imports back from the chunk still waiting on `start()`: each waits for the
 * other, nothing is left to run and Node exits with code 13 without a word. An event loop that
 * empties while the import is pending is that cycle (loading a module keeps the loop busy), so it
 * is reported at once; a process kept alive by something else is told after STUCK_AFTER_MS.
 * @see https://nodejs.org/api/process.html#event-beforeexit
 * @see https://tc39.es/ecma262/#sec-async-module-execution-fulfilled (a cycle of async modules)
 */
export async function importLazily<T>(load: () => Promise<T>, pkg: string, fail: LazyImportFailure): Promise<T> {
  let stuckError: Error | undefined;
  const stuck = (after: string) =>
    (stuckError = fail(
      `"${pkg}" never finished loading (${after}): the app's bundler put it in a chunk that imports back from a module still waiting on harness.start() at its top level, so each waits for the other`,
      `${EXTERNAL_REMEDY} Or, where the build groups modules into chunks by hand (Rollup/Vite manualChunks), leave "${pkg}" and its dependencies out of the chunk that awaits harness.start().`,
    ));
  let onBeforeExit!: () => void;
  let timer: NodeJS.Timeout | undefined;
  const neverLoads = new Promise<never>((_, reject) => {
    onBeforeExit = () => reject(stuck('the process had nothing else left to do'));
    timer = setTimeout(() => reject(stuck(`still pending after ${STUCK_AFTER_MS / 1000} s`)), STUCK_AFTER_MS).unref();
  });
  if (pending.size === 0) process.on('beforeExit', rejectPending);
  pending.add(onBeforeExit);
  try {
    return await Promise.race([load(), neverLoads]);
  } catch (error) {
    if (error === stuckError) throw error;
    const reason = (error as Error)?.message ?? String(error);
    if (isNotFound(error, pkg)) throw fail(`"${pkg}" could not be found (${reason})`, `Check that it is installed where scenario-harness is: npm ls ${pkg}.`, error);
    // @note "Cannot access 'x' before initialization": a chunk evaluated before a chunk it depends on, a cycle the bundler made.
    const remedy =
      isMissingAsset(error)
        ? // @note The interception library reads its HTTP parser (llhttp.wasm) from the folder of its own module when it loads; Rollup and esbuild bundle the module but not the file.
          `The app's bundler put "${pkg}" into the bundle without the file it reads beside its own module (${(error as { path?: string }).path}), and no node_modules where the bundle runs holds "${pkg}" to load instead. Install the app's dependencies where it runs (the package brings "${pkg}"), or keep "${pkg}" and its subpaths out of the bundle: Rollup \`external\`, Vite \`ssr: { external: ['${pkg}'] }\`, esbuild \`--external:${pkg}\`; or copy that file to where the bundle looks for it. See docs/troubleshooting.md, "Bundled builds".`
        : error instanceof ReferenceError
        ? `The app's bundler split the package into chunks that depend on each other. ${EXTERNAL_REMEDY}`
        : /^Dynamic require of ".+" is not supported/.test(reason)
          ? // @note esbuild's ESM output has no `require` for the CommonJS modules it bundles, unless the build defines one.
            `esbuild's ESM output has no require() for the CommonJS modules it bundled: give it one with the banner "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" (esbuild --banner:js=...). See docs/troubleshooting.md, "Bundled builds".`
          : `Check that "${pkg}" loads on its own: node -e "import('${pkg}')".`;
    throw fail(`"${pkg}" failed to load (${reason})`, remedy, error);
  } finally {
    pending.delete(onBeforeExit);
    if (pending.size === 0) process.off('beforeExit', rejectPending);
    clearTimeout(timer);
  }
}
