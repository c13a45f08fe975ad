import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';

/**
 * Make the global dispatcher (so `fetch`) resolve every host name to 127.0.0.1, as DNS would
 * resolve a real API's name: a recording test reaches its loopback upstream under the API's own
 * name, and nothing reaches the network. Returns the undo.
 */
export function resolveNamesToLoopback(): () => Promise<void> {
  const agent = new Agent({ connect: { lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]) } });
  const before = getGlobalDispatcher();
  setGlobalDispatcher(agent);
  return async () => {
    setGlobalDispatcher(before);
    await agent.close();
  };
}
