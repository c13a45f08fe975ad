import type { Logger } from '../dev-utils.js';
import { checkInterception } from '../interception.js';
import type { StartGuard } from '../start-guard.js';
import type { HarnessOptions, ScenarioMap } from '../types.js';
import { createAccessCheck } from '../access/create-access-check.js';
import { createOriginCheck } from '../access/create-origin-check.js';
import { jsonAnswer, type ControlAnswer, type ControlCall } from './control-call.js';
import type { ControlRequestHandler } from './handle-control-request.js';

export interface GuardedControlOptions {
  options: HarnessOptions<ScenarioMap>;
  logger: Logger;
  control: ControlRequestHandler;
  guard: StartGuard;
  /** `harness.start()`: a control request to a harness never started starts it (decisions/unstarted-harness.md). */
  start(): Promise<void>;
}

/**
 * The control endpoints as the adapters reach them (`harness.handle()` and the Node adapters
 * share it): every guarded route is refused first to a caller without the credentials, or from
 * another site or a Host a rebinding page could have chosen, and its body is never read
 * (decisions/access-control.md, decisions/cross-site-control-requests.md); then a harness not
 * started is started, or one whose start failed answers 503 with the cause.
 */
export function createGuardedControl({ options, logger, control, guard, start }: GuardedControlOptions): (call: ControlCall) => Promise<ControlAnswer | null> {
  const checkAccess = createAccessCheck(options.access, logger);
  const checkOrigin = createOriginCheck(options.control, { accessSet: options.access !== undefined, logger });
  return async (call) => {
    if (!control.isControlPath(call.pathname)) return null;
    const denied = control.accessOf(call) === 'open' ? undefined : (checkOrigin(call) ?? (await checkAccess?.(call)));
    if (denied !== undefined) {
      call.discard();
      return denied;
    }
    const refusal = await guard.beforeControlRequest(`${call.method} ${call.pathname}`, start);
    if (refusal !== undefined) {
      call.discard();
      return jsonAnswer({ error: refusal }, 503);
    }
    // A control call is a cheap moment to notice a global dispatcher the app replaced since start().
    await checkInterception();
    return control.handle(call);
  };
}
