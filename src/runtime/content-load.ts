/**
 * Loading the content at start-up: from the snapshot when it matches, else read, built and
 * indexed (in workers on big sites), then the snapshot written for the next start.
 */
import { type ContentGeneration } from '../http/index.js';
import {
  ANALYSIS_FILE,
  contentAnalysisKey,
  contentSnapshotKey,
  payloadChecked,
  saveHere,
  shareStrings,
  snapshotOf,
  SNAPSHOT_FILE,
  withStamps,
  type ContentSnapshot,
  type SaveResult,
} from './content-snapshot.js';
import {
  GenerationWorker,
  heldBack,
  savedBy,
  withoutHeldBack,
  type KeptAnalysis,
} from './generation-worker.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import {
  buildSite,
  defaultWorkerCount,
  filesToRebuild,
  MIN_FILES_FOR_WORKERS,
  readContent,
  readUnread,
  rebuildSite,
  stampsOf,
  toWire,
  type ContentFiles,
  type ContentProblem,
  type ContentSummary,
  type FileBuild,
  type PreviousBuild,
  type Site,
  type SourceFile,
  type UnreadFile,
} from '../content/index.js';
import { createAskService, type CopyGroups, type StreamRegistry } from '../nlweb/index.js';
import { type SearchIndex } from '../search/index.js';
import { readSnapshot, type SnapshotRead } from '../snapshot/index.js';
import { readKnownStamps, saveKnownStamps } from './content-stamps.js';

import { readBesideSnapshot } from './start-up-read.js';

/**
 * A reload rebuilds only the changed files, in a parse worker, when there are at most this many
 * (~0.4 ms each), reusing every other page; more than that, and the whole site is built again in
 * a worker. (Parsed on the main thread, one hostile page of 20,000 headings held every request up.)
 */
export const INCREMENTAL_MAX_FILES = 100;

export interface LoadedContent {
  generation: ContentGeneration;
  problems: ContentProblem[];
  /** The content hash (see readContent): equal hashes, equal sites. */
  contentHash: string;
  /** 'snapshot' when the site and index came from DATA_DIR's snapshot; 'built' otherwise. */
  source: 'snapshot' | 'built';
  /** Why the snapshot was not used (absent, stale, corrupt), when it was not. */
  snapshotRejected: string | null;
  /** How many files were parsed (all of them for a full build, the changed ones for a rebuild, 0 from a snapshot). */
  filesParsed: number;
  /** How many Markdown files were read (a reload skips those whose stamp did not change). */
  filesRead: number;
  /**
   * For a reload indexed in the generation worker: how many passages it analysed (those of the
   * changed pages, or all when no analysis of the serving build was kept).
   */
  passagesAnalysed?: number;
  /** What the next reload can reuse. */
  build: PreviousBuild;
  timings: { readMs: number; buildMs: number; indexMs: number; totalMs: number };
  /**
   * Saves the snapshot of a built load, then the files' stamps (content-stamps.ts); for a load from
   * the snapshot, only the stamps, when it read files it had none for. Call it whatever becomes of
   * the load: a reload's worker waits for it to write the snapshot, then ends.
   */
  saveSnapshot(): Promise<void>;
}

export interface LoadContentOptions {
  /** The streams registry of the service being replaced, so open streams stay counted. */
  streams?: StreamRegistry;
  /** Skip building when the content hash equals this (a reload with nothing changed). */
  unlessHash?: string;
  /** The site serving now: its pages are reused for the files that did not change. */
  previous?: PreviousBuild;
  /**
   * Parse and index in a worker thread (the main thread keeps serving, and the build's garbage
   * stays out of its heap). Default: for folders of MIN_FILES_FOR_WORKERS files or more.
   */
  buildInWorker?: boolean;
  /**
   * No parsing or indexing on this thread, however small the change or the site (a reload while
   * the server answers): one slow page must not hold up /healthz and every other request.
   */
  offThread?: boolean;
  /**
   * The first load (no `previous`, no `unlessHash`) reads CONTENT_DIR in a worker while it reads a
   * snapshot of at least this many bytes (default OVERLAP_MIN_SNAPSHOT_BYTES, see start-up-read.ts).
   */
  readBesideSnapshotFrom?: number;
  /** How long after a file's last change its stamp is trusted (STAMP_SETTLE_MS; tests set 0). */
  stampSettleMs?: number;
  /**
   * A worker started ahead for this load (a reload starts one before reading the folder): used if
   * the load builds in a worker, else ended.
   */
  worker?: GenerationWorker;
}

/** What loading the content reads of the configuration (CONTENT_MAX_FILE_BYTES may be left out). */
export type ContentConfig = Pick<Config, 'contentDir' | 'dataDir' | 'publicBaseUrl'> &
  Partial<Pick<Config, 'contentMaxFileBytes' | 'contentHtmlBody'>>;

