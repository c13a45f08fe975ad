import { readTextFile } from '../files/read-text-file.js';
import { HarnessError } from '../core/errors.js';
import { scenarioFromTraffic, type RecordedScenario, type ScenarioFromTrafficOptions } from '../record/scenario-from-traffic.js';
import { harExchanges, type HarExchanges, type HarFilter } from './har-exchanges.js';

/** A HAR file turned into a scenario, and what was left out of it. */
export interface ImportedHar {
  recorded: RecordedScenario;
  skipped: HarExchanges['skipped'];
}

/**
 * Read a HAR file and turn its calls into one scenario through the same converter recording
 * uses (`scenarioFromTraffic`): same volatile-value and secret rules, same leak check. The
 * recording time written is the HAR's first `startedDateTime`.
 *
 * @example
 * const { recorded } = await importHar('traffic/checkout.har', { hosts: ['api.stripe.com'], secrets: { env: ['STRIPE_KEY'] } });
 */
export async function importHar(path: string, options: HarFilter & ScenarioFromTrafficOptions = {}): Promise<ImportedHar> {
  const text = await readTextFile(path, `import ${path}`);
  let har: unknown;
  try {
    har = JSON.parse(text) as unknown;
  } catch (error) {
    throw new HarnessError('INVALID_ARGUMENT', `Failed to import ${path}: it is not valid JSON (${(error as Error).message}). A HAR file is JSON: save it again from your browser's network panel ("Save all as HAR").`, { cause: error });
  }
  let read: HarExchanges;
  try {
    read = harExchanges(har, options);
  } catch (error) {
    throw new HarnessError('INVALID_ARGUMENT', `Failed to import ${path}: ${(error as Error).message}. Save it again from your browser's network panel ("Save all as HAR").`, { cause: error });
  }
  const { hosts: _hosts, includeAssets: _assets, ...convert } = options;
  // The HAR's own start time, so importing the same file twice gives the same text.
  return { recorded: await scenarioFromTraffic(read.exchanges, { recordedAt: read.startedAt, ...convert }), skipped: read.skipped };
}
