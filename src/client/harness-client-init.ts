import type { Logger } from '../core/dev-utils.js';
import type { HarnessEndpoints } from '../core/types.js';
import type { ControlFetch } from './control-connection.js';

/** What a client is built from; `createHarnessClient()` and the Playwright fixture fill it in. */
export interface HarnessClientInit {
  testId: string;
  /** Origin of the app under test; checked when a call needs it. */
  baseURL: string | undefined;
  endpoints?: HarnessEndpoints;
  fetch: ControlFetch;
  /** Where the app's warnings about a switch are written. @default console, prefixed `[scenario-harness]` */
  logger?: Pick<Logger, 'warn'>;
  /** How messages name the options that fix a missing baseURL and wrong endpoint paths. */
  wording?: { baseURL: string; endpoints: string };
  /** Sent on control calls as `Authorization: Bearer <token>` (`createHarness({ access })`). */
  token?: string | undefined;
}

/** How messages name what fixes a missing baseURL or a wrong endpoint path, for a client made by `createHarnessClient()`. */
export const DEFAULT_WORDING = { baseURL: 'Pass createHarnessClient({ baseURL }) the app\'s origin', endpoints: 'the client\'s endpoints option' };
