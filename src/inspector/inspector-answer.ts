import type { ControlAnswer } from '../core/control/control-call.js';
import type { HarnessEndpoints } from '../core/types.js';

/** What the page needs to know of the harness that serves it; injected into the page as JSON. */
export interface InspectorConfig {
  endpoints: Readonly<Required<HarnessEndpoints>>;
  testIdHeader: string;
  /** False when the harness keeps no journal. */
  journal: boolean;
}

/** The text in inspector-page.html that the config replaces. */
export const CONFIG_PLACEHOLDER = '"__INSPECTOR_CONFIG__"';

/**
 * The inspector page (`GET /__harness__/`) with this harness's config in it. The page module is
 * loaded on the first request for it, so an app that never opens the inspector never loads it.
 * @note The content security policy allows the page's own inline script and style (by hash) and
 * requests to its own origin, nothing else: the page can fetch nothing from a CDN, and data it
 * shows cannot run as script.
 */
export async function inspectorAnswer(config: InspectorConfig): Promise<ControlAnswer> {
  const { INSPECTOR_PAGE } = await import('./inspector-page.js');
  // `<` escaped: a path or test ID with `</script>` in it cannot close the config's script element.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': INSPECTOR_PAGE.csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
    text: INSPECTOR_PAGE.html.replace(CONFIG_PLACEHOLDER, () => json),
  };
}
