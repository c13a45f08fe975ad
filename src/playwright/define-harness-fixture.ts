import { randomUUID } from 'node:crypto';
import type { Fixtures, PlaywrightTestArgs, PlaywrightTestOptions, PlaywrightWorkerArgs, PlaywrightWorkerOptions, TestInfo } from '@playwright/test';
import { BAGGAGE_HEADER, withHarnessBaggage } from '../client/harness-baggage.js';
import { resolveToken } from '../client/resolve-token.js';
import { TEST_ID_HEADER } from '../core/constants.js';
import { consoleLogger, quote } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import type { HarnessEndpoints, ScenarioMap } from '../core/types.js';
import { writeRecording } from './write-recording.js';
import { attachJournal } from './attach-journal.js';
import { readAppReadiness } from './read-app-readiness.js';
import { routeBrowserCalls, type HarnessBrowserOption } from './route-browser-calls.js';
import { HarnessClient } from './harness-client.js';

/** Options read from `use` in playwright.config.ts (type it with `defineConfig<HarnessTestOptions>`). */
export interface HarnessTestOptions {
  /**
   * Paths of the app's control endpoints, when the app sets `createHarness({ endpoints })`.
   * @default { setScenario: '/__scenario__', getScenario: '/__scenario__', getState: '/__harness__/state' }
   */
  harnessEndpoints: HarnessEndpoints;
  /**
   * When the test's journal (the app's outgoing calls for this test) is attached to its
   * result: a one-line-per-call summary (`scenario-harness calls`, text) and every entry
   * (`scenario-harness journal`, JSON). `'only-on-failure'` attaches it to a test that did not
   * end as expected; `'on'` to every test; `'off'` never.
   * @default 'only-on-failure'
   */
  harnessJournal: 'only-on-failure' | 'on' | 'off';
  /**
   * The app's access token (`createHarness({ access: { token } })`): `harness` sends it on its
   * control calls as `Authorization: Bearer <token>`; pages and `request` never carry it.
   * @default process.env.HARNESS_TOKEN, when set
   */
  harnessToken: string | undefined;
  /**
   * Record this test's calls in the app and write them as a scenario file at test end
   * (`harnessRecordDir`/<test title>.json): `'missing'` records what the active scenario cannot
   * answer, `'all'` every call; `false` records nothing.
   * @default false
   */
  harnessRecord: 'missing' | 'all' | false;
  /** Where `harnessRecord` writes its files, relative to the working directory. @default 'recordings' */
  harnessRecordDir: string;
  /**
   * Answer the page's own calls to other origins from the test's session, through the app
   * (`POST /__harness__/answer`): `true` routes every http(s) origin but the app's (`baseURL`),
   * `{ origins }` only those. The same scenario, own mocks, state and sequences as the app's calls;
   * a call no mock answers is aborted under the app's `unhandled: 'error'`, else it continues.
   * @default false
   */
  harnessBrowser: HarnessBrowserOption;
}

/** The fixtures `defineHarnessFixture()` adds to a Playwright `test`. */
export interface HarnessFixtures<S extends ScenarioMap = ScenarioMap> extends HarnessTestOptions {
  /** This test's handle on the app's control endpoints (the `scenario-harness/client` client): `switchScenario`, `use` (mocks of the test's own), `setState`, `getState`, `waitForState`, `listScenarios`, `endTest`. */
  harness: HarnessClient<S>;
  /** This test's ID, unique across workers, retries and repeats; override the fixture to choose another format. */
  harnessTestId: string;
}

type BaseTestArgs = PlaywrightTestArgs & PlaywrightTestOptions;
type BaseWorkerArgs = PlaywrightWorkerArgs & PlaywrightWorkerOptions;

/** The fixture definitions, ready for `test.extend()`. */
export type HarnessFixtureDefinitions<S extends ScenarioMap = ScenarioMap> = Fixtures<HarnessFixtures<S>, object, BaseTestArgs, BaseWorkerArgs>;

/**
 * The fixtures that give every test its own test ID: the ID goes on every request of `page`,
 * `context` and `request` (through `extraHTTPHeaders`), `harness` talks to the app's control
 * endpoints as that test, and at test end the app forgets the ID. `harness` is `auto`, so tests
 * that never mention it are isolated and cleaned up too. A test that fails gets its journal
 * attached to its result (`harnessJournal`).
 *
 * @example
 * import { test as base } from '@playwright/test';
 * import { defineHarnessFixture, type HarnessFixtures } from 'scenario-harness/playwright';
 * import type { scenarios } from '../src/scenarios';
 *
 * export const test = base.extend<HarnessFixtures<typeof scenarios>>(defineHarnessFixture<typeof scenarios>());
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/playwright.md
 */
