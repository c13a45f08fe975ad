/**
 * @module
 * Zero-code attach: `HARNESS_ENABLED=true HARNESS_SCENARIOS=scenarios.yaml node --import
 * scenario-harness/register app.js` (or `NODE_OPTIONS=--import=scenario-harness/register` in
 * front of a framework's CLI). An app that never imports scenario-harness then answers the
 * control endpoints on its own port, runs every inbound request as its test, and has its
 * outgoing calls answered from the scenario files. Without `HARNESS_ENABLED=true` it installs
 * nothing and loads nothing else.
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/no-code-setup.md
 */
import { readRegisterEnvironment, type RegisterSettings } from './read-environment.js';

/** Print a start-up failure as one message (no stack: it is the user's input, not our bug) and stop the process. */
function stop(error: unknown): never {
  process.stderr.write(`[scenario-harness] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

let settings: RegisterSettings | undefined;
try {
  settings = readRegisterEnvironment(process.env);
} catch (error) {
  stop(error);
}
if (settings === undefined) {
  // Scenarios named but the switch off is most likely a mistake: say so once, read nothing else.
  if (process.env.HARNESS_SCENARIOS) {
    process.stderr.write(`[scenario-harness] off: HARNESS_SCENARIOS is set but HARNESS_ENABLED is ${process.env.HARNESS_ENABLED === undefined ? 'not set' : JSON.stringify(process.env.HARNESS_ENABLED)}, so register attached nothing. Set HARNESS_ENABLED=true to test against the scenarios.\n`);
  }
} else {
  const { attach } = await import('./attach.js');
  await attach(settings).catch(stop);
}
