import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import {
  buildSite,
  CONTENT_MODEL_VERSION,
  defaultWorkerCount,
  filesToRebuild,
  MIN_FILES_FOR_WORKERS,
  readContent,
  readUnread,
  rebuildSite,
  stampsOf,
  startModuleWorker,
  toWire,
  type ContentFiles,
  type ContentProblem,
  type ContentSummary,
  type FileBuild,
  type LoadedSite,
  type Page,
  type PreviousBuild,
  type Site,
  type SiteInfo,
  type SourceFile,
  type UnreadFile,
  type WireSummary,
} from '../content/index.js';
import { createAskService, type AskService, type CopyGroups, type StreamRegistry } from '../nlweb/index.js';
import { SEARCH_ENGINE_VERSION, type SearchIndex } from '../search/index.js';
import { readSnapshot, writeSnapshot, type SnapshotKey, type SnapshotRead } from '../snapshot/index.js';
import { readKnownStamps, saveKnownStamps } from './content-stamps.js';
import { collectGarbage } from './garbage.js';
import { readBesideSnapshot } from './start-up-read.js';

/** A site and the ask service built from it: what a content reload replaces, as one. */
export interface ContentGeneration {
  readonly site: Site;
  readonly ask: AskService;
}

/**
 * The content being served, replaced as a whole by a reload. A new generation is built beside the
 * one serving (pages, index, then whatever the routes derive from it: discovery documents, render
 * caches) and swapped in by one assignment, so a request sees the old site or the new one, never
 * a mix. Nothing keeps a reference to an old generation once its requests end: its memory is freed.
 */
export class LiveContent {
  #current: ContentGeneration;
  #generation = 1;
  readonly #preparers: ((next: ContentGeneration) => void)[] = [];
  /** Set while the serving site's snippet texts are analysed in the background (see analyseInBackground). */
  #analysisSettings: AnalysisSettings | null = null;
  #analysis: NodeJS.Immediate | null = null;
  #analysisStart: NodeJS.Timeout | null = null;

  constructor(initial: ContentGeneration) {
    this.#current = initial;
  }

  get current(): ContentGeneration {
    return this.#current;
  }

  /** 1 for the content loaded at start-up, then one more for each swap. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Work done on every new generation before it is served (building documents derived from the
   * site), so the first requests after a swap are as fast as the ones before, and an error while
   * deriving them leaves the old generation serving.
   */
  onPrepare(prepare: (next: ContentGeneration) => void): void {
    this.#preparers.push(prepare);
  }

  /** Prepares `next`, then serves it. Throws (still serving the current one) when preparing fails. */
  swap(next: ContentGeneration): void {
    for (const prepare of this.#preparers) prepare(next);
    this.#current = next;
    this.#generation += 1;
    if (this.#analysisSettings !== null) this.#analyseServing(this.#analysisSettings);
  }

  /**
   * From now on, analyses the snippet texts of the site serving (and of each site swapped in
   * later) in the background, ANALYSIS_SLICE_MS per turn of the event loop, until every passage's
   * is done: otherwise each new question pays for the passages it is first to quote, and a fresh
   * server's first thousands of new questions cost ~1.3–1.5 times what they cost later (docs
   * corpus). Requests keep being served between slices. An error stops it (answers then analyse
   * their passages as before) and goes to `onError`.
   */
  analyseInBackground(onError: (error: unknown) => void, delayMs = ANALYSIS_DELAY_MS): void {
    this.#analysisSettings = { onError, delayMs };
    this.#analyseServing(this.#analysisSettings);
  }

  /** Stops the background analysis (on shutdown). */
  stopAnalysis(): void {
    this.#analysisSettings = null;
    this.#cancelAnalysis();
  }

  #cancelAnalysis(): void {
    if (this.#analysisStart !== null) clearTimeout(this.#analysisStart);
    if (this.#analysis !== null) clearImmediate(this.#analysis);
    this.#analysisStart = null;
    this.#analysis = null;
  }

  #analyseServing({ onError, delayMs }: AnalysisSettings): void {
    // The old site's analysis stops here: nothing scheduled keeps a swapped-out site in memory.
    this.#cancelAnalysis();
    const { ask } = this.#current;
    const step = (): void => {
      this.#analysis = null;
      let done: boolean;
      try {
        done = ask.analyseSnippetTexts(ANALYSIS_SLICE_MS);
      } catch (error) {
        onError(error);
        return;
      }
      // Referenced: an unreferenced immediate runs only when something else wakes the event loop,
      // so on an idle server the analysis stalled, then ran a slice on each turn of the next reload
      // (+0.35 s on the docs corpus). stopAnalysis (server close) clears it.
      if (!done) this.#analysis = setImmediate(step);
    };
    this.#analysisStart = setTimeout(() => {
      this.#analysisStart = null;
      step();
    }, delayMs).unref();
  }
}