/**
 * Reads CONTENT_DIR and builds a generation: from DATA_DIR's snapshot when it was made from the
 * same content by the same engine, else by parsing (worker threads) and indexing. Null when
 * `unlessHash` matched.
 */
export async function loadContent(
  config: ContentConfig,
  logger: Logger,
  options: LoadContentOptions = {},
): Promise<LoadedContent | null> {
  let spare = options.worker ?? null;
  let taken: GenerationWorker | null = null;
  const takeWorker = () => {
    taken = spare ?? new GenerationWorker();
    spare = null;
    return taken;
  };
  // A first load with no snapshot of a folder large enough for workers starts them once it is
  // listed: their start (~0.1 s each, one after the other) overlaps reading the files.
  const onListed = startsAhead(config, options)
    ? (sourcePaths: readonly string[]) => {
        if (spare === null && taken === null && sourcePaths.length >= MIN_FILES_FOR_WORKERS)
          spare = new GenerationWorker({ parseWorkers: defaultWorkerCount(sourcePaths.length) });
      }
    : undefined;
  try {
    return await load(config, logger, options, takeWorker, onListed);
  } catch (error) {
    // A load that failed has no snapshot to save: its worker is not waited for.
    (taken as GenerationWorker | null)?.end();
    throw error;
  } finally {
    spare?.end();
  }
}

/** Whether a load is a first load that will build (no snapshot to start from), in a worker if large. */
function startsAhead(config: Pick<Config, 'dataDir'>, options: LoadContentOptions): boolean {
  return (
    options.previous === undefined &&
    options.unlessHash === undefined &&
    options.buildInWorker !== false &&
    !existsSync(join(config.dataDir, SNAPSHOT_FILE))
  );
}

