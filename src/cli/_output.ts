import { LOG_PREFIX } from '../core/dev-utils.js';

/** Text as it is (help, summaries a script may parse) on stdout. */
export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** A progress line (`[scenario-harness] …`) on stdout. */
export function info(line: string): void {
  print(`${LOG_PREFIX} ${line}`);
}

/** A problem (`[scenario-harness] …`) on stderr. */
export function problem(text: string): void {
  process.stderr.write(`${LOG_PREFIX} ${text}${text.endsWith('\n') ? '' : '\n'}`);
}