/** What LiveContent.analyseInBackground was given. */
interface AnalysisSettings {
  onError: (error: unknown) => void;
  delayMs: number;
}

/**
 * How long the background analysis waits after start-up or a swap: the first requests, and a
 * reload's own work (snapshot, garbage collection), come first. Started at once, it delayed a
 * warm start's first answer by ~70 ms (the docs corpus), most likely by the garbage collection of
 * what it had allocated by then.
 */
export const ANALYSIS_DELAY_MS = 1000;

/** Background analysis of snippet texts per turn of the event loop: the most a request waits for it. */
export const ANALYSIS_SLICE_MS = 4;

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

/**
 * A snapshot whose payload is not a ContentSnapshot is corrupt, however valid its header and CRC
 * (`null`, `{}`, `pages: null` aborted the start with a TypeError): it is discarded and the site
 * built again. The fields' own contents are the engine's, versioned by the key.
 */
function payloadChecked(stored: SnapshotRead<ContentSnapshot>): SnapshotRead<ContentSnapshot> {
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

/** The unread files among `files` (see ReadOptions.known). */
const unreadPaths = (files: readonly (SourceFile | UnreadFile)[]): string[] =>
  files.filter((file) => !('text' in file)).map((file) => file.sourcePath);

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
function shareStrings(files: FileBuild[], site: Site): FileBuild[] {
  for (const file of files) {
    const page = file.pageUrl === null ? undefined : site.byUrl.get(file.pageUrl);
    if (page !== undefined && page.sourcePath === file.sourcePath) {
      file.sourcePath = page.sourcePath;
      file.pageUrl = page.url;
    }
  }
  return files;
}

function withStamps(files: FileBuild[], stamps: ReadonlyMap<string, string>): FileBuild[] {
  for (const file of files) {
    const stamp = stamps.get(file.sourcePath);
    if (stamp === undefined) delete file.stamp;
    else file.stamp = stamp;
  }
  return files;
}

/** Writes the snapshot from this thread; never throws (the server works without one). */
async function saveHere(
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
type SaveResult = { bytes: number } | { message: string } | null;

/**
 * The page fields an 'index' job goes without: nothing the index or the groups of copies read
 * (the reload test compares a reload's index with a full build's), and most of a page's bytes.
 */
type HeldBack = Pick<Page, 'markdown' | 'frontMatter'>;
const withoutHeldBack = (page: Page): Page => ({ ...page, markdown: '', frontMatter: {} });
const heldBack = (page: Page): HeldBack => ({ markdown: page.markdown, frontMatter: page.frontMatter });

/**
 * What the generation worker is given: the content to build a whole site from (it then writes the
 * snapshot), or a reload's pages (most of them reused) to index, then the rest of that site for
 * the snapshot ('save', sent once the new site serves).
 */
export type GenerationJob =
  | {
      kind: 'site';
      /** The folder as read, in the form that crosses threads (see read-wire.ts). */
      content: WireSummary & Pick<ContentFiles, 'files'>;
      /** Where the worker writes the snapshot after answering; null for none. */
      snapshotFile: string | null;
      snapshotKey: SnapshotKey;
      /** Where it then writes the passages' analysis (ANALYSIS_FILE); null for none. */
      analysis: KeptAnalysis | null;
    }
  | {
      kind: 'index';
      pages: Page[];
      /** For each page, whether it is the serving build's own (its file unchanged). */
      reused: boolean[];
    }
  | {
      kind: 'save';
      site: Omit<ContentSnapshot, 'pages' | 'index' | 'copies'>;
      /** The held-back fields of the 'index' job's pages, in the same order. */
      heldBack: HeldBack[];
      snapshotFile: string;
      snapshotKey: SnapshotKey;
      analysis: KeptAnalysis | null;
    }
  /** The work is done: hand the heap back, then say so ('released'), to be ended. */
  | { kind: 'release' };

/** Where the passages' analysis of a build is kept, and its key (contentAnalysisKey). */
export interface KeptAnalysis {
  file: string;
  key: SnapshotKey;
}

/**
 * What it answers: for a 'site' job, the site ('parsed') then its index and copies ('indexed');
 * for an 'index' job, only the index and copies (the pages are the caller's own); then whether
 * the snapshot was written.
 */
export type GenerationMessage =
  | { kind: 'parsed'; site: SiteSnapshot }
  | {
      kind: 'indexed';
      index: SearchIndex;
      copies: CopyGroups;
      /** How many passages were analysed (the others' analysis was kept from the serving build). */
      passagesAnalysed: number;
    }
  | { kind: 'saved'; bytes: number }
  | { kind: 'not-saved'; message: string }
  | { kind: 'released' }
  | { kind: 'failed'; message: string };

export interface GenerationWorkerData {
  /** Words to stem while waiting for a job: likely the ones the job will index. */
  warmUpWords: readonly string[];
  /** Parse workers to start while waiting for a job (a 'site' job will use them). */
  parseWorkers: number;
  /** The analysis kept with the serving build, read while waiting for an 'index' job. */
  previousAnalysis: KeptAnalysis | null;
}

type GenerationAnswer<K extends GenerationMessage['kind']> = Extract<
  GenerationMessage,
  { kind: K | (K extends 'saved' ? 'not-saved' : never) }
>;

/**
 * A thread running generation-worker.ts, which waits for its jobs: a reload starts one while it
 * reads the folder, so the thread, its isolate and its modules are ready when the pages are.
 * Ended by its owner once done (or by a failure).
 */
export class GenerationWorker {
  readonly #worker: Worker;
  readonly #inbox: GenerationMessage[] = [];
  #waiter: { resolve: (message: GenerationMessage) => void; reject: (error: Error) => void } | null = null;
  #gone: Error | null = null;

  /** What the worker does while it waits for its job (see GenerationWorkerData). */
  constructor(ahead: Partial<GenerationWorkerData> = {}) {
    const data: GenerationWorkerData = {
      warmUpWords: ahead.warmUpWords ?? [],
      parseWorkers: ahead.parseWorkers ?? 0,
      previousAnalysis: ahead.previousAnalysis ?? null,
    };
    this.#worker = startModuleWorker('http/generation-worker', data);
    this.#worker.on('message', (message: GenerationMessage) => {
      const waiter = this.#waiter;
      this.#waiter = null;
      if (waiter) waiter.resolve(message);
      else this.#inbox.push(message);
    });
    this.#worker.once('error', (error) => this.#stop(error));
    this.#worker.once('exit', (code) =>
      this.#stop(new Error(`the site-building worker exited with code ${code} before answering`)),
    );
  }

  send(job: GenerationJob): void {
    this.#worker.postMessage(job);
  }

  /**
   * The worker's next answer, which must be of `kind` ('saved' stands for 'not-saved' too). A
   * failure, a wrong answer or the worker's end rejects, and ends the worker.
   */
  async next<K extends 'parsed' | 'indexed' | 'saved' | 'released'>(kind: K): Promise<GenerationAnswer<K>> {
    const message =
      this.#inbox.shift() ??
      (await new Promise<GenerationMessage>((resolve, reject) => {
        if (this.#gone) reject(this.#gone);
        else this.#waiter = { resolve, reject };
      }).catch((error: Error) => {
        this.end();
        throw error;
      }));
    if (message.kind === kind || (kind === 'saved' && message.kind === 'not-saved'))
      return message as GenerationAnswer<K>;
    this.end();
    throw new Error(
      message.kind === 'failed'
        ? `building the site failed: ${message.message}`
        : `the site-building worker answered '${message.kind}' instead of '${kind}'`,
    );
  }

  end(): void {
    this.#stop(new Error('the site-building worker was ended'));
    void this.#worker.terminate();
  }

  /**
   * Ends the worker once it has handed its heap back (see releaseHeapBeforeExit): asked for when
   * its work is done and the site it built serves, so that the collection does not compete with
   * the start-up or the swap (on Node 24 it did, by 0.2–0.5 s of the cold start). Meanwhile the
   * worker does not keep the process alive.
   */
  async retire(): Promise<void> {
    if (this.#gone) return;
    this.#worker.unref();
    this.send({ kind: 'release' });
    await this.next('released').catch(() => undefined);
    this.end();
  }

  #stop(error: Error): void {
    this.#gone ??= error;
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.reject(error);
  }
}

