/**
 * Loads a content folder into a Site. Bad content never throws: each problem is reported with its
 * file and line; an 'error' means something was lost (the page or file skipped, or a front-matter
 * value that is not valid YAML left out of a page that still loads), a 'warning' leaves it loaded.
 *
 * Determinism: files are found, processed and reported in code point order of their paths, and
 * the pages are sorted by URL, so the same folder always gives the same Site.
 */

import { basename } from 'node:path';
import type { LineProblem } from './front-matter.js';
import { compareCodePoints } from '../unicode/index.js';
import type { SourceFile } from './page.js';
import { buildPages, type FileBuild, type PageStep } from './parallel.js';
import {
  readContent,
  sortProblems,
  SITE_INFO_FILE,
  UNREADABLE,
  type ContentFiles,
  type ReadOptions,
  type UnreadFile,
} from './read.js';
import { selectorProblem } from './html-page.js';
import { defaultSiteInfo, readSiteInfo } from './site-info.js';
import type { ContentProblem, Page, Site, SiteInfo } from './types.js';
import { brandFiles } from './brand.js';
import { checkBrandFile } from './brand-files.js';
import { isHtmlSource } from './urls.js';

export {
  CONTENT_MODEL_VERSION,
  readContent,
  readUnread,
  STAMP_SETTLE_MS,
  UNREADABLE,
  type ContentFiles,
  type KnownFile,
  type ReadOptions,
  type UnreadFile,
} from './read.js';

export interface LoadedSite {
  site: Site;
  problems: ContentProblem[];
  /** How each file was built, in file order: what rebuildSite reuses. */
  files: FileBuild[];
  /** With LoadOptions.pageStep: its results, one per share of the pages. */
  pageStepResults?: unknown[];
}

/** A site as built before, for rebuildSite: its pages are reused where their file did not change. */
export interface PreviousBuild {
  site: Site;
  files: readonly FileBuild[];
  /** The `.md` paths the previous build saw (for link targets that appeared or disappeared). */
  sourcePaths: readonly string[];
}

export interface LoadOptions extends ReadOptions {
  /**
   * Worker threads that build pages (Markdown parsing) beside the main thread. Default: one per
   * core beyond the first for folders of more than a few hundred files, else none.
   */
  workers?: number;
  /** Run on each share's pages in the thread that built them (see PageStep). */
  pageStep?: PageStep;
  /**
   * Build every page in a worker, none on this thread: a serving thread's reload, so that one
   * large or slow page does not hold up requests.
   */
  offThread?: boolean;
}

export async function loadSite(contentDir: string, options: LoadOptions = {}): Promise<LoadedSite> {
  return buildSite(await readContent(contentDir, options), options);
}

/** Builds the pages (in worker threads for a large folder) and the Site from what was read. */
export async function buildSite(content: ContentFiles, options: LoadOptions = {}): Promise<LoadedSite> {
  if (content.unread.length > 0) throw new Error('buildSite needs the text of every file: readUnread first');
  if (!content.exists) return assembleSite(content, [], [], []);
  const built = await buildPages(content.files, content.sourcePaths, {
    ...options,
    htmlBodySelector: content.htmlBodySelector ?? undefined,
    step: options.pageStep,
  });
  const site = assembleSite(content, built.pages, built.problems, built.files);
  return built.stepResults ? { ...site, pageStepResults: built.stepResults } : site;
}

/**
 * What rebuildSite would build again: the files whose digest changed, that are new, whose page
 * another file now holds, or whose links point at a path that appeared or disappeared, in path order. Unread files
 * (ReadOptions.known) are among them only for the last two reasons; rebuildSite needs them read
 * (readUnread). Null when `previous` cannot be used at all (the folder is gone).
 */
export function filesToRebuild(
  content: ContentFiles,
  previous: PreviousBuild,
): (SourceFile | UnreadFile)[] | null {
  if (!content.exists) return null;
  const before = new Map(previous.files.map((file) => [file.sourcePath, file]));
  const wasSource = new Set(previous.sourcePaths);
  const isSource = new Set(content.sourcePaths);
  return inPathOrder(content).filter((file) => {
    const old = before.get(file.sourcePath);
    if (old === undefined || old.digest !== file.digest) return true;
    // A file that gave no page (an error, no title) gives none again while its text is the same;
    // its problems are kept with its build. (javascript.info has 1,813 such files: rebuilt each
    // time, they turned every reload into a full build.)
    if (old.pageUrl !== null && previous.site.byUrl.get(old.pageUrl)?.sourcePath !== file.sourcePath)
      return true;
    return (old.linkTargets ?? []).some((target) => wasSource.has(target) !== isSource.has(target));
  });
}

/** The read and the unread files together, in path order. */
function inPathOrder(content: ContentFiles): (SourceFile | UnreadFile)[] {
  if (content.unread.length === 0) return content.files;
  return [...content.files, ...content.unread].sort((a, b) => compareCodePoints(a.sourcePath, b.sourcePath));
}

/**
 * The Site of `content`, building only the files filesToRebuild names and reusing the previous
 * build's Page objects (shared, not copied: the two sites hold the same unchanged pages) for the
 * rest. The result equals buildSite(content) for the same folder.
 */
