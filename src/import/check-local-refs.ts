import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../core/errors.js';

/** Every `$ref` string in a parsed document, without recursion (documents can nest deep). */
function refsIn(value: unknown): string[] {
  const refs: string[] = [];
  const stack = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    for (const [key, child] of Object.entries(current)) {
      if (key === '$ref' && typeof child === 'string') refs.push(child);
      else stack.push(child);
    }
  }
  return refs;
}

/** The local file a `$ref` names (its fragment dropped), or `undefined` for an internal or remote one. */
function localFileOf(ref: string, from: string): string | undefined {
  const file = ref.split('#')[0]!;
  if (file === '') return undefined;
  if (/^file:/i.test(file)) return fileURLToPath(file);
  if (/^[a-z][a-z0-9+.-]*:/i.test(file)) return undefined;
  return isAbsolute(file) ? file : resolve(dirname(from), decodeURIComponent(file));
}

const inside = (folder: string, path: string) => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/**
 * Refuse a document whose `$ref`s, followed file to file, name a local file outside the
 * document's folder: the parser would inline it into the scenario file (a credentials file in
 * the home folder, `/etc/passwd`). Remote (`https:`) refs are left to the parser.
 */
export async function checkLocalRefs(documentPath: string): Promise<void> {
  const { parse } = await import('yaml');
  const root = dirname(resolve(documentPath));
  const seen = new Set<string>();
  const queue = [resolve(documentPath)];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let parsed: unknown;
    try {
      parsed = parse(await readFile(file, 'utf8'));
    } catch {
      // A file that does not parse (or read) is the parser's to report, with its own words.
      continue;
    }
    for (const ref of refsIn(parsed)) {
      const target = localFileOf(ref, file);
      if (target === undefined) continue;
      if (!inside(root, target)) {
        throw new HarnessError(
          'INVALID_ARGUMENT',
          `Failed to import ${documentPath}: ${relative(process.cwd(), file) || file} has "$ref": ${JSON.stringify(ref)}, a file outside the document's folder (${root}). Its content would be copied into the scenario file, so it is not read. Move the referenced file next to the document, or pass --allow-refs-outside if you trust the document.`,
        );
      }
      queue.push(target);
    }
  }
}
