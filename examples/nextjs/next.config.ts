import type { NextConfig } from 'next';
import { realpathSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// Not part of the guide: a user's app needs no next.config for the harness. This example lives
// inside the scenario-harness package and imports it by name (a package self-reference to
// ../../dist), so Next must be told where the workspace starts: the package root, or the folder
// that holds both it and its node_modules when node_modules is a link to another checkout.
const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
let root = packageRoot.replace(/[\\/]$/, '');
const modules = realpathSync(`${root}/node_modules`);
while (relative(root, modules).startsWith('..') && dirname(root) !== root) root = dirname(root);

const nextConfig: NextConfig = { outputFileTracingRoot: root, turbopack: { root: root + sep } };

export default nextConfig;
