/**
 * Watches a content folder and calls back once a burst of changes has settled.
 *
 * `fs.watch(…, { recursive: true })` works on Linux from Node 20 (since 19.1 Node emulates it
 * with one inotify watch per folder, adding folders created later); it only says that something
 * changed, and a file written into a folder just created can be missed (inotify is not recursive),
 * so the callback does not say what changed: the caller reads the whole folder again, which sees
 * every change whatever events arrived.
 */

import { watch, type FSWatcher } from 'node:fs';

export interface ContentWatchOptions {
  /** Quiet time after the last event before calling back (an editor's save is several events). */
  debounceMs?: number;
  /** Longest wait while events keep coming, so a stream of changes still shows up. */
  maxWaitMs?: number;
  /** The watch failed (folder removed, out of inotify watches); the watcher is closed. */
  onError?: (error: Error) => void;
}

export interface ContentWatcher {
  close(): void;
}

export const DEFAULT_WATCH_DEBOUNCE_MS = 150;
export const DEFAULT_WATCH_MAX_WAIT_MS = 1000;

export function watchContentFolder(
  folder: string,
  onChange: () => void,
  options: ContentWatchOptions = {},
): ContentWatcher {
  const debounceMs = options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_WATCH_MAX_WAIT_MS;
  let timer: NodeJS.Timeout | null = null;
  let firstEventAt = 0;
  let closed = false;

  const fire = () => {
    timer = null;
    if (!closed) onChange();
  };
  const onEvent = () => {
    const now = Date.now();
    if (timer === null) firstEventAt = now;
    else clearTimeout(timer);
    timer = setTimeout(fire, Math.max(0, Math.min(debounceMs, firstEventAt + maxWaitMs - now)));
  };

  const watcher: FSWatcher = watch(folder, { recursive: true, persistent: false }, onEvent);
  const close = () => {
    closed = true;
    if (timer !== null) clearTimeout(timer);
    watcher.close();
  };
  watcher.on('error', (error: Error) => {
    close();
    options.onError?.(error);
  });
  return { close };
}
