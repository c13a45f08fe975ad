import type { APIRequestContext } from '@playwright/test';
import { HINT_HEADER } from '../core/constants.js';
import { readHintHeader } from '../core/control/hint-header.js';

/** What the catalogue's `?ready` form said: the app serves its pages, or not yet and why. */
export type AppReadinessReport = { url: string; serving: true } | { url: string; serving: false; reason: string };

/**
 * Ask the app whether it serves its pages (`GET <scenarios>?ready`): 200 says it does (or that the
 * harness runs inside the app, which then does too), a 503 why not. `undefined` when the answer is
 * neither (the app is gone, the harness is off): the journal's summary then says nothing of it.
 */
export async function readAppReadiness(request: Pick<APIRequestContext, 'fetch'>, url: string, headers: Record<string, string>): Promise<AppReadinessReport | undefined> {
  try {
    const response = await request.fetch(url, { headers, failOnStatusCode: false, maxRedirects: 0 });
    if (response.status() === 200) return { url, serving: true };
    if (response.status() !== 503) return undefined;
    const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
    if (typeof body?.error !== 'string') return undefined;
    const hint = readHintHeader(response.headers()[HINT_HEADER]);
    return { url, serving: false, reason: hint === undefined ? body.error : `${body.error} ${hint}` };
  } catch {
    return undefined;
  }
}