export async function rebuildSite(
  content: ContentFiles,
  previous: PreviousBuild,
  options: LoadOptions = {},
): Promise<LoadedSite> {
  const changed = filesToRebuild(content, previous);
  if (changed === null) return buildSite(content, options);
  const toBuild = changed.filter((file): file is SourceFile => 'text' in file);
  if (toBuild.length < changed.length)
    throw new Error('rebuildSite needs the files it rebuilds read: readUnread first');
  const built = await buildPages(toBuild, content.sourcePaths, {
    ...options,
    htmlBodySelector: content.htmlBodySelector ?? undefined,
  });
  const fresh = new Map(built.files.map((file) => [file.sourcePath, file]));
  const freshPages = new Map(built.pages.map((page) => [page.sourcePath, page]));
  const before = new Map(previous.files.map((file) => [file.sourcePath, file]));
  const pages: Page[] = [];
  const problems: ContentProblem[] = [];
  const files: FileBuild[] = [];
  // In file order, as buildSite has them, so duplicate URLs and problems resolve the same way.
  for (const { sourcePath, stamp } of inPathOrder(content)) {
    const rebuilt = fresh.get(sourcePath);
    let file = rebuilt ?? before.get(sourcePath)!;
    // A file read again unchanged keeps its build, with the stamp it was read with now.
    if (file.stamp !== stamp) file = withStamp(file, stamp);
    const page = rebuilt
      ? freshPages.get(sourcePath)
      : file.pageUrl === null
        ? undefined
        : previous.site.byUrl.get(file.pageUrl);
    if (page) pages.push(page);
    if (file.problems) problems.push(...file.problems);
    files.push(file);
  }
  return assembleSite(content, pages, problems, files);
}

function withStamp(file: FileBuild, stamp: string | undefined): FileBuild {
  const { stamp: _old, ...rest } = file;
  return stamp === undefined ? rest : { ...rest, stamp };
}

/** The Site from built pages: duplicate URLs dropped, `_site.yaml` read, problems sorted. */
function assembleSite(
  content: ContentFiles,
  builtPages: Page[],
  pageProblems: ContentProblem[],
  files: FileBuild[],
): LoadedSite {
  const { root } = content;
  const problems: ContentProblem[] = [...content.problems, ...pageProblems];
  const report = (file: string, problem: LineProblem) => problems.push({ file, ...problem });
  if (!content.exists) {
    const { info } = readSiteInfo(null, { name: basename(root), description: '' });
    return { site: { info, pages: [], byUrl: new Map() }, problems, files };
  }
  const pages = dropDuplicateUrls(builtPages, report);
  const selector = content.htmlBodySelector;
  const badSelector = selector === null ? null : selectorProblem(selector);
  if (badSelector !== null && content.sourcePaths.some(isHtmlSource))
    report('.', { line: null, message: badSelector, severity: 'error' });

  const byUrl = new Map(pages.map((page) => [page.url, page]));
  const home = byUrl.get('/');
  const fallback = { name: home?.title ?? basename(root), description: home?.description ?? '' };
  let info = defaultSiteInfo(fallback);
  if (content.siteInfoText !== UNREADABLE) {
    const siteInfo = readSiteInfo(content.siteInfoText, fallback);
    for (const problem of siteInfo.problems) report(SITE_INFO_FILE, problem);
    info = siteInfo.info;
    for (const problem of dropMissingBrandFiles(root, info)) report(SITE_INFO_FILE, problem);
  }
  // A detected language gives way to the one the site names for all its pages.
  for (const page of pages) if (page.detectedLang !== null) page.lang = info.language ?? page.detectedLang;
  sortProblems(problems);
  return { site: { info, pages, byUrl }, problems, files };
}

/**
 * URLs are compared after NFC normalisation, so two files can claim one URL (the same name saved
 * in NFC and NFD). The first in path order keeps it. URLs that differ only by letter case or by a
 * final slash are allowed but reported, as they collide on case-insensitive disks and confuse readers.
 */
function dropDuplicateUrls(pages: Page[], report: (file: string, problem: LineProblem) => void): Page[] {
  const byUrl = new Map<string, Page>();
  const byFoldedUrl = new Map<string, Page>();
  const kept: Page[] = [];
  for (const page of pages) {
    const owner = byUrl.get(page.url);
    if (owner) {
      report(page.sourcePath, {
        line: null,
        message: `has the same URL ${page.url} as ${owner.sourcePath}; this page is skipped: rename one of the files`,
        severity: 'error',
      });
      continue;
    }
    byUrl.set(page.url, page);
    kept.push(page);
  }
  for (const page of kept) {
    const folded = page.url.toLowerCase().replace(/\/$/, '');
    const other = byFoldedUrl.get(folded);
    if (other)
      report(page.sourcePath, {
        line: null,
        message: `its URL ${page.url} differs from ${other.url} (${other.sourcePath}) only by letter case or a final slash; rename one so each address is clearly distinct`,
        severity: 'warning',
      });
    else byFoldedUrl.set(folded, page);
  }
  return kept.sort((a, b) => compareCodePoints(a.url, b.url));
}

/**
 * A brand file checkBrandFile refuses (missing, a link leading out of the folder, too large, not
 * the picture its name says) is reported and dropped, so no page links to a picture that answers 404.
 */
function dropMissingBrandFiles(root: string, info: SiteInfo): LineProblem[] {
  const problems: LineProblem[] = [];
  const gone = new Set<string>();
  for (const file of brandFiles(info.brand)) {
    const checked = checkBrandFile(root, file);
    if (checked.ok) continue;
    gone.add(file);
    problems.push({
      line: null,
      message: `${checked.problem}; the default is used meanwhile`,
      severity: 'error',
    });
  }
  if (gone.size === 0) return problems;
  const { brand } = info;
  info.brand = {
    ...brand,
    logo: brand.logo && !gone.has(brand.logo.file) ? brand.logo : null,
    favicon: brand.favicon && !gone.has(brand.favicon) ? brand.favicon : null,
    socialImage: brand.socialImage && !gone.has(brand.socialImage.file) ? brand.socialImage : null,
    hero: brand.hero && !gone.has(brand.hero.file) ? brand.hero : null,
  };
  return problems;
}
