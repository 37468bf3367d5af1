/**
 * The crawler of CONTENT_URL: robots.txt, the sitemaps, each page's conditional request and its
 * file in the mirror, and the schedule of crawls and retries. One class of more than 500 lines on
 * purpose: every step reads and writes the same manifest, pacing and failure state, and split
 * into files the steps would pass all of it to each other. Fetching (fetch.ts), the mirror's
 * layout (mirror.ts) and sitemap parsing (sitemap.ts) are its own files.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import robotsModule from 'robots-parser';
import type { CrawlConfig } from '../config/index.js';
import { fetchBounded, Pacer, type FetchLimits, type FetchRequest, type FetchResult } from './fetch.js';
import {
  emptyManifest,
  mirrorPath,
  readManifest,
  removeMirrored,
  sha256,
  withCanonical,
  writeAtomically,
  writeManifest,
  type Manifest,
  type PageRecord,
} from './mirror.js';
import { MAX_SITEMAP_BYTES, parseSitemap } from './sitemap.js';

/**
 * robots-parser is CommonJS (`module.exports = robotsParser`) but its types declare an ES default
 * export: imported from an ES module, the function is the module itself.
 */
const robotsParser = robotsModule as unknown as (typeof robotsModule)['default'];
type Robots = ReturnType<typeof robotsParser>;

/** The product token robots.txt groups name to address this crawler (`User-agent: FrontdoorBot`). */
export const ROBOTS_TOKEN = 'FrontdoorBot';

/** RFC 9309: a crawler reads at least 500 KiB of robots.txt; what follows is ignored. */
const MAX_ROBOTS_BYTES = 512_000;
/** Sitemaps read in one crawl (an index and the sitemaps it lists), and how deep indexes nest. */
const MAX_SITEMAPS = 100;
const MAX_SITEMAP_DEPTH = 3;
/** The most a robots.txt Crawl-delay raises the spacing of requests to. */
const MAX_CRAWL_DELAY_MS = 60_000;

export interface CrawlOutcome {
  status: 'crawled' | 'failed';
  /** Why the crawl as a whole failed (robots.txt or the sitemap unreadable); the mirror is untouched. */
  error?: string;
  /** Whether a page file was written or removed: the content folder changed. */
  changed: boolean;
  /** Pages fetched whole (200), answered 304, removed, failed (their last good copy kept). */
  fetched: number;
  notModified: number;
  removed: number;
  failed: number;
  /** Pages in the mirror after the crawl. */
  pages: number;
}

export interface CrawlerOptions {
  config: CrawlConfig;
  logger: Logger;
  /** Called after a crawl that changed the mirror (the server reloads the content then). */
  onChange?: (reason: string) => Promise<unknown>;
}

/** Why a page left the mirror (or was never put there): said once per crawl in the log. */
type Skip =
  'another origin' | 'disallowed by robots.txt' | 'no file can stand for its URL' | 'beyond CRAWL_MAX_PAGES';

/**
 * Keeps a mirror of the site a sitemap lists (see mirror.ts) up to date: a crawl at start, then
 * every `intervalMs` and on request (SIGHUP); the pages that failed, and a crawl that failed, are
 * tried again after `retryMs`. One crawl at a time: a request during a crawl is served by one more
 * crawl after it.
 */
export class Crawler {
  readonly #config: CrawlConfig;
  readonly #logger: Logger;
  #onChange: CrawlerOptions['onChange'];
  readonly #origin: string;
  readonly #limits: FetchLimits;
  #manifest: Manifest;
  readonly #hadMirror: boolean;
  #tail: Promise<unknown> = Promise.resolve();
  #queued: Promise<CrawlOutcome> | null = null;
  #crawls = 0;
  #crawledWell = false;
  /**
   * Set by every write or removal in the mirror, cleared when a reload is asked for: a crawl that
   * failed half-way (a full disk) still has the files it changed reloaded by the next one.
   */
  #mirrorChanged = false;
  #firstError: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  #retryTimer: NodeJS.Timeout | null = null;
  readonly #closing = new AbortController();
  /** What the last crawl read: a retry of its failed pages needs no robots.txt or sitemap again. */
  #robots: Robots | null = null;

