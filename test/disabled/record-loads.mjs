// A module hook for the child process: writes every module URL it resolves to LOADS_FILE.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(process.env.LOADS_FILE, `${result.url}\n`);
  return result;
}
