import { isMissingAsset } from '../import-lazily.js';

type ClientRequestModule = typeof import('@mswjs/interceptors/ClientRequest');

/**
 * The interception library's node:http interceptor. In an app's bundle, where it was inlined
 * without the HTTP parser it reads from beside its own module (`llhttp.wasm`: Rollup, esbuild and
 * SvelteKit's adapter-node do not copy it), the copy installed in `node_modules` is loaded
 * instead, found from the bundle's folder or the working directory; with none installed, the
 * bundle's own error stands (importLazily words what to change).
 * @note The second import names a path known only at run time, so no bundler follows it.
 */
export async function loadClientRequestInterceptor(): Promise<ClientRequestModule> {
  try {
    return await import('@mswjs/interceptors/ClientRequest');
  } catch (error) {
    if (!isMissingAsset(error)) throw error;
    const installed = installedPath('@mswjs/interceptors/ClientRequest');
    if (installed === undefined) throw error;
    return (await import(/* webpackIgnore: true */ /* @vite-ignore */ installed)) as ClientRequestModule;
  }
}

/** The file URL `specifier` resolves to from this module's folder, else from the working directory. */
function installedPath(specifier: string): string | undefined {
  const { createRequire } = process.getBuiltinModule('node:module');
  const { pathToFileURL } = process.getBuiltinModule('node:url');
  for (const from of [import.meta.url, pathToFileURL(`${process.cwd()}/`).href]) {
    try {
      return pathToFileURL(createRequire(from).resolve(specifier)).href;
    } catch {
      // Not installed where this looks: try the next place.
    }
  }
  return undefined;
}
