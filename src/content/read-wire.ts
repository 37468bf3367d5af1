/** What crosses to and from the content-reading worker (read-in-worker.ts, read-worker.ts). */

import { UNREADABLE, type ContentFiles, type ReadOptions } from './read.js';

/**
 * A read folder without its files' text: enough to key a snapshot and to reload from it, with the
 * stamp of each file read that has one (the worker's summary has them; see stampsOf).
 */
export type ContentSummary = Omit<ContentFiles, 'files'> & { stamps?: Map<string, string> };

/** The stamps of the files just read or found unchanged, by source path, from the files or a summary. */
export function stampsOf(read: ContentFiles | ContentSummary): Map<string, string> {
  if ('files' in read) {
    const stamps = new Map<string, string>();
    for (const file of read.files) if (file.stamp !== undefined) stamps.set(file.sourcePath, file.stamp);
    for (const file of read.unread) stamps.set(file.sourcePath, file.stamp);
    return stamps;
  }
  return read.stamps ?? new Map();
}

/** What the read worker is given. */
export interface ReadJob {
  contentDir: string;
  options: Pick<
    ReadOptions,
    'reservedAnchors' | 'htmlBodySelector' | 'stampSettleMs' | 'known' | 'maxFileBytes'
  >;
  /**
   * The content hash of the snapshot its caller reads meanwhile, when known. Should the folder's
   * differ, that snapshot will be rejected and every file's text wanted: the worker reads the files
   * it left unread at once, while the caller still reads the snapshot.
   */
  snapshotHash?: string;
}

/**
 * What it posts: the summary, then (when asked with 'files') the whole folder, every file read (its
 * hash differs from the summary's only if a file changed in between); or why it failed.
 */
export type ReadMessage =
  | { kind: 'summary'; summary: WireSummary }
  | { kind: 'files'; content: WireSummary & Pick<ContentFiles, 'files'> }
  | { kind: 'failed'; message: string };

/** The summary as posted: UNREADABLE, a symbol, cannot be cloned across threads. */
export type WireSummary = Omit<ContentSummary, 'siteInfoText'> & {
  siteInfoText: string | null | { unreadable: true };
};

export const toWire = (summary: ContentSummary): WireSummary => ({
  ...summary,
  siteInfoText: summary.siteInfoText === UNREADABLE ? { unreadable: true } : summary.siteInfoText,
});

export const fromWire = (summary: WireSummary): ContentSummary => ({
  ...summary,
  siteInfoText:
    typeof summary.siteInfoText === 'object' && summary.siteInfoText !== null
      ? UNREADABLE
      : summary.siteInfoText,
});
