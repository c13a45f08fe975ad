import type { NextConfig } from 'next';
import { fileURLToPath } from 'node:url';

const nextConfig: NextConfig = {
  // The example lives inside the scenario-harness package and imports it by name (a package
  // self-reference to ../../dist); the root tells Next where the workspace starts.
  outputFileTracingRoot: fileURLToPath(new URL('../..', import.meta.url)),
  turbopack: { root: fileURLToPath(new URL('../..', import.meta.url)) },
};

export default nextConfig;
