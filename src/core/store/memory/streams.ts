import type { SessionStore } from '../session-store.js';

export type StreamMethods = Required<Pick<SessionStore, 'putStreamView' | 'readStreamViews' | 'sendStreamCommand' | 'takeStreamCommands'>>;

/** Tests whose stream views are kept; past this the oldest go (a view outlives its stream only for listing). */
const MAX_TESTS = 1000;

/**
 * Held streams' views and commands, for the processes of one tree (register's forked dev
 * servers) that share this store through its session host: the process holding a stream and
 * the one a release reaches may differ. In one process the streams part needs none of it.
 */
export function streamMethods(): StreamMethods {
  const views = new Map<string, Map<string, string>>();
  const commands = new Map<string, string[]>();
  return {
    async putStreamView(testId, streamKey, view) {
      const ofTest = views.get(testId) ?? new Map<string, string>();
      views.delete(testId);
      views.set(testId, ofTest.set(streamKey, view));
      if (views.size > MAX_TESTS) views.delete(views.keys().next().value!);
    },
    async readStreamViews(testId) {
      return [...(views.get(testId)?.values() ?? [])];
    },
    async sendStreamCommand(testId, streamKey, command) {
      const key = `${testId}\u0000${streamKey}`;
      commands.set(key, [...(commands.get(key) ?? []), command]);
    },
    async takeStreamCommands(testId, streamKey) {
      const key = `${testId}\u0000${streamKey}`;
      const taken = commands.get(key) ?? [];
      commands.delete(key);
      return taken;
    },
  };
}
