/**
 * Watches a content folder and calls back once a burst of changes has settled.
 *
 * One non-recursive `fs.watch` per folder: inotify reports a change to any file in a watched folder,
 * so a site of 7,500 pages in 14 folders needs 14 watches. `fs.watch(…, { recursive: true })` on
 * Linux is emulated by Node (20 and 24) with one watch and one `statSync` per file: on the docs
 * corpus that was 7,545 watchers built at start-up (~0.2 s), several MB of memory, and more inotify
 * watches than many systems allow a user (`fs.inotify.max_user_watches`, often 8,192).
 *
 * The folders watched are the ones the loader reads (names starting with `_` or `.` are skipped,
 * and links to folders are not followed). They are listed again before each call back, so a folder
 * created or removed is watched or let go; a file written into a new folder before its watch exists
 * is still seen, because the call back reads the whole content folder again. That is also why the
 * call back does not say what changed.
 */

import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export interface ContentWatchOptions {
  /** Quiet time after the last event before calling back (an editor's save is several events). */
  debounceMs?: number;
  /** Longest wait while events keep coming, so a stream of changes still shows up. */
  maxWaitMs?: number;
  /** The watch failed (the content folder removed, out of inotify watches); the watcher is closed. */
  onError?: (error: Error) => void;
}

export interface ContentWatcher {
  /** The folders watched now (absolute paths, the content folder first). */
  readonly folders: readonly string[];
  close(): void;
}

export const DEFAULT_WATCH_DEBOUNCE_MS = 150;
export const DEFAULT_WATCH_MAX_WAIT_MS = 1000;

/** A folder removed while it was being listed or watched: it is let go, not an error. */
const isGone = (error: unknown) =>
  ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * The content folder and every folder below it that the loader reads pages from. Only the content
 * folder itself must be readable; a subfolder removed meanwhile is left out.
 */
function contentFolders(root: string): string[] {
  const folders: string[] = [];
  const walk = (folder: string) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if (folder !== root && isGone(error)) return;
      throw error;
    }
    folders.push(folder);
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith('_') && !entry.name.startsWith('.'))
        walk(join(folder, entry.name));
    }
  };
  walk(root);
  return folders;
}

/**
 * Starts watching `folder`. Throws when it cannot be listed or watched at all (the caller falls
 * back to SIGHUP); a failure later closes the watcher and goes to `onError`.
 */
export function watchContentFolder(
  folder: string,
  onChange: () => void,
  options: ContentWatchOptions = {},
): ContentWatcher {
  const debounceMs = options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_WATCH_MAX_WAIT_MS;
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | null = null;
  let firstEventAt = 0;
  let closed = false;

  const close = () => {
    closed = true;
    if (timer !== null) clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
  const fail = (error: Error) => {
    if (closed) return;
    close();
    options.onError?.(error);
  };

  const onEvent = () => {
    const now = Date.now();
    if (timer === null) firstEventAt = now;
    else clearTimeout(timer);
    timer = setTimeout(fire, Math.max(0, Math.min(debounceMs, firstEventAt + maxWaitMs - now)));
  };

  /** Watches the folders there are now and lets go of those that are gone. */
  const syncFolders = () => {
    const present = contentFolders(folder);
    const keep = new Set(present);
    for (const [path, watcher] of watchers)
      if (!keep.has(path)) {
        watcher.close();
        watchers.delete(path);
      }
    for (const path of present) {
      if (watchers.has(path)) continue;
      let watcher: FSWatcher;
      try {
        watcher = watch(path, { persistent: false }, onEvent);
      } catch (error) {
        if (path !== folder && isGone(error)) continue;
        throw error;
      }
      watcher.on('error', fail);
      watchers.set(path, watcher);
    }
  };

  // Folders first, then the call back: whatever is written after the listing has a watch, and
  // whatever was written before it is read by the reload.
  const fire = () => {
    timer = null;
    if (closed) return;
    try {
      syncFolders();
    } catch (error) {
      return fail(error as Error);
    }
    onChange();
  };

  try {
    syncFolders();
  } catch (error) {
    close();
    throw error;
  }
  return {
    get folders() {
      return [...watchers.keys()];
    },
    close,
  };
}
