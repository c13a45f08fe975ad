import { harnessProxy } from 'scenario-harness/next';
import { harness } from './lib/harness';

/**
 * Answers the control endpoints at their configured paths (default or custom). This app also
 * has App Router route handlers at the default paths; HARNESS_CONTROL=proxy (how the test
 * suite runs the Pages Router target) hands the control paths to the proxy instead.
 */
const answerControl = harnessProxy(harness);

export async function proxy(request: Request): Promise<Response | undefined> {
  return process.env.HARNESS_CONTROL === 'proxy' ? answerControl(request) : undefined;
}
