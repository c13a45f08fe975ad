import { createMemoryStore, type MemoryStoreOptions, type SessionStore } from 'scenario-harness';

/** A request body the test releases when it chooses: the call it belongs to stays in flight until then. */
export function heldBody(first: string) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(new TextEncoder().encode(first));
    },
  });
  return {
    init: { method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': 'application/json' } } as RequestInit,
    finish(rest: string) {
      controller.enqueue(new TextEncoder().encode(rest));
      controller.close();
    },
  };
}

/** A memory store that reports when a call has read a test's session (the call is then in flight). */
export function observedStore(options: MemoryStoreOptions = {}) {
  const store = createMemoryStore(options);
  const waiting = new Map<string, () => void>();
  const observed: SessionStore & { size: number; readBy(testId: string): Promise<void> } = {
    ...store,
    get size() {
      return store.size;
    },
    pin: (testId) => store.pin(testId),
    read: async (testId) => {
      const session = await store.read(testId);
      waiting.get(testId)?.();
      return session;
    },
    readBy: (testId) => new Promise<void>((resolve) => waiting.set(testId, resolve)),
  };
  return observed;
}
