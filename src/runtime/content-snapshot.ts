/**
 * The content snapshot in DATA_DIR: what it holds, the key it must match to be used, and how
 * it is written. A warm start reads it instead of building the site again.
 */

import {
  CONTENT_MODEL_VERSION,
  type ContentProblem,
  type FileBuild,
  type LoadedSite,
  type Page,
  type Site,
  type SiteInfo,
} from '../content/index.js';
import { type AskService, type CopyGroups } from '../nlweb/index.js';
import { SEARCH_ENGINE_VERSION, type SearchIndex } from '../search/index.js';
import { writeSnapshot, type SnapshotKey, type SnapshotRead } from '../snapshot/index.js';

/** The snapshot of the loaded site and its index, in DATA_DIR. */
export const SNAPSHOT_FILE = 'content-snapshot.bin';

/**
 * What the snapshot holds: the built site without its URL map, its problems, how each file was
 * built (so the first reload after a warm start rebuilds only what changed), its index and the
 * groups of copies among its pages (what the ask service derives from the pages).
 */
export interface ContentSnapshot {
  info: SiteInfo;
  pages: Page[];
  problems: ContentProblem[];
  files: FileBuild[];
  index: SearchIndex;
  copies: CopyGroups;
}

/**
 * What ContentSnapshot holds: changes when a field is added or changes meaning (2: the groups of
 * copies were added; 3: passage texts are kept with white space collapsed), so an older snapshot is
 * rebuilt rather than read with a field missing or in its old form.
 */
export const CONTENT_SNAPSHOT_VERSION = 3;

/**
 * Beside the snapshot: the analysis of every passage (its words and terms), written by the
 * generation worker with the snapshot, so that the next reload analyses only the passages of the
 * pages that changed (analysePassages). Not read at start-up.
 */
export const ANALYSIS_FILE = 'content-analysis.bin';

/** What a kept analysis must have been made from: the build serving (its content hash) by this engine. */
export const contentAnalysisKey = (contentHash: string): SnapshotKey => ({
  ...contentSnapshotKey(contentHash),
  contentAnalysisVersion: 1,
});

/** What a content snapshot must have been made from to be used. */
export const contentSnapshotKey = (contentHash: string): SnapshotKey => ({
  contentHash,
  searchEngineVersion: SEARCH_ENGINE_VERSION,
  contentModelVersion: CONTENT_MODEL_VERSION,
  contentSnapshotVersion: CONTENT_SNAPSHOT_VERSION,
});

/**
 * A snapshot whose payload is not a ContentSnapshot is corrupt, however valid its header and CRC
 * (`null`, `{}`, `pages: null` aborted the start with a TypeError): it is discarded and the site
 * built again. The fields' own contents are the engine's, versioned by the key.
 */
export function payloadChecked(stored: SnapshotRead<ContentSnapshot>): SnapshotRead<ContentSnapshot> {
  if (!stored.ok) return stored;
  const value = stored.value as Partial<Record<keyof ContentSnapshot, unknown>> | null;
  const isObject = (field: unknown) => typeof field === 'object' && field !== null;
  const valid =
    isObject(value) &&
    isObject(value!.info) &&
    Array.isArray(value!.pages) &&
    Array.isArray(value!.problems) &&
    Array.isArray(value!.files) &&
    isObject(value!.index) &&
    isObject(value!.copies);
  return valid ? stored : { ok: false, reason: 'corrupt', detail: 'its payload is not a content snapshot' };
}

/** A snapshot without what indexing adds: what a built site gives before it is indexed. */
export type SiteSnapshot = Omit<ContentSnapshot, 'index' | 'copies'>;

/** What the snapshot keeps of a built site. */
export const siteSnapshotOf = (built: Pick<LoadedSite, 'site' | 'problems' | 'files'>): SiteSnapshot => ({
  info: built.site.info,
  pages: built.site.pages,
  problems: built.problems,
  files: built.files,
});

/** What the snapshot keeps of a built site and the ask service's index and copies. */
export const snapshotOf = (
  built: Pick<LoadedSite, 'site' | 'problems' | 'files'>,
  ask: Pick<AskService, 'index' | 'copies'>,
): ContentSnapshot => ({ ...siteSnapshotOf(built), index: ask.index, copies: ask.copies });

/**
 * A snapshot or a worker's message gives every string its own copy: the file records are pointed
 * at their page's path and URL instead (~0.8 MB less for 7,544 pages).
 */
export function shareStrings(files: FileBuild[], site: Site): FileBuild[] {
  for (const file of files) {
    const page = file.pageUrl === null ? undefined : site.byUrl.get(file.pageUrl);
    if (page !== undefined && page.sourcePath === file.sourcePath) {
      file.sourcePath = page.sourcePath;
      file.pageUrl = page.url;
    }
  }
  return files;
}

export function withStamps(files: FileBuild[], stamps: ReadonlyMap<string, string>): FileBuild[] {
  for (const file of files) {
    const stamp = stamps.get(file.sourcePath);
    if (stamp === undefined) delete file.stamp;
    else file.stamp = stamp;
  }
  return files;
}

/** Writes the snapshot from this thread; never throws (the server works without one). */
export async function saveHere(
  file: string | null,
  key: SnapshotKey,
  snapshot: ContentSnapshot,
): Promise<SaveResult> {
  if (file === null) return null;
  try {
    return { bytes: await writeSnapshot(file, key, snapshot) };
  } catch (error) {
    // The next start builds again.
    return { message: (error as Error).message };
  }
}

/** Whether a snapshot was written (its size) or not (why); null when none was to be written. */
export type SaveResult = { bytes: number } | { message: string } | null;
