import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, unlinkSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** Whether process `pid` still runs (one owned by another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves once `lock` is gone, or its holder died (then removes it). Waits on the folder's changes, not a timer. */
function lockReleased(lock: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (existsSync(lock)) {
        const pid = Number(readFileSync(lock, 'utf8'));
        if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) return;
        try {
          unlinkSync(lock);
        } catch {
          // another waiter removed it first
        }
      }
      watcher.close();
      resolve();
    };
    const watcher = watch(tmpdir(), (_event, name) => {
      if (name === null || name === basename(lock)) check();
    });
    check();
  });
}

/**
 * Run `task` holding a lock file named after `kind` and `name` (an install or build folder),
 * so that test files in other processes doing the same install or build wait for this one.
 */
export async function withLock<T>(kind: string, name: string, task: () => Promise<T>): Promise<T> {
  const lock = join(tmpdir(), `scenario-harness-${kind}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}.lock`);
  for (;;) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await lockReleased(lock);
      continue;
    }
    try {
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return await task();
    } finally {
      unlinkSync(lock);
    }
  }
}
