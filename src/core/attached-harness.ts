/**
 * The harness `scenario-harness/register` attached to this process, if any. Kept on globalThis
 * so every copy of the package sees it: a second harness started beside it would answer the
 * same calls, so `start()` refuses (docs/no-code-setup.md, "Alongside code").
 */
const ATTACHED_KEY = Symbol.for('scenario-harness.attached-by-register');

export function attachedHarness(): object | undefined {
  return (globalThis as Record<symbol, object | undefined>)[ATTACHED_KEY];
}

export function markAttached(harness: object): void {
  (globalThis as Record<symbol, object | undefined>)[ATTACHED_KEY] = harness;
}
