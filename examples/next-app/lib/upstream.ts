/** The third-party API this app depends on; tests point it at a local server. */
export function upstreamUrl(path: string): string {
  return `${process.env.UPSTREAM_ORIGIN ?? 'http://127.0.0.1:9'}${path}`;
}

/** Ask upstream for a greeting: plain fetch, no test-ID header forwarded by hand. */
export async function fetchGreeting(init?: RequestInit): Promise<string> {
  const response = await fetch(upstreamUrl('/upstream/greeting'), init);
  return ((await response.json()) as { greeting: string }).greeting;
}
