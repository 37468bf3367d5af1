/**
 * The first load's reading, for a server with a large snapshot in DATA_DIR: CONTENT_DIR is read
 * and hashed in a worker thread while this thread reads and deserialises the snapshot, and the
 * snapshot is used only when the hash then matches the one it was written with. On the docs corpus
 * (7,544 files, a 34 MB snapshot) each step took ~0.4–0.5 s, one after the other.
 */

import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { readContentInWorker, type ContentFiles, type ContentSummary } from '../content/index.js';
import type { KnownStamps } from './content-stamps.js';
import {
  readSnapshot,
  snapshotKeyDifference,
  type SnapshotKey,
  type SnapshotRead,
} from '../snapshot/index.js';

/**
 * Below this snapshot size (about 1,000 pages) reading it takes less than starting a worker does,
 * and the folder is read on the main thread first, as a reload does.
 */
export const OVERLAP_MIN_SNAPSHOT_BYTES = 4 * 1024 * 1024;

export interface ReadBesideSnapshot<T> {
  summary: ContentSummary;
  /** The snapshot, checked against the whole key (the content hash included). */
  stored: SnapshotRead<T>;
  /** The whole folder, every file's text read, for building when the snapshot is not used. */
  files(): Promise<ContentFiles>;
  /** From the start to the content's hash (the worker) and to the deserialised snapshot (this thread). */
  readMs: number;
  snapshotMs: number;
}

export interface ReadBesideOptions {
  /**
   * The stamps kept from an earlier read (content-stamps.ts): the worker stats the files they
   * still match instead of reading them.
   */
  known?: KnownStamps | null;
  /** The smallest snapshot worth reading beside the folder (default OVERLAP_MIN_SNAPSHOT_BYTES). */
  minBytes?: number;
  /** See ReadOptions.stampSettleMs. */
  stampSettleMs?: number;
  /** See ReadOptions.maxFileBytes. */
  maxFileBytes?: number;
  /** See ReadOptions.htmlBodySelector. */
  htmlBodySelector?: string;
}

/**
 * Null when there is no snapshot worth overlapping (absent, under `minBytes`, one core), or the worker failed: the
 * caller then reads the folder itself. `keyOf` gives the snapshot key for a content hash, which
 * is its field `hashField`.
 */
export async function readBesideSnapshot<T>(
  contentDir: string,
  snapshotFile: string,
  keyOf: (contentHash: string) => SnapshotKey,
  hashField: string,
  {
    known = null,
    minBytes = OVERLAP_MIN_SNAPSHOT_BYTES,
    stampSettleMs,
    maxFileBytes,
    htmlBodySelector,
  }: ReadBesideOptions = {},
): Promise<ReadBesideSnapshot<T> | null> {
  const started = performance.now();
  // On one core the two reads would only take turns.
  if (availableParallelism() < 2) return null;
  try {
    if ((await stat(snapshotFile)).size < minBytes) return null;
  } catch {
    return null;
  }
  const reading = readContentInWorker(
    contentDir,
    { known: known?.files, stampSettleMs, maxFileBytes, htmlBodySelector },
    known?.contentHash,
  );
  let readMs = 0;
  reading.summary.then(
    () => (readMs = performance.now() - started),
    () => undefined,
  );
  const snapshot = await readSnapshot<T>(snapshotFile, keyOf(''), { deferredFields: [hashField] });
  const snapshotMs = performance.now() - started;
  let summary: ContentSummary;
  try {
    summary = await reading.summary;
  } catch {
    reading.close();
    return null;
  }
  let stored = snapshot;
  if (!summary.exists) stored = { ok: false, reason: 'missing', detail: 'no content folder' };
  else if (snapshot.ok) {
    const changed = snapshotKeyDifference(snapshot.key, keyOf(summary.hash));
    if (changed !== null) stored = { ok: false, reason: 'stale', detail: changed };
  }
  if (stored.ok) reading.close();
  return { summary, stored, files: () => reading.files(), readMs, snapshotMs };
}
