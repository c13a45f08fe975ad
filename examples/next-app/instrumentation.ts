export async function register(): Promise<void> {
  // The harness patches Node's fetch and http: Node.js runtime only.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const [{ registerHarness }, { harness }] = await Promise.all([import('scenario-harness/next'), import('./lib/harness')]);
  await registerHarness(harness);
}
