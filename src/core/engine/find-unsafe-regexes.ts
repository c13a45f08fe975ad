import type { Mock, StringMatch } from '../types.js';
import { detectNow, runRegexChecks, type DetectorOutcome, type RegexCheck } from './run-regex-checks.js';
import { isStringMatcherObject } from './string-match.js';

/** An unsafe regular expression in a mock: where it is and why it is refused. */
export interface UnsafeRegex {
  /** Path inside the mock, as `DefinitionError.field` has it (`match.query.q.regex`). */
  field: string;
  message: string;
}

/**
 * Why a pattern is refused, or `undefined` when it is fine. It is given the pattern as judged
 * (a native RegExp already anchored, see `check`).
 */
export type RegexJudge = (judged: RegExp) => string | undefined;

/** What one walk over a mock found so far, and what it does with each valid pattern. */
interface Findings {
  problems: UnsafeRegex[];
  visit(judged: RegExp, regex: RegExp, field: string): void;
}

/**
 * How long one pattern of a scenario may take to check (at harness creation, `loadScenarios`,
 * `validate`); a pattern still undecided then is refused. Generous: the check runs once per
 * pattern (decided outcomes are kept), and a busy CI machine is slow.
 */
const CHECK_TIMEOUT_MS = 3000;

/**
 * The bounds for patterns that arrive with a request (a test's own mocks): checked on a worker
 * thread, so the app's event loop never waits for them, each pattern for at most `perPatternMs`,
 * the patterns of one request for `totalMs` together, and at most `maxPatterns` different ones
 * per request (docs/reliability-and-security.md).
 */
export const REQUEST_REGEX_LIMITS = Object.freeze({ perPatternMs: 100, totalMs: 1000, maxPatterns: 50 });

/**
 * What redos-detector decided, by `flags/source`: test suites create harnesses from the same
 * scenarios again and again. Only outcomes that do not depend on the time the check was given.
 */
const outcomes = new Map<string, DetectorOutcome>();

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

const detectorOptions = ({ flags }: RegExp): RegexCheck['options'] => ({
  caseInsensitive: flags.includes('i'),
  unicode: flags.includes('u') || flags.includes('v'),
  dotAll: flags.includes('s'),
  multiLine: flags.includes('m'),
});

/** The key of a kept outcome: a pattern and its flags. */
const keyOf = (regex: RegExp) => `${regex.flags}/${regex.source}`;

/** redos-detector's own bound on one check, besides the time it is given. */
const MAX_STEPS = 20_000;

const TOO_COMPLEX = (regex: RegExp, limits: string, remedy = 'Simplify it, or use { contains }, { startsWith } or { endsWith }') =>
  `is the regular expression ${regex}, which is too complex to check for catastrophic backtracking: the check did not decide within ${limits}. ${remedy}`;

/**
 * Why `regex` is refused, from what redos-detector said of it, or `undefined` when it cannot
 * backtrack catastrophically; `tooComplex` is the words for a check that did not decide in time.
 * @note Only `hitMaxScore` is a verdict: redos-detector reports an infinite score for any check it
 * stopped (time or steps), so a stopped check is "too complex", not "catastrophic". A pattern
 * that is refused may be refused with the other words on a slower machine; one that passes
 * always passes.
 */
function verdictFrom(regex: RegExp, outcome: DetectorOutcome, tooComplex: string): string | undefined {
  if ('thrown' in outcome) {
    const reason = outcome.thrown.split('\n')[0];
    return `is the regular expression ${regex}, which could not be checked for catastrophic backtracking (${reason}). Rewrite it without that feature, or use { contains }, { startsWith } or { endsWith }`;
  }
  if (outcome.safe) return undefined;
  if (outcome.error !== 'hitMaxScore') return tooComplex;
  return `is the regular expression ${regex}, which can backtrack catastrophically: an input can match it in many overlapping ways, so one that does not match takes polynomial or exponential time. Anchor it with ^ (an unanchored pattern is retried at every position: /\\d+$/ is quadratic, /^\\d+$/ is not), make repeated parts unambiguous ([^/]+ rather than .+ before a "/", no nested quantifiers such as (a+)+), or use a URL pattern string, { contains }, { startsWith } or { endsWith }`;
}

/** A verdict that does not depend on the time the check was given: kept for next time. */
const decided = (outcome: DetectorOutcome) => 'thrown' in outcome || outcome.safe || outcome.error === 'hitMaxScore';

function remember(key: string, outcome: DetectorOutcome): void {
  if (!decided(outcome)) return;
  if (outcomes.size >= 1000) outcomes.clear();
  outcomes.set(key, outcome);
}

/** What redos-detector is given for `regex`, under `key`. */
const checkOf = (regex: RegExp, key = keyOf(regex)): RegexCheck => ({ key, source: withoutGroupNames(regex.source), options: detectorOptions(regex) });

/** What redos-detector says of `regex`: kept from before, or asked here and now (this thread waits, up to `CHECK_TIMEOUT_MS`). */
function outcomeNow(regex: RegExp): DetectorOutcome {
  const key = keyOf(regex);
  let outcome = outcomes.get(key);
  if (outcome === undefined) {
    outcome = detectNow(checkOf(regex, key), CHECK_TIMEOUT_MS, MAX_STEPS);
    remember(key, outcome);
  }
  return outcome;
}

/** The start-up judge: the check here and now, for up to `CHECK_TIMEOUT_MS` a pattern. */
const judgeNow: RegexJudge = (judged) => verdictFrom(judged, outcomeNow(judged), TOO_COMPLEX(judged, `${CHECK_TIMEOUT_MS} ms or ${MAX_STEPS} steps`));

