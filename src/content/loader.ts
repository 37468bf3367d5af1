/**
 * Loads a content folder into a Site. Bad content never throws: each problem is reported with its
 * file and line; an 'error' means something was lost (the page or file skipped, or a front-matter
 * value that is not valid YAML left out of a page that still loads), a 'warning' leaves it loaded.
 *
 * Determinism: files are found, processed and reported in code point order of their paths, and
 * the pages are sorted by URL, so the same folder always gives the same Site.
 */

import type { Dirent, Stats } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { readPageFields, splitFrontMatter, type LineProblem } from './front-matter.js';
import { renderMarkdown } from './markdown.js';
import { compareCodePoints } from './order.js';
import { defaultSiteInfo, readSiteInfo, SITE_INFO_FILE } from './site-info.js';
import { summarize } from './summary.js';
import type { ContentProblem, Page, Passage, Site } from './types.js';
import { urlForSourcePath } from './urls.js';
import { decodeUtf8 } from './utf8.js';

/** Files read at once: enough to hide disk latency, few enough to stay far from fd limits. */
const READ_CONCURRENCY = 32;

/** Extensions that look like Markdown but are not loaded, so the author hears about them. */
const MISNAMED_MARKDOWN = /\.(md|markdown|mdown|mkd)$/i;

export interface LoadedSite {
  site: Site;
  problems: ContentProblem[];
}

export interface LoadOptions {
  /**
   * Element ids the page layout itself uses (`main`, form ids, …). A heading whose slug would
   * repeat one gets the next free anchor instead (`main-2`), so ids stay unique on the page.
   */
  reservedAnchors?: readonly string[];
}

export async function loadSite(contentDir: string, options: LoadOptions = {}): Promise<LoadedSite> {
  const root = resolve(contentDir);
  const problems: ContentProblem[] = [];
  const report = (file: string, problem: LineProblem) => problems.push({ file, ...problem });

  let rootStats: Stats | null = null;
  try {
    rootStats = await stat(root);
  } catch {
    rootStats = null;
  }
  if (!rootStats?.isDirectory()) {
    report('.', {
      line: null,
      message: `the content folder ${root} does not exist or is not a folder: set CONTENT_DIR to a folder of Markdown files`,
      severity: 'error',
    });
    const { info } = readSiteInfo(null, { name: basename(root), description: '' });
    return { site: { info, pages: [], byUrl: new Map() }, problems };
  }

  const sources = await findSources(root, report);
  const sourceSet = new Set(sources);
  const files = await readAll(root, sources, report);

  const built: Page[] = [];
  for (const file of files) {
    const page = buildPage(file, sourceSet, options, (problem) => report(file.sourcePath, problem));
    if (page) built.push(page);
  }
  const pages = dropDuplicateUrls(built, report);

  const byUrl = new Map(pages.map((page) => [page.url, page]));
  const home = byUrl.get('/');
  const fallback = { name: home?.title ?? basename(root), description: home?.description ?? '' };
  const siteInfoText = await readSiteInfoFile(root, report);
  let info = defaultSiteInfo(fallback);
  if (siteInfoText !== UNREADABLE) {
    const siteInfo = readSiteInfo(siteInfoText, fallback);
    for (const problem of siteInfo.problems) report(SITE_INFO_FILE, problem);
    info = siteInfo.info;
  }

  problems.sort(
    (a, b) =>
      compareCodePoints(a.file, b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      compareCodePoints(a.severity, b.severity) ||
      compareCodePoints(a.message, b.message),
  );
  return { site: { info, pages, byUrl }, problems };
}

/** Every `.md` file below the root, as `/`-separated relative paths in code point order. */
async function findSources(root: string, report: (file: string, problem: LineProblem) => void): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relativeDir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, relativeDir), { withFileTypes: true });
    } catch (error) {
      report(relativeDir || '.', {
        line: null,
        message: `the folder cannot be read (${errorCode(error)}); its pages are skipped`,
        severity: 'error',
      });
      return;
    }
    entries.sort((a, b) => compareCodePoints(a.name, b.name));
    const subfolders: string[] = [];
    for (const entry of entries) {
      // `_` and `.` mark files that are not pages (`_site.yaml`, drafts, editor and VCS files).
      if (entry.name.startsWith('_') || entry.name.startsWith('.')) continue;
      const relativePath = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = await stat(join(root, relativePath));
          isDirectory = target.isDirectory();
          isFile = target.isFile();
        } catch {
          // A dangling link that looks like a page is reported when it cannot be read.
          isFile = true;
        }
        if (isDirectory) {
          report(relativePath, {
            line: null,
            message: 'a symbolic link to a folder is not followed (it could loop); copy or move the folder instead',
            severity: 'warning',
          });
          continue;
        }
      }
      if (isDirectory) subfolders.push(relativePath);
      else if (isFile && entry.name.endsWith('.md')) found.push(relativePath);
      else if (isFile && MISNAMED_MARKDOWN.test(entry.name))
        report(relativePath, {
          line: null,
          message: `not loaded: only files ending in .md are pages; rename it to ${entry.name.replace(MISNAMED_MARKDOWN, '.md')}`,
          severity: 'warning',
        });
    }
    for (const folder of subfolders) await walk(folder);
  };
  await walk('');
  return found.sort(compareCodePoints);
}

interface SourceFile {
  sourcePath: string;
  text: string;
  /** The file's modification day (YYYY-MM-DD, UTC). */
  modifiedDay: string;
}