/**
 * Whether `generator` wrote the snapshot it was asked to write. Never rejects. The caller retires
 * the worker once the site it built serves.
 */
function savedBy(generator: GenerationWorker): Promise<SaveResult> {
  return generator.next('saved').then(
    (message) => (message.kind === 'saved' ? { bytes: message.bytes } : { message: message.message }),
    (error: Error) => ({ message: error.message }),
  );
}

/** Logs each content problem with its file and line. */
export function logContentProblems(logger: Logger, problems: readonly ContentProblem[]): void {
  for (const problem of problems) {
    const log = problem.severity === 'error' ? logger.error.bind(logger) : logger.warn.bind(logger);
    log({ file: problem.file, line: problem.line }, `content: ${problem.message}`);
  }
}

export type ReloadOutcome =
  | { status: 'swapped'; generation: number; pages: number; ms: number }
  | { status: 'unchanged' }
  | { status: 'refused'; errors: ContentProblem[] }
  | { status: 'failed'; error: Error };

/**
 * Reloads the content on request (a watched change, SIGHUP), one reload at a time: a request that
 * arrives during a reload is served by one more reload after it, which sees every change so far.
 * A reload whose content has errors is refused: the site serving stays, and the errors are logged
 * with file and line.
 */
export class ContentReloader {
  #contentHash: string;
  /** The build serving now: a reload reuses its pages for the files that did not change. */
  #previous: PreviousBuild | undefined;
  /** The last reload asked for (settled or not). */
  #tail: Promise<unknown> = Promise.resolve();
  /** A reload asked for that has not started reading yet: a new request joins it. */
  #queued: Promise<ReloadOutcome> | null = null;
  /**
   * The serving generation's snapshot save: while it runs it holds that generation (the start-up's
   * may still be writing, fsync and all, when the first reload swaps).
   */
  #servingSaved: Promise<void>;
  #closed = false;

