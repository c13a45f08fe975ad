/** The oldest Node.js line the package runs on, as package.json's `engines` says (`^22.12.0 || ^24 || ^26`). */
const NODE_FLOOR = { major: 22, minor: 12 };

interface RuntimeVersions {
  node?: string;
  bun?: string;
  deno?: string;
}

/**
 * Why this Node cannot run the harness, or `undefined` when it can. npm warns at install
 * (EBADENGINE) but installs anyway; an app started on an older Node is told here, once, with the
 * version found and the one needed, instead of failing later inside the interception library.
 * Bun and Deno report a Node version of their own compatibility layer: they are judged by their
 * own suites, not by it.
 */
export function unsupportedNodeReason(versions: RuntimeVersions = process.versions): string | undefined {
  if (versions.bun !== undefined || versions.deno !== undefined) return undefined;
  const [major = 0, minor = 0] = (versions.node ?? '').split('.').map(Number);
  if (major > NODE_FLOOR.major || (major === NODE_FLOOR.major && minor >= NODE_FLOOR.minor)) return undefined;
  return `Node.js ${versions.node ?? '(unknown version)'} is not supported: scenario-harness needs Node.js ${NODE_FLOOR.major}.${NODE_FLOOR.minor} or newer (24 and 26 are supported too). Install a supported Node (for example \`nvm install 24\`) and start the app again.`;
}