async function readAll(
  root: string,
  sources: string[],
  report: (file: string, problem: LineProblem) => void,
): Promise<SourceFile[]> {
  const results: (SourceFile | null)[] = new Array<SourceFile | null>(sources.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < sources.length) {
      const index = next;
      next += 1;
      const sourcePath = sources[index]!;
      const path = join(root, sourcePath);
      let bytes: Buffer;
      let stats: Stats;
      try {
        [bytes, stats] = await Promise.all([readFile(path), stat(path)]);
      } catch (error) {
        report(sourcePath, {
          line: null,
          message: `the file cannot be read (${errorCode(error)}); the page is skipped`,
          severity: 'error',
        });
        continue;
      }
      const decoded = decodeUtf8(bytes);
      if ('invalidLine' in decoded) {
        report(sourcePath, {
          line: decoded.invalidLine,
          message: 'the file is not valid UTF-8 text; save it as UTF-8. The page is skipped',
          severity: 'error',
        });
        continue;
      }
      results[index] = {
        sourcePath,
        text: decoded.text.replace(/^\uFEFF/, ''),
        modifiedDay: stats.mtime.toISOString().slice(0, 10),
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, sources.length) }, worker));
  return results.filter((file): file is SourceFile => file !== null);
}

/** One file → one page, or null when an error makes the page unusable. */
function buildPage(
  file: SourceFile,
  sourceSet: ReadonlySet<string>,
  options: LoadOptions,
  report: (problem: LineProblem) => void,
): Page | null {
  const split = splitFrontMatter(file.text);
  for (const problem of split.problems) report(problem);
  if (split.data === null) return null;
  const { fields, problems } = readPageFields(split.data, split.keyLines);
  for (const problem of problems) report(problem);

  const rendered = renderMarkdown(split.body, {
    sourcePath: file.sourcePath,
    titleFromHeading: fields.title === null,
    knownTitle: fields.title ?? undefined,
    reservedAnchors: options.reservedAnchors,
  });
  const title = fields.title ?? rendered.headingTitle;
  if (title === null) {
    report({
      line: 1,
      message:
        'the page has no title: add "title: …" to the front matter or start the text with a "# Title" heading. The page is skipped',
      severity: 'error',
    });
    return null;
  }
  for (const link of rendered.links)
    if (!sourceSet.has(link.targetSourcePath))
      report({
        line: link.line === null ? null : split.bodyStartLine + link.line,
        message: `the link to ${link.targetSourcePath} leads nowhere: there is no such page in the content folder`,
        severity: 'warning',
      });

  const url = urlForSourcePath(file.sourcePath);
  const description = fields.description ?? summarize(rendered.leadParagraph);
  return {
    url,
    sourcePath: file.sourcePath,
    title,
    description,
    date: fields.date,
    lastModified: fields.updated ?? fields.date ?? file.modifiedDay,
    tags: fields.tags,
    keywords: fields.keywords,
    aliases: fields.aliases,
    nav: fields.nav,
    order: fields.order,
    form: fields.form,
    markdown: removeLines(split.body, rendered.headingTitleLines),
    html: rendered.html,
    headings: rendered.headings,
    passages: buildPassages(url, title, description, rendered.sections),
    frontMatter: split.data,
  };
}

/** The body without the heading that became the title, so a Markdown twin does not repeat it. */
function removeLines(body: string, lines: [number, number] | null): string {
  if (!lines) return body;
  const all = body.split('\n');
  all.splice(lines[0], lines[1] - lines[0]);
  return all.join('\n').replace(/^\s*\n/, '');
}

function buildPassages(
  url: string,
  title: string,
  description: string,
  sections: ReturnType<typeof renderMarkdown>['sections'],
): Passage[] {
  const passages: Passage[] = [];
  let sectionHeading: string | null = null;
  for (const section of sections) {
    let headingPath: string[];
    if (section.heading === null) headingPath = [title];
    else if (section.level === 2) {
      sectionHeading = section.heading;
      headingPath = [title, section.heading];
    } else headingPath = sectionHeading === null ? [title, section.heading] : [title, sectionHeading, section.heading];
    if (section.text === '') continue;
    passages.push({
      key: section.anchor === null ? url : `${url}#${section.anchor}`,
      pageUrl: url,
      anchor: section.anchor,
      headingPath,
      text: section.text,
    });
  }
  // Every page stays findable, even one that is only a title and a description.
  if (passages.length === 0)
    passages.push({ key: url, pageUrl: url, anchor: null, headingPath: [title], text: description || title });
  return passages;
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

const UNREADABLE = Symbol('unreadable');

/** The text of `_site.yaml`, null when there is none, UNREADABLE when it exists but cannot be used. */
async function readSiteInfoFile(
  root: string,
  report: (file: string, problem: LineProblem) => void,
): Promise<string | null | typeof UNREADABLE> {
  try {
    const decoded = decodeUtf8(await readFile(join(root, SITE_INFO_FILE)));
    if ('text' in decoded) return decoded.text;
    report(SITE_INFO_FILE, {
      line: decoded.invalidLine,
      message: 'the file is not valid UTF-8 text; save it as UTF-8. Defaults are used',
      severity: 'error',
    });
    return UNREADABLE;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    report(SITE_INFO_FILE, {
      line: null,
      message: `the file cannot be read (${errorCode(error)}); defaults are used`,
      severity: 'error',
    });
    return UNREADABLE;
  }
}

function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message : String(error);
}