/**
 * What is wrong with a pattern written elsewhere than in a mock (an API document's `pattern`),
 * by the rules of a serialised matcher, in words that fit any sentence ("can backtrack
 * catastrophically"), or `undefined` when it is fine. Checked here and now, like a scenario's.
 */
export function regexRisk(regex: RegExp): string | undefined {
  const outcome = outcomeNow(regex);
  if ('thrown' in outcome) return `could not be checked for catastrophic backtracking (${outcome.thrown.split('\n')[0]})`;
  if (outcome.safe) return undefined;
  if (outcome.error !== 'hitMaxScore') return `is too complex to check for catastrophic backtracking within ${CHECK_TIMEOUT_MS} ms or ${MAX_STEPS} steps`;
  return 'can backtrack catastrophically (an input can match it in many overlapping ways: one that does not match takes polynomial or exponential time)';
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
  found.visit(native ? new RegExp(`^(?:${regex.source})$`, regex.flags) : regex, regex, field);
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

/** Call `found.visit` for every regular expression of `mock`; an invalid one becomes a problem. */
function walk(mock: Mock, found: Findings): void {
  if (mock.url instanceof RegExp) check(mock.url, 'url', found, true);
  // A URL RegExp from a file is the same pattern a test would write in code, so it is judged
  // the same way; URLs are short, unlike the bodies serialised matchers may test.
  else if (typeof mock.url === 'object' && mock.url !== null && isRegexData(mock.url.regex)) checkRegexData(mock.url.regex, 'url.regex', found, true);
  for (const [name, match] of Object.entries(mock.match?.query ?? {})) checkStringMatch(match, `match.query.${name}`, found);
  for (const [name, match] of Object.entries(mock.match?.headers ?? {})) checkStringMatch(match, `match.headers.${name}`, found);
  if (mock.match !== undefined && 'body' in mock.match) checkBody(mock.match.body, 'match.body', found);
  if (mock.match?.graphql?.operationName !== undefined) checkStringMatch(mock.match.graphql.operationName, 'match.graphql.operationName', found);
  if (mock.match?.graphql?.variables !== undefined) checkBody(mock.match.graphql.variables, 'match.graphql.variables', found);
}

/**
 * Every regular expression in a mock (URL, query, headers, body and GraphQL matchers) that is
 * not valid, or (`backtracking`, the default) could backtrack catastrophically, as judged by
 * redos-detector; each is refused at harness creation. The mock may be invalid in other ways
 * (its regexes are still checked, so one pass reports every problem): a part of the wrong
 * shape is skipped. `judge` decides on each pattern: by default it checks it here and now.
 * @note Loaded on first use, so a disabled harness never loads the detector.
 * @see https://github.com/tjenkinson/redos-detector
 */
export function findUnsafeRegexes(mock: Mock, { backtracking = true, judge = judgeNow }: { backtracking?: boolean; judge?: RegexJudge } = {}): UnsafeRegex[] {
  const problems: UnsafeRegex[] = [];
  walk(mock, {
    problems,
    visit(judged, regex, field) {
      if (!backtracking) return;
      const message = judge(judged)?.replace(String(judged), String(regex));
      if (message !== undefined) problems.push({ field, message });
    },
  });
  return problems;
}

/**
 * The different patterns (as judged) of a list of mocks that may be invalid: a mock or a part
 * of the wrong shape is skipped, as `findUnsafeRegexes` skips it.
 */
export function patternsOf(mocks: readonly unknown[]): RegExp[] {
  const found = new Map<string, RegExp>();
  for (const mock of mocks) {
    try {
      walk(mock as Mock, { problems: [], visit: (judged) => void found.set(keyOf(judged), judged) });
    } catch {
      // A part of the wrong shape: the schema reports it.
    }
  }
  return [...found.values()];
}

/**
 * A judge for patterns that came with a request, made before any of them is judged: those
 * without a kept verdict are checked on a worker thread within `REQUEST_REGEX_LIMITS` (the app's
 * event loop goes on meanwhile). `unchecked` counts the patterns whose check did not finish
 * within the request's total; the judge refuses each with words that say so.
 */
export async function judgeWithinBudget(patterns: readonly RegExp[]): Promise<{ judge: RegexJudge; unchecked: number }> {
  const { perPatternMs, totalMs } = REQUEST_REGEX_LIMITS;
  const mine = new Map<string, string | undefined>();
  const checks: RegexCheck[] = [];
  for (const regex of patterns) {
    const key = keyOf(regex);
    const kept = outcomes.get(key);
    if (kept !== undefined) mine.set(key, verdictFrom(regex, kept, ''));
    else checks.push(checkOf(regex, key));
  }
  const found = await runRegexChecks(checks, { perPatternMs, totalMs, maxSteps: MAX_STEPS });
  let unchecked = 0;
  for (const regex of patterns) {
    const key = keyOf(regex);
    if (mine.has(key)) continue;
    const outcome = found.get(key);
    // Stopped, or cut short by the request's total: not a verdict on the pattern.
    if (outcome === undefined || (!decided(outcome) && !('thrown' in outcome) && outcome.cut)) {
      unchecked++;
      mine.set(key, `is the regular expression ${regex}, which was not checked for catastrophic backtracking: the patterns of this request used up the ${totalMs} ms they may take together`);
      continue;
    }
    const tooComplex = TOO_COMPLEX(
      regex,
      `${perPatternMs} ms or ${MAX_STEPS} steps, the limits of one pattern sent with a test's own mocks`,
      `Simplify it, use { contains }, { startsWith } or { endsWith }, or move the mock into a scenario, whose patterns get ${CHECK_TIMEOUT_MS} ms each at start-up`,
    );
    remember(key, outcome);
    mine.set(key, verdictFrom(regex, outcome, tooComplex));
  }
  return { judge: (judged) => mine.get(keyOf(judged)), unchecked };
}
