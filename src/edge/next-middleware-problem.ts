/** The first Next.js release whose middleware runs on the Node.js runtime (stable), where `harnessProxy` works. */
export const NODE_MIDDLEWARE_SINCE = '15.5.0';

/** Where `registerHarness` leaves the running Next.js version for the edge runtime's stand-in to read. */
export const NEXT_VERSION_ENV = 'SCENARIO_HARNESS_NEXT_VERSION';

/**
 * Why `harnessProxy` cannot answer from `middleware.ts` on this Next.js release, or `undefined`
 * when it can (or the release is unknown). Next.js 15.0 to 15.4 run middleware on the edge
 * runtime only, where the harness is off: the package installs beside them (its peer range
 * allows any Next.js 15), and this message says what the installer used to say by refusing them.
 *
 * @example
 * nextMiddlewareProblem('15.2.3'); // 'Next.js 15.2.3 runs middleware on the edge runtime only: …'
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/nextjs.md#pages-router-custom-paths-a-proxy
 */
export function nextMiddlewareProblem(nextVersion: string | undefined): string | undefined {
  const found = /^(\d+)\.(\d+)\.\d+/.exec(nextVersion ?? '');
  if (found === null || Number(found[1]) !== 15 || Number(found[2]) >= 5) return undefined;
  return (
    `Next.js ${nextVersion} runs middleware on the edge runtime only, and harnessProxy needs the Node.js runtime, ` +
    `which middleware has from Next.js ${NODE_MIDDLEWARE_SINCE} (export const config = { runtime: 'nodejs' }). ` +
    'Upgrade Next.js to 15.5 or later, or serve the control endpoints with harnessRouteHandlers ' +
    '(app/%5F%5Fscenario%5F%5F/route.ts and app/%5F%5Fharness%5F%5F/[[...path]]/route.ts), which work on every Next.js 15'
  );
}
