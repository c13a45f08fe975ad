/**
 * A hint as a header value: printable ASCII stays as it is, every other character (a scenario
 * ID in Japanese, a line break) becomes `\uXXXX`, which a header may carry and `readHintHeader`
 * turns back.
 *
 * @example
 * hintHeaderValue('Did you mean "café"?'); // 'Did you mean "caf\\u00e9"?'
 */
export function hintHeaderValue(hint: string): string {
  return hint.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The hint a control answer carried in `x-harness-hint`, `undefined` when none. */
export function readHintHeader(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  return value.replace(/\\u([0-9a-f]{4})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)));
}
