/**
 * Every relative link in README.md, CONTRIBUTING.md and docs/ resolves (the file, and the
 * heading when the link names one), and so does every link into this repository from a
 * comment under src/: `https://github.com/scenario-harness/scenario-harness/blob/main/<path>#<anchor>`,
 * the repository's own `#readme` and `#<heading>` (README.md), and paths such as
 * `decisions/x.md` or `docs/x.md`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { anchors, documents, links, read, ROOT } from './markdown.js';

const REPOSITORY = 'https://github.com/scenario-harness/scenario-harness';

/** Why `target` (a repository path, maybe with `#anchor`) does not resolve, or undefined when it does. */
function problemWith(path: string, anchor: string | undefined): string | undefined {
  const file = join(ROOT, path);
  if (!existsSync(file)) return `${path} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(file).isDirectory() || !path.endsWith('.md')) return `#${anchor}: ${path} has no headings`;
  return anchors(read(path)).has(anchor) ? undefined : `${path} has no heading #${anchor}`;
}

/** Why a link to this repository on GitHub does not resolve, or undefined when it does. */
function problemWithRepositoryUrl(url: string): string | undefined {
  const rest = url.slice(REPOSITORY.length).replace(/[.,;]$/, '');
  const [path = '', anchor] = rest.split('#');
  const file = path === '' ? 'README.md' : /^\/(?:blob|tree)\/main\/(.+)$/.exec(path)?.[1];
  return file === undefined ? 'not a link to a file on the main branch' : problemWith(file, anchor === 'readme' ? undefined : anchor);
}

test.each(documents())('every relative link in %s resolves, and every link to this repository on GitHub', (doc) => {
  const problems = links(read(doc)).flatMap((target) => {
    if (target.startsWith(REPOSITORY)) {
      const problem = problemWithRepositoryUrl(target);
      return problem === undefined ? [] : [`${target}: ${problem}`];
    }
    if (/^[a-z]+:/i.test(target)) return [];
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? doc : relative(ROOT, join(ROOT, dirname(doc), decodeURIComponent(path)));
    const problem = problemWith(resolved, anchor);
    return problem === undefined ? [] : [`${target}: ${problem}`];
  });
  expect(problems).toEqual([]);
});

const sources = (function under(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? under(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  );
})('src');

test.each(sources)('every link into the repository from %s resolves', (source) => {
  const text = read(source);
  const problems: string[] = [];
  for (const [url] of text.matchAll(new RegExp(`${REPOSITORY.replaceAll('.', '\\.')}[^\\s)'"\`>]*`, 'g'))) {
    const problem = problemWithRepositoryUrl(url);
    if (problem !== undefined) problems.push(`${url}: ${problem}`);
  }
  for (const [path] of text.matchAll(/(?<![\w/.-])(?:docs|decisions)\/[\w./-]+\.md\b/g)) {
    if (!existsSync(join(ROOT, path))) problems.push(`${path}: does not exist`);
  }
  expect(problems).toEqual([]);
});
