/** What the test holds: when the app's request reached the gate, and the release. */
export interface Gate {
  arrived: Promise<void>;
  release(): void;
}

/**
 * Named gates inside the app: a route awaits `pass(name)` between two outgoing calls, the test
 * awaits `gate(name).arrived` and decides when to `release()`. Several requests are then in
 * flight at once, interleaved in an order the test chooses, without sleeping.
 */
export function createGates() {
  const gates = new Map<string, { arrived: PromiseWithResolvers<void>; released: PromiseWithResolvers<void> }>();
  const entry = (name: string) => {
    let found = gates.get(name);
    if (found === undefined) gates.set(name, (found = { arrived: Promise.withResolvers<void>(), released: Promise.withResolvers<void>() }));
    return found;
  };
  return {
    /** Test side: the gate's arrival and its release. */
    gate(name: string): Gate {
      const { arrived, released } = entry(name);
      return { arrived: arrived.promise, release: () => released.resolve() };
    },
    /** App side: say the request arrived, then wait for the test to release it. */
    pass(name: string): Promise<void> {
      const { arrived, released } = entry(name);
      arrived.resolve();
      return released.promise;
    },
  };
}

export type Gates = ReturnType<typeof createGates>;