async function load(
  config: ContentConfig,
  logger: Logger,
  options: LoadContentOptions,
  takeWorker: () => GenerationWorker,
  onListed?: (sourcePaths: readonly string[]) => void,
): Promise<LoadedContent | null> {
  const started = performance.now();
  const snapshotFile = join(config.dataDir, SNAPSHOT_FILE);
  const maxFileBytes = config.contentMaxFileBytes ?? undefined;
  const firstLoad = options.previous === undefined && options.unlessHash === undefined;
  const keptAnalysis = (contentHash: string): KeptAnalysis => ({
    file: join(config.dataDir, ANALYSIS_FILE),
    key: contentAnalysisKey(contentHash),
  });
  // Never throws: without them the next start reads every file.
  const keepStamps = (contentHash: string, built: readonly FileBuild[]) =>
    saveKnownStamps(config.dataDir, config.contentDir, contentHash, built).catch((error: Error) =>
      logger.warn(
        { error: error.message },
        'content stamps could not be saved; the next start reads every file',
      ),
    );
  // A reload reads only the files whose stamp changed since the build serving now was read, a
  // first load those whose stamp changed since the stamps kept in DATA_DIR.
  const kept = firstLoad ? await readKnownStamps(config.dataDir, config.contentDir) : null;
  const known = options.previous
    ? new Map(options.previous.files.map((file) => [file.sourcePath, file]))
    : kept?.files;
  // The first load reads the folder in a worker while this thread reads a large snapshot.
  const beside = firstLoad
    ? await readBesideSnapshot<ContentSnapshot>(
        config.contentDir,
        snapshotFile,
        contentSnapshotKey,
        'contentHash',
        {
          known: kept,
          minBytes: options.readBesideSnapshotFrom,
          stampSettleMs: options.stampSettleMs,
          maxFileBytes,
          htmlBodySelector: config.contentHtmlBody ?? undefined,
        },
      )
    : null;
  let files: ContentFiles | null = beside
    ? null
    : await readContent(config.contentDir, {
        htmlBodySelector: config.contentHtmlBody ?? undefined,
        onListed,
        known,
        stampSettleMs: options.stampSettleMs,
        maxFileBytes,
      });
  const read: ContentSummary = files ?? beside!.summary;
  if (options.unlessHash === read.hash) return null;
  const readMs = beside ? beside.readMs : performance.now() - started;
  let key = contentSnapshotKey(read.hash);
  const serviceOptions = { streams: options.streams };

  const stored: SnapshotRead<ContentSnapshot> = payloadChecked(
    beside
      ? beside.stored
      : read.exists
        ? await readSnapshot<ContentSnapshot>(snapshotFile, key)
        : ({ ok: false, reason: 'missing', detail: 'no content folder' } as const),
  );
  if (stored.ok) {
    const { info, pages, problems, index, copies } = stored.value;
    const site: Site = { info, pages, byUrl: new Map(pages.map((page) => [page.url, page])) };
    // The files' builds as the snapshot has them, with the stamps just read (the content hash
    // matched, so every digest did): the first reload reads only the files changed since.
    const stamps = stampsOf(read);
    const files = withStamps(shareStrings(stored.value.files, site), stamps);
    const build = { site, files, sourcePaths: read.sourcePaths };
    // Stamps for files read without one known: kept for the next start.
    const newStamps = stamps.size > read.unread.length;
    let stampsSaved: Promise<void> | null = null;
    const restored = performance.now();
    const ask = createAskService(site, config.publicBaseUrl, { ...serviceOptions, index, copies });
    const done = performance.now();
    return {
      generation: { site, ask },
      problems,
      contentHash: read.hash,
      source: 'snapshot',
      snapshotRejected: null,
      filesParsed: 0,
      filesRead: read.sourcePaths.length - read.unread.length,
      build,
      timings: {
        readMs,
        // Read beside the folder, the two overlap: readMs + buildMs then exceeds totalMs.
        buildMs: beside ? beside.snapshotMs : restored - started - readMs,
        indexMs: done - restored,
        totalMs: done - started,
      },
      saveSnapshot: () => (stampsSaved ??= newStamps ? keepStamps(read.hash, files) : Promise.resolve()),
    };
  }
  if (stored.reason === 'stale')
    // The normal path after an edit or an upgrade: said at info, in words; the key's change stays
    // in `detail` for whoever wants to know which.
    logger.info(
      { snapshot: snapshotFile, reason: stored.reason, detail: stored.detail },
      stored.detail.startsWith('contentHash ')
        ? 'content changed since the last start: building the site and its search index afresh'
        : 'the saved content snapshot is from another server version or configuration: building the site afresh',
    );
  else if (stored.reason === 'corrupt')
    logger.warn(
      { snapshot: snapshotFile, reason: stored.reason, detail: stored.detail },
      `content snapshot not used: ${stored.detail}`,
    );
  files ??= await beside!.files();

  const useWorker =
    options.offThread === true ||
    (options.buildInWorker ?? files.files.length + files.unread.length >= MIN_FILES_FOR_WORKERS);
  const snapshotTarget = files.exists ? snapshotFile : null;
  // Once the snapshot is written, the stamps of the files it was built from.
  const afterSave = (built: readonly FileBuild[]) => async (result: SaveResult) => {
    if (result === null) return;
    if ('message' in result) {
      logger.warn({ snapshot: snapshotFile, error: result.message }, 'content snapshot could not be saved');
      return;
    }
    logger.info({ snapshot: snapshotFile, bytes: result.bytes }, 'content snapshot saved');
    await keepStamps(files!.hash, built);
  };

  // A reload that changed a few files: those are parsed again (in a parse worker for a reload, see
  // LoadContentOptions.offThread), every other page is the one serving
  // now (shared, not copied), and the index is built again in a worker, which then writes the snapshot.
  let changed = options.previous ? filesToRebuild(files, options.previous) : null;
  const fewChanged = changed !== null && changed.length <= INCREMENTAL_MAX_FILES;
  // A rebuild reads the unread files it rebuilds (a page with an error, a link target that
  // appeared), a full build all of them. Should one have changed meanwhile, the folder is read
  // again (the hash with it), so the list is made again.
  files = await readUnread(
    files,
    {
      stampSettleMs: options.stampSettleMs,
      maxFileBytes,
      htmlBodySelector: config.contentHtmlBody ?? undefined,
    },
    fewChanged ? unreadPaths(changed!) : undefined,
  );
  if (fewChanged) changed = filesToRebuild(files, options.previous!);
  key = contentSnapshotKey(files.hash);
  if (options.previous && changed !== null && changed.length <= INCREMENTAL_MAX_FILES) {
    const rebuilt = await rebuildSite(files, options.previous, { offThread: options.offThread });
    const build = { site: rebuilt.site, files: rebuilt.files, sourcePaths: files.sourcePaths };
    let index: SearchIndex | undefined;
    let copies: CopyGroups | undefined;
    let saveInWorker: (() => Promise<SaveResult>) | null = null;
    let passagesAnalysed: number | undefined;
    if (useWorker) {
      const generator = takeWorker();
      const serving = new Set(options.previous.site.pages);
      // The pages without what indexing does not read (their Markdown, the bulk of a page: a
      // third less to copy to the worker and for it to decode, while the new site waits); that
      // follows for the snapshot once the new site serves. Those still the serving site's keep
      // their passages' analysis.
      generator.send({
        kind: 'index',
        pages: rebuilt.site.pages.map(withoutHeldBack),
        reused: rebuilt.site.pages.map((page) => serving.has(page)),
      });
      ({ index, copies, passagesAnalysed } = await generator.next('indexed'));
      saveInWorker = () => {
        if (snapshotTarget === null) {
          generator.end();
          return Promise.resolve(null);
        }
        generator.send({
          kind: 'save',
          site: { info: rebuilt.site.info, problems: rebuilt.problems, files: rebuilt.files },
          heldBack: rebuilt.site.pages.map(heldBack),
          snapshotFile: snapshotTarget,
          snapshotKey: key,
          analysis: keptAnalysis(files!.hash),
        });
        // Asked for once the new site serves: the worker is retired then.
        return savedBy(generator).finally(() => generator.retire());
      };
    }
    const received = performance.now();
    const ask = createAskService(rebuilt.site, config.publicBaseUrl, { ...serviceOptions, index, copies });
    const done = performance.now();
    let logged: Promise<void> | null = null;
    return {
      generation: { site: rebuilt.site, ask },
      problems: rebuilt.problems,
      contentHash: files.hash,
      source: 'built',
      snapshotRejected: stored.detail,
      filesParsed: changed.length,
      filesRead: files.files.length,
      ...(passagesAnalysed !== undefined ? { passagesAnalysed } : {}),
      build,
      timings: {
        readMs,
        buildMs: received - started - readMs,
        indexMs: done - received,
        totalMs: done - started,
      },
      saveSnapshot: () =>
        (logged ??= (
          saveInWorker ? saveInWorker() : saveHere(snapshotTarget, key, snapshotOf(rebuilt, ask))
        ).then(afterSave(rebuilt.files))),
    };
  }

  if (useWorker) {
    const generator = takeWorker();
    generator.send({
      kind: 'site',
      content: { ...toWire(files), files: files.files },
      snapshotFile: snapshotTarget,
      snapshotKey: key,
      analysis: snapshotTarget === null ? null : keptAnalysis(files.hash),
    });
    // The site arrives (and is copied in here) while the worker still indexes it.
    const { site: parsed } = await generator.next('parsed');
    const { index, copies } = await generator.next('indexed');
    const snapshot: ContentSnapshot = { ...parsed, index, copies };
    // The worker writes the snapshot after answering.
    let saved: Promise<SaveResult>;
    if (snapshotTarget === null) {
      generator.end();
      saved = Promise.resolve(null);
    } else saved = savedBy(generator);
    const received = performance.now();
    const site: Site = {
      info: snapshot.info,
      pages: snapshot.pages,
      byUrl: new Map(snapshot.pages.map((page) => [page.url, page])),
    };
    const buildFiles = shareStrings(snapshot.files, site);
    const ask = createAskService(site, config.publicBaseUrl, {
      ...serviceOptions,
      index: snapshot.index,
      copies: snapshot.copies,
    });
    const done = performance.now();
    let logged: Promise<void> | null = null;
    return {
      generation: { site, ask },
      problems: snapshot.problems,
      contentHash: files.hash,
      source: 'built',
      snapshotRejected: stored.detail,
      filesParsed: files.files.length,
      filesRead: files.files.length,
      build: { site, files: buildFiles, sourcePaths: files.sourcePaths },
      // The worker parses and indexes; buildMs is all of it, up to the main thread's copy.
      timings: {
        readMs,
        buildMs: received - started - readMs,
        indexMs: done - received,
        totalMs: done - started,
      },
      // Called once the site serves (after listening): the worker is retired then, not before.
      saveSnapshot: () => (logged ??= saved.then(afterSave(buildFiles)).finally(() => generator.retire())),
    };
  }

  const built = await buildSite(files);
  const parsed = performance.now();
  const ask = createAskService(built.site, config.publicBaseUrl, serviceOptions);
  const done = performance.now();
  let saved: Promise<void> | null = null;
  return {
    generation: { site: built.site, ask },
    problems: built.problems,
    contentHash: files.hash,
    source: 'built',
    snapshotRejected: stored.detail,
    filesParsed: files.files.length,
    filesRead: files.files.length,
    build: { site: built.site, files: built.files, sourcePaths: files.sourcePaths },
    timings: { readMs, buildMs: parsed - started - readMs, indexMs: done - parsed, totalMs: done - started },
    saveSnapshot: () =>
      (saved ??= saveHere(snapshotTarget, key, snapshotOf(built, ask)).then(afterSave(built.files))),
  };
}

/** The unread files among `files` (see ReadOptions.known). */
const unreadPaths = (files: readonly (SourceFile | UnreadFile)[]): string[] =>
  files.filter((file) => !('text' in file)).map((file) => file.sourcePath);

/** A load's timings in whole milliseconds, for the start-up and reload log lines. */
export const roundTimings = (timings: LoadedContent['timings']): LoadedContent['timings'] => ({
  readMs: Math.round(timings.readMs),
  buildMs: Math.round(timings.buildMs),
  indexMs: Math.round(timings.indexMs),
  totalMs: Math.round(timings.totalMs),
});
