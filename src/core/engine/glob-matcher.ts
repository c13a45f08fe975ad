/**
 * Globs matched in linear time. URL patterns (`https://api.x.com/*\/files/:id`) and journal
 * filters are documented as the safe alternative to regexes, so they must not backtrack: as a
 * RegExp, `*\/files/*\/*\/*\/meta` took seconds on one long path (each `.*` multiplies the tries).
 * Here a glob is compiled to a tiny program that a Pike VM runs over the text once, keeping at
 * most one thread per instruction: O(text × pattern) steps whatever the input, with the same
 * answers (and the same params) as the greedy RegExp it replaces.
 */

/** A piece of a glob: literal text, `*` (any run of characters, slashes included), or a `:name` param (one or more characters other than `/`). */
export type GlobPart = { literal: string } | { star: true } | { param: string };

type Instruction =
  | { op: 'char'; char: string }
  | { op: 'any' }
  | { op: 'segment' }
  | { op: 'split'; first: number; second: number }
  | { op: 'save'; slot: number }
  | { op: 'match' };

/** A compiled glob: the params of a text it matches whole, or `undefined`. */
export interface GlobMatcher {
  /** The param names, in the order of their captures. */
  readonly params: readonly string[];
  /** How many steps it may take for each character of a text, at most: its program's length (the literals', for `starGlob`). */
  readonly size: number;
  /** The captured params (raw, not decoded) of `text` matched from start to end, or `undefined`. */
  exec(text: string): string[] | undefined;
}

interface Thread {
  pc: number;
  captures: number[];
}

/**
 * Compile `parts` (plus an optional `/` at the end when `optionalTrailingSlash`) into a matcher
 * that tests a whole text, greedy like `^(parts)\/?$`: `*` → `.*`, `:name` → `([^/]+)`.
 */
export function compileGlob(parts: readonly GlobPart[], { optionalTrailingSlash = false } = {}): GlobMatcher {
  const program: Instruction[] = [];
  const params: string[] = [];
  /** True right after a `*`: another one (`**`, or `*` and `*` around an empty literal) matches nothing more, so it is left out. */
  let afterStar = false;
  for (const part of parts) {
    if ('star' in part && afterStar) continue;
    afterStar = 'star' in part || (afterStar && 'literal' in part && part.literal === '');
    if ('literal' in part) {
      // By UTF-16 code unit, as the text is read.
      for (let index = 0; index < part.literal.length; index++) program.push({ op: 'char', char: part.literal[index]! });
    } else if ('star' in part) {
      // L: split(L+1, L+3); L+1: any; L+2: split back to L (as a jump: split(L, L)); L+3: …
      const loop = program.length;
      program.push({ op: 'split', first: loop + 1, second: loop + 3 }, { op: 'any' }, { op: 'split', first: loop, second: loop });
    } else {
      const slot = params.length * 2;
      params.push(part.param);
      program.push({ op: 'save', slot });
      const loop = program.length;
      program.push({ op: 'segment' }, { op: 'split', first: loop, second: loop + 2 }, { op: 'save', slot: slot + 1 });
    }
  }
  if (optionalTrailingSlash) {
    const at = program.length;
    program.push({ op: 'split', first: at + 1, second: at + 2 }, { op: 'char', char: '/' });
  }
  program.push({ op: 'match' });
  const slots = params.length * 2;

  /** Add `thread` and everything it reaches without reading a character, in priority order. */
  const addThread = (list: Thread[], seen: Uint8Array, pc: number, captures: number[], position: number): void => {
    if (seen[pc] === 1) return;
    seen[pc] = 1;
    const instruction = program[pc]!;
    if (instruction.op === 'split') {
      addThread(list, seen, instruction.first, captures, position);
      addThread(list, seen, instruction.second, captures, position);
    } else if (instruction.op === 'save') {
      const next = captures.slice();
      next[instruction.slot] = position;
      addThread(list, seen, pc + 1, next, position);
    } else list.push({ pc, captures });
  };

  return {
    params,
    size: program.length,
    exec(text) {
      let current: Thread[] = [];
      addThread(current, new Uint8Array(program.length), 0, new Array<number>(slots).fill(-1), 0);
      for (let position = 0; position < text.length && current.length > 0; position++) {
        const char = text[position]!;
        const next: Thread[] = [];
        const seen = new Uint8Array(program.length);
        for (const { pc, captures } of current) {
          const instruction = program[pc]!;
          const consumes = instruction.op === 'any' || (instruction.op === 'segment' && char !== '/') || (instruction.op === 'char' && instruction.char === char);
          if (consumes) addThread(next, seen, pc + 1, captures, position + 1);
        }
        current = next;
      }
      // The first thread (highest priority) at the match instruction once the whole text is read.
      const matched = current.find(({ pc }) => program[pc]!.op === 'match');
      if (matched === undefined) return undefined;
      const values: string[] = [];
      for (let slot = 0; slot < slots; slot += 2) values.push(text.slice(matched.captures[slot], matched.captures[slot + 1]));
      return values;
    },
  };
}

/**
 * A pattern where `*` is any run of characters and everything else is literal (the journal's
 * `url` filter), matching a whole text as `compileGlob` would. Without params there is nothing
 * to capture, so no program runs: the first literal must start the text and the last end it,
 * and each one between is found by `indexOf` after the one before (the leftmost place is always
 * a good one). One pass over the text whatever the number of stars.
 */
export function starGlob(pattern: string): GlobMatcher {
  const literals = pattern.split('*');
  const first = literals[0]!;
  const last = literals.length === 1 ? '' : literals.at(-1)!;
  const between = literals.slice(1, -1).filter((literal) => literal !== '');
  return {
    params: [],
    size: pattern.length,
    exec(text) {
      if (literals.length === 1) return text === pattern ? [] : undefined;
      if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return undefined;
      const end = text.length - last.length;
      let at = first.length;
      for (const literal of between) {
        const found = text.indexOf(literal, at);
        if (found === -1 || found + literal.length > end) return undefined;
        at = found + literal.length;
      }
      return [];
    },
  };
}
