import { expect, test } from 'vitest';
import type { RuntimeName } from '../../scripts/ensure-runtimes.mjs';
import { installedRuntime } from './start-runtime-app.js';

const onCI = Boolean(process.env.CI) && !['0', 'false'].includes(process.env.CI!.toLowerCase());

/**
 * The pinned `runtime` to run a suite on, or `undefined` when its binary is not on this machine.
 * Then the suite cannot be silently absent: one test stands in for it, skipped with the command
 * that installs the binary (and a line on the console), or failing on CI, which must run it.
 */
export function requireRuntime(runtime: RuntimeName, { suite, file }: { suite: string; file: string }): { binary: string; version: string } | undefined {
  const installed = installedRuntime(runtime);
  if (installed !== undefined) return installed;
  const install = `${runtime} is not installed here: run \`node scripts/ensure-runtimes.mjs\` (it fetches the pinned binary from the npm registry into ~/.cache/scenario-harness)`;
  if (onCI) test(`${suite} (needs the ${runtime} binary)`, () => expect.fail(`${install}. CI must run this suite.`));
  else {
    console.warn(`\n*** SKIPPED ${file}: ${install}. ***\n`);
    test.skip(`${suite}: ${install}`, () => {});
  }
  return undefined;
}
