import { connection } from 'next/server';
import { nodeHttpGreeting } from '../../../lib/node-http-greeting';
import { fetchGreeting, upstreamUrl } from '../../../lib/upstream';

/**
 * A server component: its fetch and node:http calls run as the test that asked for the page,
 * with no header forwarded by hand. `?gate=<id>` waits at an upstream gate first (tests use it to
 * hold two renders in flight at once).
 */
export default async function ServerComponentPage({ searchParams }: { searchParams: Promise<{ gate?: string }> }) {
  await connection();
  const { gate } = await searchParams;
  if (gate !== undefined) await fetch(upstreamUrl(`/upstream/gate/${encodeURIComponent(gate)}`));
  const [greeting, cached, viaHttp] = await Promise.all([fetchGreeting(), fetchGreeting({ cache: 'force-cache' }), nodeHttpGreeting()]);
  return (
    <ul>
      <li id="greeting">{greeting}</li>
      <li id="cached">{cached}</li>
      <li id="node-http">{viaHttp}</li>
    </ul>
  );
}
