/** How big a parsed document is as written, and as it would be with every shared node copied where it is used. */
export interface Expansion {
  /** Nodes as written: each object or array once, and each value inside one. */
  written: number;
  /** Nodes once every shared object (a YAML alias, an object used twice) is copied into each place it is used. */
  expanded: number;
  /** An object that contains itself: its expansion never ends. */
  cyclic: boolean;
}

/** One object being measured: its values, the next to look at, and its size so far. */
interface Frame {
  node: object;
  values: unknown[];
  next: number;
  size: number;
}

const valuesOf = (node: object): unknown[] => (ArrayBuffer.isView(node) ? [] : Object.values(node));

/**
 * Measure a parsed document (YAML aliases come out of the YAML parser as shared objects) in
 * time linear in what is written, however large its expansion: each object's expanded size is
 * computed once, then reused wherever it appears. Without recursion, so deep documents cannot
 * overflow the stack.
 */
export function measureExpansion(root: unknown): Expansion {
  if (typeof root !== 'object' || root === null) return { written: 1, expanded: 1, cyclic: false };
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  let written = 0;
  const enter = (node: object): Frame => {
    open.add(node);
    written++;
    return { node, values: valuesOf(node), next: 0, size: 1 };
  };
  const stack: Frame[] = [enter(root)];
  let expanded = 0;
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    if (frame.next < frame.values.length) {
      const value = frame.values[frame.next++];
      if (typeof value !== 'object' || value === null) {
        frame.size++;
        written++;
      } else if (open.has(value)) {
        return { written, expanded: Infinity, cyclic: true };
      } else {
        const known = sizes.get(value);
        if (known === undefined) stack.push(enter(value));
        else frame.size += known;
      }
      continue;
    }
    stack.pop();
    open.delete(frame.node);
    sizes.set(frame.node, frame.size);
    if (stack.length > 0) stack.at(-1)!.size += frame.size;
    else expanded = frame.size;
  }
  return { written, expanded, cyclic: false };
}
