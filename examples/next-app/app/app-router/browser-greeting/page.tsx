import { connection } from 'next/server';
import { fetchGreeting } from '../../../lib/upstream';
import { BrowserGreeting } from './browser-greeting';

/**
 * One page, both sides: the server component fetches the greeting on the server, and the client
 * component fetches it again from the browser, from a third-party origin. With the Playwright
 * option harnessBrowser, the test's scenario answers both.
 */
export default async function BrowserGreetingPage() {
  await connection();
  const greeting = await fetchGreeting();
  return (
    <main>
      <p id="server-greeting">{greeting}</p>
      <BrowserGreeting />
    </main>
  );
}
