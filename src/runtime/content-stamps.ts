/**
 * The stamps of CONTENT_DIR's files as last read, kept in DATA_DIR beside the content snapshot, so
 * that a start stats each file whose stamp is unchanged instead of reading and hashing it (on the
 * docs corpus, reading the 7,544 files was the warm start's longest step). A stamp vouches for the
 * digest a file had when it was read (see STAMP_SETTLE_MS in src/content/read.ts), and the content
 * hash is made from those digests as reading every file would make it: a lost, stale or foreign
 * stamps file costs reading, never a wrong hash, so never a stale snapshot served.
 *
 * Stored with the snapshot's own format (checksum, atomic write), keyed by the content folder.
 */

import { join, resolve } from 'node:path';
import { CONTENT_MODEL_VERSION, type FileBuild, type KnownFile } from '../content/index.js';
import { readSnapshot, writeSnapshot, type SnapshotKey } from '../snapshot/index.js';

export const STAMPS_FILE = 'content-stamps.bin';

/** Changes when the stored value's fields change. */
const STAMPS_VERSION = 1;

/** The stamps of a folder's files and the content hash of the build they were kept with. */
export interface KnownStamps {
  contentHash: string;
  files: Map<string, KnownFile>;
}

/** As stored: one entry per stamped file, in three parallel lists. */
interface StoredStamps {
  contentHash: string;
  paths: string[];
  digests: string[];
  stamps: string[];
}

const keyOf = (contentDir: string): SnapshotKey => ({
  contentStampsVersion: STAMPS_VERSION,
  contentModel: CONTENT_MODEL_VERSION,
  contentDir: resolve(contentDir),
});

/** The stamps kept for `contentDir`, or null when there are none usable (absent, other folder, corrupt). */
export async function readKnownStamps(dataDir: string, contentDir: string): Promise<KnownStamps | null> {
  const stored = await readSnapshot<StoredStamps>(join(dataDir, STAMPS_FILE), keyOf(contentDir));
  if (!stored.ok) return null;
  const { contentHash, paths, digests, stamps } = stored.value;
  if (
    typeof contentHash !== 'string' ||
    !Array.isArray(paths) ||
    digests?.length !== paths.length ||
    stamps?.length !== paths.length
  )
    return null;
  const files = new Map<string, KnownFile>();
  for (let index = 0; index < paths.length; index++)
    files.set(paths[index]!, { digest: digests[index]!, stamp: stamps[index]! });
  return { contentHash, files };
}

/** Keeps the stamps of a build's files (those that have one); throws when it cannot be written. */
export async function saveKnownStamps(
  dataDir: string,
  contentDir: string,
  contentHash: string,
  files: readonly Pick<FileBuild, 'sourcePath' | 'digest' | 'stamp'>[],
): Promise<void> {
  const value: StoredStamps = { contentHash, paths: [], digests: [], stamps: [] };
  for (const file of files) {
    if (file.stamp === undefined) continue;
    value.paths.push(file.sourcePath);
    value.digests.push(file.digest);
    value.stamps.push(file.stamp);
  }
  await writeSnapshot(join(dataDir, STAMPS_FILE), keyOf(contentDir), value);
}
