import { createRequire } from 'node:module';
import type { Mock, StringMatch } from '../types.js';
import { isStringMatcherObject } from './string-match.js';

type Detector = typeof import('redos-detector');

/** An unsafe regular expression in a mock: where it is and why it is refused. */
export interface UnsafeRegex {
  /** Path inside the mock, as `DefinitionError.field` has it (`match.query.q.regex`). */
  field: string;
  message: string;
}

/** What one `findUnsafeRegexes` call found so far, and whether it judges backtracking. */
interface Findings {
  problems: UnsafeRegex[];
  backtracking: boolean;
}

/**
 * How long one pattern may take to check; a pattern still undecided then is refused. Generous:
 * the check runs once per pattern (verdicts are kept), and a busy CI machine is slow.
 */
const CHECK_TIMEOUT_MS = 3000;
/** Verdicts by `flags/source`: test suites create harnesses from the same scenarios again and again. */
const verdicts = new Map<string, string | undefined>();
let detector: Detector | undefined;

/** `(?<name>` at `lastIndex` (sticky, so `exec` looks nowhere else). */
const NAMED_GROUP = /\(\?<([A-Za-z_$][\w$]*)>/y;

/**
 * `(?<name>…)` → `(…)` and `\k<name>` → `\N`: the detector cannot parse named groups, and the
 * names change nothing about how the pattern backtracks.
 */
function withoutGroupNames(source: string): string {
  if (!source.includes('(?<')) return source;
  const names: string[] = [];
  let out = '';
  let groups = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    NAMED_GROUP.lastIndex = i;
    const named = char === '(' && !inClass ? NAMED_GROUP.exec(source) : null;
    if (char === '\\') {
      out += source.slice(i, i + 2);
      i++;
      continue;
    }
    if (named !== null) {
      names[++groups] = named[1]!;
      out += '(';
      i += named[0].length - 1;
      continue;
    }
    if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(' && source[i + 1] !== '?') groups++;
    out += char;
  }
  return out.replace(/\\k<([A-Za-z_$][\w$]*)>/g, (whole, name: string) => (names.includes(name) ? `\\${names.indexOf(name)}` : whole));
}

/** Why `regex` is refused, or `undefined` when it cannot backtrack catastrophically. */
function verdictOn(regex: RegExp): string | undefined {
  detector ??= createRequire(import.meta.url)('redos-detector') as Detector;
  const { flags } = regex;
  let result: ReturnType<Detector['isSafePattern']>;
  try {
    result = detector.isSafePattern(withoutGroupNames(regex.source), {
      caseInsensitive: flags.includes('i'),
      unicode: flags.includes('u') || flags.includes('v'),
      dotAll: flags.includes('s'),
      multiLine: flags.includes('m'),
      timeout: CHECK_TIMEOUT_MS,
    });
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    return `is the regular expression ${regex}, which could not be checked for catastrophic backtracking (${reason}). Rewrite it without that feature, or use { contains }, { startsWith } or { endsWith }`;
  }
  if (result.safe) return undefined;
  // @note An infinite score is a proof, whatever stopped the search: `(a+)+$` reaches it and
  // then runs on to the time limit on a slow or busy machine. Only an undecided search is
  // "too complex", so a verdict does not depend on how fast the machine is.
  if (!result.score.infinite && (result.error === 'timedOut' || result.error === 'hitMaxSteps')) {
    return `is the regular expression ${regex}, which is too complex to check for catastrophic backtracking within ${CHECK_TIMEOUT_MS} ms. Simplify it, or use { contains }, { startsWith } or { endsWith }`;
  }
  return `is the regular expression ${regex}, which can backtrack catastrophically: an input can match it in many overlapping ways, so one that does not match takes polynomial or exponential time. Anchor it with ^ (an unanchored pattern is retried at every position: /\\d+$/ is quadratic, /^\\d+$/ is not), make repeated parts unambiguous ([^/]+ rather than .+ before a "/", no nested quantifiers such as (a+)+), or use a URL pattern string, { contains }, { startsWith } or { endsWith }`;
}

/**
 * @param native A RegExp written in code rather than a serialised `{ regex }` matcher.
 * @note redos-detector scores "quadratic because an unanchored pattern is retried at every
 * start position" (`/\/users\/\d+$/`) the same as exponential nesting (`/(a+)+$/`). A native
 * RegExp is judged as if anchored, so only the nesting kind is refused: its author wrote it in
 * code, and URLs and headers are short. Serialised matchers can come from files or Redis and
 * may test large bodies, so they get the strict verdict.
 */
function check(regex: RegExp, field: string, found: Findings, native = false): void {
  if (!found.backtracking) return;
  const judged = native ? new RegExp(`^(?:${regex.source})$`, regex.flags) : regex;
  const key = `${judged.flags}/${judged.source}`;
  if (!verdicts.has(key)) {
    if (verdicts.size >= 1000) verdicts.clear();
    verdicts.set(key, verdictOn(judged)?.replace(String(judged), String(regex)));
  }
  const message = verdicts.get(key);
  if (message !== undefined) found.problems.push({ field, message });
}

function checkRegexData({ source, flags }: { source: string; flags?: string }, field: string, found: Findings, native = false): void {
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch (error) {
    // The same words as the compiler's, so a problem found by both is listed once.
    found.problems.push({ field, message: `is not a valid regular expression (${(error as Error).message})` });
    return;
  }
  check(regex, field, found, native);
}

/** `{ source: string, flags?: string }`: anything else is the schema's to report. */
function isRegexData(value: unknown): value is { source: string; flags?: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { source, flags } = value as { source?: unknown; flags?: unknown };
  return typeof source === 'string' && (flags === undefined || typeof flags === 'string');
}

function checkStringMatch(match: StringMatch, field: string, found: Findings): void {
  if (match instanceof RegExp) return check(match, field, found, true);
  if (typeof match !== 'object' || match === null || !('regex' in match) || !isRegexData(match.regex)) return;
  checkRegexData(match.regex, `${field}.regex`, found);
}

/** Mirrors `compileBodyMatch`: matcher leaves, then arrays, then objects. */
function checkBody(expected: unknown, field: string, found: Findings): void {
  if (expected instanceof RegExp || isStringMatcherObject(expected)) return checkStringMatch(expected, field, found);
  if (Array.isArray(expected)) return expected.forEach((item, i) => checkBody(item, `${field}[${i}]`, found));
  if (typeof expected === 'object' && expected !== null) {
    for (const [key, value] of Object.entries(expected)) checkBody(value, `${field}.${key}`, found);
  }
}

/**
 * Every regular expression in a mock (URL, query, headers, body and GraphQL matchers) that is
 * not valid, or (`backtracking`, the default) could backtrack catastrophically, as judged by
 * redos-detector; each is refused at harness creation. The mock may be invalid in other ways
 * (its regexes are still checked, so one pass reports every problem): a part of the wrong
 * shape is skipped.
 * @note Loaded on first use, so a disabled harness never loads the detector.
 * @see https://github.com/tjenkinson/redos-detector
 */
export function findUnsafeRegexes(mock: Mock, { backtracking = true }: { backtracking?: boolean } = {}): UnsafeRegex[] {
  const found: Findings = { problems: [], backtracking };
  if (mock.url instanceof RegExp) check(mock.url, 'url', found, true);
  // A URL RegExp from a file is the same pattern a test would write in code, so it is judged
  // the same way; URLs are short, unlike the bodies serialised matchers may test.
  else if (typeof mock.url === 'object' && mock.url !== null && isRegexData(mock.url.regex)) checkRegexData(mock.url.regex, 'url.regex', found, true);
  for (const [name, match] of Object.entries(mock.match?.query ?? {})) checkStringMatch(match, `match.query.${name}`, found);
  for (const [name, match] of Object.entries(mock.match?.headers ?? {})) checkStringMatch(match, `match.headers.${name}`, found);
  if (mock.match !== undefined && 'body' in mock.match) checkBody(mock.match.body, 'match.body', found);
  if (mock.match?.graphql?.operationName !== undefined) checkStringMatch(mock.match.graphql.operationName, 'match.graphql.operationName', found);
  if (mock.match?.graphql?.variables !== undefined) checkBody(mock.match.graphql.variables, 'match.graphql.variables', found);
  return found.problems;
}
