import { BROWSER_ANSWERS_PART } from './browser/browser-answers-part.js';
import { CONTRACTS_PART } from './parts/contracts/contracts-part.js';
import { methodsOf, type ControlRoute } from './core/control/control-routes.js';
import { JOURNAL_PART } from './core/journal/journal-part.js';
import type { PartDefinition } from './core/parts/harness-part.js';
import { SPEC_PART } from './core/spec/spec-part.js';
import { OWN_MOCKS_PART } from './core/test-mocks/own-mocks-part.js';
import { INSPECTOR_PART } from './inspector/inspector-part.js';
import { RECORDING_PART } from './parts/recording/recording-part.js';
import { SOCKETS_PART } from './parts/sockets/sockets-part.js';
import { STREAMS_PART } from './parts/streams/streams-part.js';

/**
 * The capabilities `createHarness` assembles, besides the core's own (the SPEC endpoints), in
 * the order their routes are listed and tried. A new capability is a folder with its part, and
 * one line here. Each part keeps what it loads heavily (ajv, the converter, the browser's
 * answers) behind a dynamic import, so that an app that never uses it never loads it.
 */
export const HARNESS_PARTS: readonly PartDefinition[] = Object.freeze([OWN_MOCKS_PART, BROWSER_ANSWERS_PART, JOURNAL_PART, RECORDING_PART, INSPECTOR_PART, CONTRACTS_PART, STREAMS_PART, SOCKETS_PART]);

/**
 * The control API, one entry per endpoint, from every part: the list the Next.js route handlers
 * take their methods from and the conformance suites walk, the same one each harness dispatches
 * on and names in its start-up line, so none of them can drift from it.
 */
export const CONTROL_ROUTES: readonly ControlRoute[] = Object.freeze([SPEC_PART, ...HARNESS_PARTS].flatMap((part) => part.routes));

/** Every method some control endpoint answers: what a framework's route file must export. */
export const CONTROL_METHODS = methodsOf(CONTROL_ROUTES);
