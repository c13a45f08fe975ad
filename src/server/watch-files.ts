import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** Editors save in several writes (truncate, write, rename): one reload for the burst. */
const SETTLE_MS = 100;

/**
 * Call `onChange` when any of `paths` changes. Watches each file's directory, not the file:
 * editors that save by writing a new file and renaming it over the old one (vim, JetBrains)
 * would leave a watch on the file itself pointing at the deleted original.
 */
export function watchFiles(paths: readonly string[], onChange: () => void): { close(): void } {
  const namesByDirectory = new Map<string, Set<string>>();
  for (const path of paths) {
    const absolute = resolve(path);
    const names = namesByDirectory.get(dirname(absolute)) ?? new Set<string>();
    names.add(basename(absolute));
    namesByDirectory.set(dirname(absolute), names);
  }
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
  };
  const watchers: FSWatcher[] = [...namesByDirectory].map(([directory, names]) =>
    watch(directory, (_event, name) => {
      if (name === null || names.has(String(name))) changed();
    }),
  );
  return {
    close() {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
