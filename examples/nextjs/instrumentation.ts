export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return; // the harness needs the Node.js runtime
  const { registerHarness } = await import('scenario-harness/next');
  const { harness } = await import('./lib/harness');
  await registerHarness(harness); // starts it; does nothing when disabled
}