  constructor(options: CrawlerOptions) {
    this.#config = options.config;
    this.#logger = options.logger;
    this.#onChange = options.onChange;
    this.#origin = new URL(this.#config.sitemapUrl).origin;
    this.#limits = {
      userAgent: this.#config.userAgent,
      timeoutMs: this.#config.timeoutMs,
      maxRedirects: this.#config.maxRedirects,
    };
    mkdirSync(this.#config.siteDir, { recursive: true });
    const kept = readManifest(this.#config.manifestFile, this.#config.sitemapUrl);
    this.#hadMirror = kept !== null;
    this.#manifest = kept ?? emptyManifest(this.#config.sitemapUrl);
    // A copy deleted by hand is fetched whole again, not asked for conditionally.
    for (const record of Object.values(this.#manifest.pages))
      if (record.file !== null && !existsSync(join(this.#config.siteDir, record.file))) forget(record);
  }

  /** Sets what is called after a crawl that changed the mirror (see CrawlerOptions.onChange). */
  onChange(listener: NonNullable<CrawlerOptions['onChange']>): void {
    this.#onChange = listener;
  }

  /** Whether the mirror holds a previous run's crawl (served until the first crawl ends). */
  get hasMirror(): boolean {
    return this.#hadMirror;
  }

  /**
   * Why the content is not there yet, for readiness: null once a crawl has ended well, or from the
   * start when a previous run's mirror is served.
   */
  waiting(): string | null {
    if (this.#hadMirror || this.#crawledWell) return null;
    return this.#firstError === null
      ? 'search index: the first crawl of CONTENT_URL has not finished (see the crawl log lines)'
      : `search index: no crawl of CONTENT_URL has succeeded yet (${this.#firstError}); it is tried again every CRAWL_RETRY_MS`;
  }

  /** Crawls ended so far (failed ones included). */
  get crawls(): number {
    return this.#crawls;
  }

  /** The manifest as the last crawl left it (a copy). */
  manifest(): Manifest {
    return structuredClone(this.#manifest);
  }

  /** Crawls now, then every `intervalMs` (0: never again by itself). */
  start(): Promise<CrawlOutcome> {
    return this.crawl('start-up');
  }

  /** Asks for a crawl; resolves with the outcome of the crawl that covers this request. */
  crawl(reason: string): Promise<CrawlOutcome> {
    return this.#enqueue(() => this.#crawlOnce(reason));
  }

  /** Stops the timers and the crawl running (its requests are aborted); resolves when it has ended. */
  async close(): Promise<void> {
    this.#closing.abort();
    this.#clearTimers();
    await this.#tail;
  }

  #enqueue(work: () => Promise<CrawlOutcome>): Promise<CrawlOutcome> {
    if (this.#queued) return this.#queued;
    const run = this.#tail.then(() => {
      this.#queued = null;
      return work();
    });
    this.#queued = run;
    this.#tail = run.catch(() => undefined);
    return run;
  }

  #clearTimers(): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#timer = this.#retryTimer = null;
  }

  /**
   * After a crawl (`full`) the next one is `intervalMs` away; after any pass, pages still failing
   * are tried again after `retryMs`, doubled for each failure in a row (at most 2^10 times), so a
   * page that keeps failing costs ever fewer requests.
   */
  #schedule(outcome: CrawlOutcome, backOffMs: number, full: boolean): void {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    if (this.#closing.signal.aborted) return;
    if (full) {
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = null;
      if (this.#config.intervalMs > 0)
        this.#timer = setTimeout(() => void this.crawl('schedule'), this.#config.intervalMs).unref();
    }
    const failures = Object.values(this.#manifest.pages)
      .map((record) => record.failures)
      .filter((count) => count > 0);
    if (outcome.status !== 'failed' && failures.length === 0) return;
    const fewest = outcome.status === 'failed' ? 1 : Math.min(...failures);
    const delay = Math.max(this.#config.retryMs * 2 ** Math.min(fewest - 1, 10), backOffMs);
    if (this.#config.intervalMs > 0 && delay >= this.#config.intervalMs) return;
    this.#retryTimer = setTimeout(
      () =>
        void (outcome.status === 'failed' ? this.crawl('retry') : this.#enqueue(() => this.#retryFailed())),
      delay,
    ).unref();
  }

  async #crawlOnce(reason: string): Promise<CrawlOutcome> {
    const started = performance.now();
    const pacer = new Pacer(this.#config.delayMs, this.#closing.signal);
    let outcome: CrawlOutcome;
    let backOffMs = 0;
    try {
      const robots = await this.#readRobots(pacer);
      const crawlDelayMs = (robots.getCrawlDelay(ROBOTS_TOKEN) ?? 0) * 1000;
      if (crawlDelayMs > 0) pacer.atLeast(Math.min(crawlDelayMs, MAX_CRAWL_DELAY_MS));
      this.#robots = robots;
      const { urls, skipped } = await this.#readSitemaps(pacer, robots);
      const { backOffMs: askedMs, ...result } = await this.#fetchPages(urls, pacer);
      backOffMs = askedMs;
      const listed = new Set(urls);
      let removed = result.removed;
      for (const [url, record] of Object.entries(this.#manifest.pages)) {
        if (listed.has(url)) continue;
        if (record.file !== null) await this.#unlink(record.file);
        if (record.file !== null) removed += 1;
        delete this.#manifest.pages[url];
      }
      for (const [why, count] of skipped)
        this.#logger.warn(
          { pages: count, reason: why },
          `crawl: ${count} sitemap URL(s) not crawled: ${why}`,
        );
      outcome = {
        ...result,
        removed,
        changed: result.changed || removed > result.removed,
        status: 'crawled',
      };
    } catch (error) {
      if (this.#closing.signal.aborted) return this.#closedOutcome();
      outcome = { ...this.#noPages(), status: 'failed', error: (error as Error).message };
    }
    return this.#finish(reason, outcome, started, backOffMs, true);
  }

  /** Fetches again only the pages that failed last time, with the robots.txt and sitemap already read. */
  async #retryFailed(): Promise<CrawlOutcome> {
    const started = performance.now();
    const urls = Object.entries(this.#manifest.pages)
      .filter(([, record]) => record.failures > 0)
      .map(([url]) => url);
    if (urls.length === 0 || this.#robots === null) return this.#noPages();
    const pacer = new Pacer(this.#config.delayMs, this.#closing.signal);
    const crawlDelayMs = (this.#robots.getCrawlDelay(ROBOTS_TOKEN) ?? 0) * 1000;
    if (crawlDelayMs > 0) pacer.atLeast(Math.min(crawlDelayMs, MAX_CRAWL_DELAY_MS));
    let outcome: CrawlOutcome;
    let backOffMs = 0;
    try {
      const { backOffMs: askedMs, ...result } = await this.#fetchPages(urls, pacer);
      backOffMs = askedMs;
      outcome = { ...result, status: 'crawled' };
    } catch (error) {
      if (this.#closing.signal.aborted) return this.#closedOutcome();
      outcome = { ...this.#noPages(), status: 'failed', error: (error as Error).message };
    }
    return this.#finish('retry of failed pages', outcome, started, backOffMs, false);
  }

  async #finish(
    reason: string,
    outcome: CrawlOutcome,
    started: number,
    backOffMs: number,
    full: boolean,
  ): Promise<CrawlOutcome> {
    if (outcome.status === 'crawled') this.#crawledWell = true;
    else this.#firstError = outcome.error ?? 'failed';
    if (outcome.status === 'crawled') this.#manifest.crawledAt = new Date().toISOString();
    try {
      await writeManifest(this.#config.manifestFile, this.#manifest);
    } catch (error) {
      this.#logger.error(
        { err: error },
        'crawl: the manifest could not be written; the next start fetches every page again',
      );
    }
    let reload: string | undefined;
    if (this.#mirrorChanged && this.#onChange) {
      this.#mirrorChanged = false;
      const result = (await this.#onChange(`crawl of CONTENT_URL (${reason})`).catch((error: Error) => ({
        status: `failed: ${error.message}`,
      }))) as { status?: string } | undefined;
      reload = result?.status;
    }
    const ms = Math.round(performance.now() - started);
    const { status, error, ...counts } = outcome;
    const fields = {
      reason,
      ...counts,
      ms,
      ...(reload ? { reload } : {}),
      sitemap: shown(this.#config.sitemapUrl),
    };
    if (status === 'failed')
      this.#logger.error(
        { ...fields, error },
        `crawl failed: ${error}; the mirror is kept as it was and the crawl is tried again in ${this.#config.retryMs} ms`,
      );
    else
      this.#logger.info(
        fields,
        outcome.changed ? 'crawl finished: the site changed' : 'crawl finished: nothing changed',
      );
    this.#schedule(outcome, backOffMs, full);
    // Last: a crawl counts once its files, manifest, reload and log line are done.
    this.#crawls += 1;
    return outcome;
  }

  #noPages(): CrawlOutcome {
    return {
      status: 'crawled',
      changed: false,
      fetched: 0,
      notModified: 0,
      removed: 0,
      failed: 0,
      pages: this.#mirrored(),
    };
  }

  #closedOutcome(): CrawlOutcome {
    return { ...this.#noPages(), status: 'failed', error: 'the crawler was closed' };
  }

  #mirrored(): number {
    return Object.values(this.#manifest.pages).filter((record) => record.file !== null).length;
  }

  /**
   * robots.txt as RFC 9309 says: 2xx its rules, 4xx none (all allowed), 5xx or no answer all
   * disallowed, unless a copy from an earlier crawl is kept (then that copy's rules hold).
   */
  async #readRobots(pacer: Pacer): Promise<Robots> {
    const url = `${this.#origin}/robots.txt`;
    const kept = this.#manifest.robots;
    const result = await fetchBounded(
      {
        url,
        etag: kept?.etag ?? null,
        lastModified: kept?.lastModified ?? null,
        maxBytes: MAX_ROBOTS_BYTES * 4,
        accept: 'text/plain',
        contentTypes: [],
      },
      this.#origin,
      this.#limits,
      pacer,
    );
    let text: string;
    if (result.kind === 'ok') {
      text = result.body.subarray(0, MAX_ROBOTS_BYTES).toString('utf8');
      this.#manifest.robots = { etag: result.etag, lastModified: result.lastModified, body: text };
    } else if (result.kind === 'not-modified' && typeof kept?.body === 'string') {
      text = kept.body;
    } else if (
      result.kind === 'gone' ||
      result.kind === 'refused' ||
      (result.kind === 'failed' && isClientError(result.status))
    ) {
      text = '';
      this.#manifest.robots = null;
    } else if (typeof kept?.body === 'string') {
      this.#logger.warn(
        { reason: describe(result) },
        'crawl: robots.txt unreachable; its last copy still applies',
      );
      text = kept.body;
    } else {
      throw new Error(`robots.txt unreachable (${describe(result)}), so nothing may be crawled (RFC 9309)`);
    }
    return robotsParser(url, text);
  }

  /** The page URLs the sitemaps list, of this origin, allowed, mirrorable, at most maxPages. */
  async #readSitemaps(pacer: Pacer, robots: Robots): Promise<{ urls: string[]; skipped: Map<Skip, number> }> {
    const urls: string[] = [];
    const seenPages = new Set<string>();
    const skipped = new Map<Skip, number>();
    const skip = (why: Skip) => skipped.set(why, (skipped.get(why) ?? 0) + 1);
    const read = new Set<string>();
    const sitemaps: Manifest['sitemaps'] = {};
    const visit = async (sitemapUrl: string, depth: number): Promise<void> => {
      if (read.has(sitemapUrl)) return;
      if (read.size >= MAX_SITEMAPS) {
        this.#logger.warn(
          { sitemap: shown(sitemapUrl) },
          `crawl: more than ${MAX_SITEMAPS} sitemaps; the rest are not read`,
        );
        return;
      }
      read.add(sitemapUrl);
      const sitemap = await this.#readSitemap(sitemapUrl, pacer, depth === 0);
      if (sitemap === null) return;
      sitemaps[sitemapUrl] = sitemap;
      for (const loc of sitemap.body as string[]) {
        let url: URL;
        try {
          url = new URL(loc);
        } catch {
          continue;
        }
        url.hash = '';
        if (url.origin !== this.#origin) {
          skip('another origin');
          continue;
        }
        if (sitemap.kind === 'sitemapindex') {
          if (depth + 1 < MAX_SITEMAP_DEPTH) await visit(url.href, depth + 1);
          else
            this.#logger.warn(
              { sitemap: shown(url.href) },
              'crawl: sitemap indexes nested too deep; not read',
            );
          continue;
        }
        if (seenPages.has(url.href)) continue;
        seenPages.add(url.href);
        if (robots.isAllowed(url.href, ROBOTS_TOKEN) === false) skip('disallowed by robots.txt');
        else if (mirrorPath(url) === null) skip('no file can stand for its URL');
        else if (urls.length >= this.#config.maxPages) skip('beyond CRAWL_MAX_PAGES');
        else urls.push(url.href);
      }
    };
    await visit(this.#config.sitemapUrl, 0);
    this.#manifest.sitemaps = sitemaps;
    if (urls.length === 0)
      throw new Error(
        'the sitemap lists no page that may be crawled (of its origin, allowed by robots.txt); the mirror is kept as it was',
      );
    return { urls, skipped };
  }

  /**
   * One sitemap, asked for conditionally (its locs kept in the manifest). The first (CONTENT_URL)
   * must be read; one listed by an index that fails keeps its last copy, or is left out.
   */
  async #readSitemap(
    url: string,
    pacer: Pacer,
    required: boolean,
  ): Promise<Manifest['sitemaps'][string] | null> {
    const kept = this.#manifest.sitemaps[url];
    const result = await fetchBounded(
      {
        url,
        etag: kept?.etag ?? null,
        lastModified: kept?.lastModified ?? null,
        maxBytes: MAX_SITEMAP_BYTES,
        accept: 'application/xml, text/xml;q=0.9, */*;q=0.1',
        contentTypes: [],
      },
      this.#origin,
      this.#limits,
      pacer,
    );
    if (result.kind === 'not-modified' && kept) return kept;
    if (result.kind === 'ok') {
      try {
        const sitemap = parseSitemap(result.body);
        return {
          kind: sitemap.kind,
          etag: result.etag,
          lastModified: result.lastModified,
          body: sitemap.locs,
        };
      } catch (error) {
        return this.#sitemapFailed(url, (error as Error).message, kept, required);
      }
    }
    return this.#sitemapFailed(url, describe(result), kept, required);
  }

  #sitemapFailed(
    url: string,
    reason: string,
    kept: Manifest['sitemaps'][string] | undefined,
    required: boolean,
  ): Manifest['sitemaps'][string] | null {
    if (required) throw new Error(`the sitemap ${shown(url)} could not be read: ${reason}`);
    this.#logger.warn(
      { sitemap: shown(url), reason },
      kept
        ? 'crawl: a sitemap could not be read; its last copy still applies'
        : 'crawl: a sitemap could not be read',
    );
    return kept ?? null;
  }

  /**
   * Fetches `urls` with `concurrency` workers, paced. A 429 or 503 stops the crawl from starting
   * more requests (the rest keep their copies and are tried again with the failed ones).
   */
  async #fetchPages(
    urls: string[],
    pacer: Pacer,
  ): Promise<Omit<CrawlOutcome, 'status'> & { backOffMs: number }> {
    const counts = { changed: false, fetched: 0, notModified: 0, removed: 0, failed: 0, backOffMs: 0 };
    const claimed = new Map<string, string>();
    // Files of pages not fetched this time stay claimed by them.
    const asked = new Set(urls);
    for (const [url, record] of Object.entries(this.#manifest.pages))
      if (record.file !== null && !asked.has(url)) claimed.set(record.file, url);
    // Each file belongs to the first listed URL it is the place of, whatever answers first: a page
    // that redirects to another listed page, or a second URL for the same file, does not take it.
    for (const url of urls) {
      const file = mirrorPath(new URL(url))?.file;
      if (file !== undefined && !claimed.has(file)) claimed.set(file, url);
    }
    const clashes = folderClashes(urls, claimed);
    let next = 0;
    let stopped = false;
    const work = async () => {
      while (!stopped && next < urls.length) {
        const url = urls[next++]!;
        const clash = clashes.get(url);
        if (clash !== undefined) {
          this.#failed(url, `not written to the mirror: ${clash}`);
          counts.failed += 1;
          continue;
        }
        const outcome = await this.#fetchPage(url, pacer, claimed);
        if (outcome.kind === 'changed') counts.changed = true;
        if (outcome.kind === 'changed' || outcome.kind === 'same') counts.fetched += 1;
        if (outcome.kind === 'not-modified') counts.notModified += 1;
        if (outcome.kind === 'removed') {
          counts.removed += 1;
          counts.changed = true;
        }
        if (outcome.kind === 'failed') {
          counts.failed += 1;
          if (outcome.backOffMs !== undefined) {
            stopped = true;
            counts.backOffMs = Math.max(counts.backOffMs, outcome.backOffMs);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#config.concurrency, urls.length) }, work));
    if (stopped) {
      // Not asked for this time: tried again with the failed ones.
      for (const url of urls.slice(next)) this.#failed(url, 'not asked: the server asked to slow down');
      counts.failed += urls.length - next;
      this.#logger.warn(
        { notAsked: urls.length - next },
        'crawl: the server answered 429 or 503; the rest of the pages wait for the retry',
      );
    }
    return { ...counts, pages: this.#mirrored() };
  }

  async #fetchPage(
    url: string,
    pacer: Pacer,
    claimed: Map<string, string>,
  ): Promise<
    { kind: 'changed' | 'same' | 'not-modified' | 'removed' } | { kind: 'failed'; backOffMs?: number }
  > {
    const record = this.#manifest.pages[url];
    const request: FetchRequest = {
      url,
      etag: record?.etag ?? null,
      lastModified: record?.lastModified ?? null,
      maxBytes: this.#config.maxPageBytes,
      accept: 'text/html',
      contentTypes: ['text/html'],
    };
    const result: FetchResult = await fetchBounded(request, this.#origin, this.#limits, pacer);
    switch (result.kind) {
      case 'not-modified':
        if (record?.file) {
          record.lastGoodAt = new Date().toISOString();
          record.failures = 0;
          record.lastError = null;
          return { kind: 'not-modified' };
        }
        // A 304 for a page with no copy kept: fetched whole next time.
        this.#failed(url, 'answered 304 with no copy kept');
        return { kind: 'failed' };
      case 'gone':
      case 'refused':
        this.#logger.warn(
          { page: shown(url), reason: describe(result) },
          'crawl: page removed from the mirror',
        );
        return (await this.#remove(url, claimed)) ? { kind: 'removed' } : { kind: 'same' };
      case 'failed':
        this.#failed(url, describe(result));
        return { kind: 'failed', ...(result.backOffMs !== undefined ? { backOffMs: result.backOffMs } : {}) };
      case 'ok':
        try {
          return await this.#keep(url, result, claimed);
        } catch (error) {
          // The file system refused the page's file (a file where a folder must be, say): this
          // page waits for the retry, and the rest of the crawl goes on.
          this.#failed(
            url,
            `not written to the mirror: ${error instanceof Error ? error.message : String(error)}`,
          );
          return { kind: 'failed' };
        }
    }
  }

  async #keep(
    url: string,
    result: Extract<FetchResult, { kind: 'ok' }>,
    claimed: Map<string, string>,
  ): Promise<{ kind: 'changed' | 'same' | 'removed' }> {
    const final = new URL(result.url);
    const place = mirrorPath(final);
    const owner = place && claimed.get(place.file);
    if (place === null || (owner !== undefined && owner !== url)) {
      // A redirect to a URL with a query, or a page whose file another sitemap URL stands for.
      this.#logger.warn(
        { page: shown(url), to: shown(result.url) },
        'crawl: page not mirrored: its URL has no file, or another sitemap URL stands for the same file',
      );
      return (await this.#remove(url, claimed)) ? { kind: 'removed' } : { kind: 'same' };
    }
    claimed.set(place.file, url);
    const bytes = place.canonical ? withCanonical(result.body, final.pathname) : result.body;
    const digest = sha256(bytes);
    const previous = this.#manifest.pages[url];
    const same = previous?.file === place.file && previous.sha256 === digest;
    if (previous?.file && previous.file !== place.file && (claimed.get(previous.file) ?? url) === url)
      await this.#unlink(previous.file);
    if (!same) {
      this.#mirrorChanged = true;
      await writeAtomically(join(this.#config.siteDir, place.file), bytes);
    }
    this.#manifest.pages[url] = {
      file: place.file,
      ...(result.url !== url ? { finalUrl: result.url } : {}),
      etag: result.etag,
      lastModified: result.lastModified,
      sha256: digest,
      lastGoodAt: new Date().toISOString(),
      failures: 0,
      lastError: null,
    };
    return { kind: same ? 'same' : 'changed' };
  }

  /** Removes a file of the mirror (see #mirrorChanged). */
  async #unlink(file: string): Promise<void> {
    this.#mirrorChanged = true;
    await removeMirrored(this.#config.siteDir, file);
  }

  /**
   * Takes a page out of the mirror; whether a file was removed. Its file stays when another entry
   * of this crawl now stands for it (a page that redirects to another listed page).
   */
  async #remove(url: string, claimed: Map<string, string>): Promise<boolean> {
    const record = this.#manifest.pages[url];
    delete this.#manifest.pages[url];
    if (!record?.file) return false;
    const owner = claimed.get(record.file);
    if (owner !== undefined && owner !== url) return false;
    claimed.delete(record.file);
    await this.#unlink(record.file);
    return true;
  }

  #failed(url: string, reason: string): void {
    const record: PageRecord = this.#manifest.pages[url] ?? {
      file: null,
      etag: null,
      lastModified: null,
      sha256: null,
      lastGoodAt: null,
      failures: 0,
      lastError: null,
    };
    record.failures += 1;
    record.lastError = reason;
    this.#manifest.pages[url] = record;
    this.#logger.warn(
      { page: shown(url), reason, failures: record.failures, kept: record.file !== null },
      record.file !== null ? 'crawl: page failed; its last good copy is still served' : 'crawl: page failed',
    );
  }
}

/** A record whose file is gone: its validators no longer stand for a copy. */
function forget(record: PageRecord): void {
  record.file = null;
  record.etag = null;
  record.lastModified = null;
  record.sha256 = null;
}

const isClientError = (status: number | undefined): boolean =>
  status !== undefined && status >= 400 && status < 500 && status !== 429;

function describe(result: FetchResult): string {
  switch (result.kind) {
    case 'ok':
      return 'answered 200';
    case 'not-modified':
      return 'answered 304 with no copy kept';
    case 'gone':
      return `answered ${result.status}`;
    case 'refused':
    case 'failed':
      return result.reason;
  }
}

/** A URL for the log: its query (which may hold a token) left out. */
function shown(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
}

/**
 * The listed URLs whose file cannot be kept because an earlier one (or a page kept from an earlier
 * crawl) needs the same path as the other kind: `/x.html` is the file `x.html`, so `/x.html/`
 * (`x.html/index.html`) cannot be. The first listed wins, whichever answers first, so that the
 * mirror is the same on every crawl; the other is not fetched.
 */
function folderClashes(urls: readonly string[], claimed: ReadonlyMap<string, string>): Map<string, string> {
  const files = new Set<string>();
  const folders = new Set<string>();
  const take = (file: string) => {
    files.add(file);
    const parts = file.split('/');
    for (let end = 1; end < parts.length; end += 1) folders.add(parts.slice(0, end).join('/'));
  };
  const asked = new Set(urls);
  for (const [file, url] of claimed) if (!asked.has(url)) take(file);
  const clashes = new Map<string, string>();
  for (const url of urls) {
    const file = mirrorPath(new URL(url))?.file;
    if (file === undefined || claimed.get(file) !== url) continue;
    const parts = file.split('/');
    const blockingFile = parts
      .slice(0, -1)
      .map((_, end) => parts.slice(0, end + 1).join('/'))
      .find((ancestor) => files.has(ancestor));
    if (blockingFile !== undefined)
      clashes.set(url, `${blockingFile} is the file of another page, so it cannot be a folder`);
    else if (folders.has(file))
      clashes.set(url, `${file} is a folder of other pages, so it cannot be a file`);
    else take(file);
  }
  return clashes;
}
