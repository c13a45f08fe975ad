import { quote } from '../core/dev-utils.js';
import type { SessionStore } from '../core/store/session-store.js';
import { lua } from './_lua-scripts.js';
import type { RedisContext } from './_redis-context.js';

/*
 * Held streams across replicas: each stream's view is a field of a hash beside the session
 * (`<prefix><testId>\0streams`), and the commands for one stream a list of its own
 * (`<prefix><testId>\0stream:<key>`), which the process holding it takes from. Each script
 * touches one key, as every step of this store does (clusters).
 */

/** KEYS[1] the views hash; ARGV[2] the stream's key, ARGV[3] its view. */
const PUT_VIEW_SCRIPT = lua(
  'putStreamView',
  `redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`,
);

/** KEYS[1] the views hash → every view. */
const READ_VIEWS_SCRIPT = lua('readStreamViews', `return redis.call('HVALS', KEYS[1])`);

/** KEYS[1] a stream's command list; ARGV[2] the command. */
const SEND_COMMAND_SCRIPT = lua(
  'sendStreamCommand',
  `redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`,
);

/** KEYS[1] a stream's command list → its commands, oldest first, and the list is gone. */
const TAKE_COMMANDS_SCRIPT = lua(
  'takeStreamCommands',
  `local commands = redis.call('LRANGE', KEYS[1], 0, -1)
if #commands > 0 then redis.call('DEL', KEYS[1]) end
return commands`,
);

export type StreamMethods = Required<Pick<SessionStore, 'putStreamView' | 'readStreamViews' | 'sendStreamCommand' | 'takeStreamCommands'>>;

export function streamMethods({ call, prefix }: RedisContext): StreamMethods {
  const viewsKey = (testId: string) => `${prefix}${testId}\u0000streams`;
  const commandsKey = (testId: string, streamKey: string) => `${prefix}${testId}\u0000stream:${streamKey}`;
  return {
    async putStreamView(testId, streamKey, view) {
      await call(() => `keep the view of a stream of test ${quote(testId)}`, PUT_VIEW_SCRIPT, testId, [streamKey, view], [viewsKey(testId)]);
    },
    async readStreamViews(testId) {
      return ((await call(() => `read the streams of test ${quote(testId)}`, READ_VIEWS_SCRIPT, testId, [], [viewsKey(testId)])) as unknown[]).map(String);
    },
    async sendStreamCommand(testId, streamKey, command) {
      await call(() => `send a command to a stream of test ${quote(testId)}`, SEND_COMMAND_SCRIPT, testId, [command], [commandsKey(testId, streamKey)]);
    },
    async takeStreamCommands(testId, streamKey) {
      return ((await call(() => `take the commands of a stream of test ${quote(testId)}`, TAKE_COMMANDS_SCRIPT, testId, [], [commandsKey(testId, streamKey)])) as unknown[]).map(String);
    },
  };
}