export function defineHarnessFixture<S extends ScenarioMap = ScenarioMap>(): HarnessFixtureDefinitions<S> {
  return {
    harnessEndpoints: [{}, { option: true, box: true }],
    harnessJournal: ['only-on-failure', { option: true, box: true }],
    harnessToken: [undefined, { option: true, box: true }],
    harnessRecord: [false, { option: true, box: true }],
    harnessRecordDir: ['recordings', { option: true, box: true }],
    harnessBrowser: [false, { option: true, box: true }],

    // `scope` is spelled out: Playwright before 1.45 (which added `box`) takes a tuple without a
    // key it knows for a fixture's value, and the test ID would be this array.
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its first parameter.
    harnessTestId: [async ({}, use, testInfo) => use(createTestId(testInfo)), { scope: 'test', box: true }],

    // @note The header goes on the extraHTTPHeaders option, which Playwright gives the test's browser
    // context and its `request` context (SPEC §4.4): the browser adds it to every request the page
    // makes (navigations, form posts, fetch) and no request is routed through Playwright. The W3C
    // `baggage` member `harness-test-id` carries it too, for services that read baggage; a
    // `baggage` the config already sets keeps its other members.
    // https://playwright.dev/docs/api/class-testoptions#test-options-extra-http-headers
    extraHTTPHeaders: [
      async ({ extraHTTPHeaders, harnessTestId }, use) => {
        const entries = Object.entries(extraHTTPHeaders ?? {});
        const own = entries.filter(([name]) => ![TEST_ID_HEADER, BAGGAGE_HEADER].includes(name.toLowerCase()));
        const baggage = entries.find(([name]) => name.toLowerCase() === BAGGAGE_HEADER)?.[1];
        await use({ ...Object.fromEntries(own), [TEST_ID_HEADER]: harnessTestId, [BAGGAGE_HEADER]: withHarnessBaggage(baggage, harnessTestId) });
      },
      { scope: 'test', box: true },
    ],

    // The browser context's routes are set before any page opens, and go before the test ID ends (harness is set up first, torn down last).
    context: [
      async ({ context, harnessBrowser, harness, baseURL }, use) => {
        if (harnessBrowser !== false) await routeBrowserCalls(context, harnessBrowser, baseURL, harness);
        await use(context);
      },
      { scope: 'test', box: true },
    ],

    harness: [
      async ({ playwright, baseURL, extraHTTPHeaders, harnessEndpoints, harnessJournal, harnessTestId, harnessToken, harnessRecord, harnessRecordDir }, use, testInfo) => {
        // @note A test.use({ extraHTTPHeaders }) registers after the override above and replaces it;
        // such a test would run as `default-test`, so it fails here instead.
        if (extraHTTPHeaders?.[TEST_ID_HEADER] !== harnessTestId) {
          throw new HarnessError(
            'INVALID_OPTIONS',
            `Failed to isolate test ${quote(testInfo.title)}: extraHTTPHeaders no longer carries ${TEST_ID_HEADER}, so the app cannot tell this test's requests apart. A test.use({ extraHTTPHeaders }) replaces the harness's value: set extra headers in the config's use section, or extend the fixture: extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => use({ ...extraHTTPHeaders, mine: '1' }).`,
          );
        }
        const token = resolveToken(harnessToken, 'use.harnessToken');
        // A request context of its own: it exists even when the test never uses `request`, and it
        // takes baseURL, ignoreHTTPSErrors, httpCredentials and proxy from the test's options.
        const request = await playwright.request.newContext();
        const harness = new HarnessClient<S>({ request, testId: harnessTestId, baseURL, endpoints: harnessEndpoints, token });
        try {
          if (harnessRecord !== false) await harness.startRecording(harnessRecord);
          await use(harness);
          if (harnessRecord !== false) await writeRecording(harness, testInfo, harnessRecordDir);
          // The journal is read before the test ID ends, which forgets it.
          const failed = testInfo.status !== testInfo.expectedStatus;
          // A failed test with an empty journal may have run before the app served its pages: its summary asks.
          const readReadiness = () => readAppReadiness(request, new URL(`${harness.endpoints.scenarios}?ready`, baseURL).href, { ...harness.headers, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) });
          if (baseURL && (harnessJournal === 'on' || (harnessJournal === 'only-on-failure' && failed))) await attachJournal(harness, testInfo, failed, failed ? readReadiness : undefined);
          // Without a baseURL there is no address to end the test at (and every harness call threw).
          // A failed clean-up only leaves a session in the app's memory: warn, keep the test's result.
          if (baseURL) await harness.endTest().catch((error: unknown) => consoleLogger.warn(error instanceof Error ? error.message : String(error)));
        } finally {
          await request.dispose();
        }
      },
      { auto: true, title: 'scenario-harness' },
    ],
  };
}

/**
 * `testInfo.testId` names the test (stable across runs, so it can be found in the app's log);
 * the retry number and a random suffix keep retries, repeats and parallel projects apart.
 */
function createTestId(testInfo: TestInfo): string {
  return `${testInfo.testId || 'hook'}-r${testInfo.retry}-${randomUUID().slice(0, 8)}`;
}