  constructor(
    private readonly config: ContentConfig,
    private readonly logger: Logger,
    private readonly content: LiveContent,
    contentHash: string,
    previous?: PreviousBuild,
    servingSaved: Promise<void> = Promise.resolve(),
  ) {
    this.#contentHash = contentHash;
    this.#previous = previous;
    this.#servingSaved = servingSaved;
  }

  /** Asks for a reload; resolves with the outcome of the reload that covers this request. */
  reload(reason: string): Promise<ReloadOutcome> {
    if (this.#queued) return this.#queued;
    const run = this.#tail.then(() => {
      this.#queued = null;
      return this.#reloadOnce(reason);
    });
    this.#queued = run;
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Stops accepting reloads; resolves when the one running (if any) has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#tail;
  }

  async #reloadOnce(reason: string): Promise<ReloadOutcome> {
    if (this.#closed) return { status: 'unchanged' };
    const started = performance.now();
    // A large site is indexed in a worker: started now, it gets ready while the folder is read,
    // warming up on the words of the site serving (a page changed, most words stay).
    const worker =
      (this.#previous?.files.length ?? 0) >= MIN_FILES_FOR_WORKERS
        ? new GenerationWorker({
            warmUpWords: this.content.current.ask.index.core.vocabulary.words,
            previousAnalysis: {
              file: join(this.config.dataDir, ANALYSIS_FILE),
              key: contentAnalysisKey(this.#contentHash),
            },
          })
        : undefined;
    let loaded: LoadedContent | null;
    try {
      loaded = await loadContent(this.config, this.logger, {
        streams: this.content.current.ask.streams,
        unlessHash: this.#contentHash,
        offThread: true,
        ...(this.#previous ? { previous: this.#previous } : {}),
        ...(worker ? { worker } : {}),
      });
    } catch (error) {
      this.logger.error({ err: error, reason }, 'content reload failed; the current site is still served');
      return { status: 'failed', error: error as Error };
    }
    if (loaded === null) {
      this.logger.debug({ reason }, 'content reload: nothing changed');
      return { status: 'unchanged' };
    }
    const errors = loaded.problems.filter((problem) => problem.severity === 'error');
    if (errors.length > 0) {
      logContentProblems(this.logger, errors);
      this.logger.error(
        { reason, errors: errors.length, generation: this.content.generation },
        `content reload refused: ${errors.length} content error(s), listed above with file and line; the current site is still served`,
      );
      // Its snapshot still saves the next start the build (and ends the worker).
      await loaded.saveSnapshot();
      return { status: 'refused', errors };
    }
    try {
      this.content.swap(loaded.generation);
    } catch (error) {
      this.logger.error({ err: error, reason }, 'content reload failed; the current site is still served');
      await loaded.saveSnapshot();
      return { status: 'failed', error: error as Error };
    }
    this.#contentHash = loaded.contentHash;
    this.#previous = loaded.build;
    logContentProblems(this.logger, loaded.problems);
    const ms = Math.round(performance.now() - started);
    this.logger.info(
      {
        reason,
        generation: this.content.generation,
        pages: loaded.generation.site.pages.length,
        ms,
        source: loaded.source,
        filesParsed: loaded.filesParsed,
        filesRead: loaded.filesRead,
        passagesAnalysed: loaded.passagesAnalysed,
        // Where the time went (as in the start-up line): reading and hashing the folder, parsing and
        // indexing, and the ask service over the new index; the rest of `ms` is swapping in.
        timings: roundTimings(loaded.timings),
      },
      'content reloaded',
    );
    await loaded.saveSnapshot();
    // The old generation (its index, pages, caches; ~25 MB on the docs corpus) is garbage now that
    // its requests and its own snapshot save have ended. V8 would keep it until the heap next
    // reaches its limit, which under steady traffic is not soon: collected now, memory returns to
    // where it was before the reload.
    await this.#servingSaved;
    this.#servingSaved = loaded.saveSnapshot();
    collectGarbage();
    return {
      status: 'swapped',
      generation: this.content.generation,
      pages: loaded.generation.site.pages.length,
      ms,
    };
  }
}

/** A load's timings in whole milliseconds, for the start-up and reload log lines. */
export const roundTimings = (timings: LoadedContent['timings']): LoadedContent['timings'] => ({
  readMs: Math.round(timings.readMs),
  buildMs: Math.round(timings.buildMs),
  indexMs: Math.round(timings.indexMs),
  totalMs: Math.round(timings.totalMs),
});
