'use client';

import { useEffect, useState } from 'react';

/** The third party the page calls from the browser (a fake host: without a mock the call fails). */
const BROWSER_GREETING_URL = 'https://greetings.example.test/upstream/greeting';

export function BrowserGreeting() {
  const [greeting, setGreeting] = useState('');
  // Enabled once hydrated: a click before that would do nothing, and Playwright waits for enabled.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const greet = async () => {
    const response = await fetch(BROWSER_GREETING_URL);
    setGreeting(((await response.json()) as { greeting: string }).greeting);
  };
  return (
    <div>
      <button type="button" disabled={!hydrated} onClick={() => void greet()}>
        Greet from the browser
      </button>
      <p id="browser-greeting">{greeting}</p>
    </div>
  );
}
