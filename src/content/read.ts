/**
 * Reading a content folder: listing its Markdown files, reading them and `_site.yaml`, and hashing
 * what was read (the I/O part of loading). Apart from page building, so that the content-reading
 * worker (read-worker.ts) loads this alone, without markdown-it's and YAML's callers.
 *
 * Determinism: files are found, read and reported in code point order of their paths.
 */

import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  type BigIntStats,
  type Dirent,
  type Stats,
} from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, isAbsolute } from 'node:path';
import type { LineProblem } from './front-matter.js';
import { compareCodePoints, decodeUtf8 } from '../unicode/index.js';
import type { SourceFile } from './page.js';
import type { ContentProblem } from './types.js';
import { isHtmlSource } from './urls.js';

/** The site's own settings, beside the pages (read by site-info.ts). */
export const SITE_INFO_FILE = '_site.yaml';

/**
 * The largest `_site.yaml` read: 256 KiB. Its details, menus, brand and forms fill a few KB (the
 * Northbeam fixture's, forms and all, is 3 KB); a larger one is a mistake or an attack, and is
 * refused whole, whatever CONTENT_MAX_FILE_BYTES allows pages.
 */
export const SITE_INFO_MAX_BYTES = 256 * 1024;
const SITE_INFO_ADVICE = `it needs far less (its details, menus, brand and forms fill a few KB): remove what is repeated or pasted in`;

export interface ReadOptions {
  /**
   * Element ids the page layout itself uses (`main`, form ids, …). A heading whose slug would
   * repeat one gets the next free anchor instead (`main-2`), so ids stay unique on the page.
   */
  reservedAnchors?: readonly string[];
  /**
   * Where the text of built HTML pages is, when neither `[data-frontdoor-body]` nor `<main>` says
   * (CONTENT_HTML_BODY; see html-page.ts).
   */
  htmlBodySelector?: string;
  /**
   * Called once the folder is listed, before its files are read (not part of the hash): a caller
   * can start what the build will need meanwhile.
   */
  onListed?: (sourcePaths: readonly string[]) => void;
  /**
   * Files read before, by source path (a reload passes those of the build serving now): a file
   * whose stamp is still the one given is not read again but listed in `unread`, with the digest
   * it had. Reading every file of the docs corpus (7,544) took a sixth of a one-page reload.
   */
  known?: ReadonlyMap<string, KnownFile>;
  /** How long after a file's last change its stamp is trusted (STAMP_SETTLE_MS; tests set 0). */
  stampSettleMs?: number;
  /** The largest file read, in bytes (CONTENT_MAX_FILE_BYTES; default MAX_FILE_BYTES). */
  maxFileBytes?: number;
}

/**
 * The largest content file read by default: 2 MiB, about thirty times the longest page of the docs
 * corpus (73 KB). A larger file is skipped and reported: parsing a 100 MB page held a core for
 * seconds and grew the process by hundreds of MB.
 */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** A file as a previous read left it (a FileBuild is one). */
export interface KnownFile {
  digest: string;
  stamp?: string;
}

/** A file whose stamp matched a known one: not read, its digest is the one it had then. */
export interface UnreadFile {
  sourcePath: string;
  digest: string;
  stamp: string;
}

/**
 * A file's stamp is trusted only when its last change (ctime) is at least this old when it is
 * stat'ed. Timestamps advance in ticks of the kernel's coarse clock (a few milliseconds), so a file
 * written again within the tick of the read would keep every field of its stamp; a file whose
 * stamp was taken well after its last change gets a new ctime from any later write. (git's index
 * guards its "racily clean" entries the same way.)
 */
export const STAMP_SETTLE_MS = 2000;

/**
 * Files read synchronously between two turns of the event loop. Reading thousands of small files
 * one promise (and thread-pool round trip) each took about twice as long as reading them in a
 * loop; in batches, a reload still leaves the server answering every few milliseconds.
 */
const READ_BATCH = 200;

/** Extensions that look like Markdown but are not loaded, so the author hears about them. */
const MISNAMED_MARKDOWN = /\.(md|markdown|mdown|mkd)$/i;

/**
 * Changes whenever the same files would load into a different Site (the loader, the Markdown
 * rendering or the Page model changed): part of the content hash, so a snapshot of an older
 * loader's output is not reused.
 */
export const CONTENT_MODEL_VERSION = 7;

/** A content folder read into memory, before any page is built. */
export interface ContentFiles {
  root: string;
  /** False when the folder does not exist or is not a folder (a problem says so). */
  exists: boolean;
  /** The files read, in path order. */
  files: SourceFile[];
  /**
   * The files left unread because ReadOptions.known had them with the same stamp, in path order;
   * empty without `known`. Building pages needs their text: see readUnread.
   */
  unread: UnreadFile[];
  /** Every page path found (`.md`, `.html`), readable or not (links to an unreadable page are not "nowhere"). */
  sourcePaths: string[];
  /** `_site.yaml`'s text, null when absent, UNREADABLE when present but unusable. */
  siteInfoText: string | null | typeof UNREADABLE;
  /** ReadOptions.htmlBodySelector, which building the pages uses (part of the hash). */
  htmlBodySelector: string | null;
  /** Problems found while reading (unreadable files, misnamed files, …). */
  problems: ContentProblem[];
  /**
   * SHA-256 (hex) of everything the Site is built from: each file's path and digest (its text and
   * modification day), the site file, the read problems, the options and CONTENT_MODEL_VERSION.
   * Same hash, same Site.
   */
  hash: string;
}

/** Lists and reads the folder (the I/O part of loading) and hashes what was read. */
export async function readContent(contentDir: string, options: ReadOptions = {}): Promise<ContentFiles> {
  const root = resolve(contentDir);
  const problems: ContentProblem[] = [];
  const report = (file: string, problem: LineProblem) => problems.push({ file, ...problem });

  let rootStats: Stats | null = null;
  try {
    rootStats = await stat(root);
  } catch {
    rootStats = null;
  }
  const exists = rootStats?.isDirectory() === true;
  let sourcePaths: string[] = [];
  let found: (SourceFile | UnreadFile)[] = [];
  let siteInfoText: string | null | typeof UNREADABLE = null;
  if (exists) {
    sourcePaths = await findSources(root, report);
    options.onListed?.(sourcePaths);
    [found, siteInfoText] = await Promise.all([
      readAll(root, sourcePaths, report, options),
      readSiteInfoFile(root, report, options.maxFileBytes),
    ]);
  } else
    report('.', {
      line: null,
      message: `the content folder ${root} does not exist or is not a folder: set CONTENT_DIR to a folder of Markdown files`,
      severity: 'error',
    });
  sortProblems(problems);

  const hash = createHash('sha256');
  const field = (value: string) => hash.update(`${value.length}:`).update(value);
  field(
    JSON.stringify({
      model: CONTENT_MODEL_VERSION,
      root,
      exists,
      reservedAnchors: options.reservedAnchors ?? [],
      maxFileBytes: options.maxFileBytes ?? MAX_FILE_BYTES,
      htmlBodySelector: options.htmlBodySelector ?? null,
    }),
  );
  field(JSON.stringify(sourcePaths));
  const files: SourceFile[] = [];
  const unread: UnreadFile[] = [];
  for (const file of found) {
    field(file.sourcePath);
    field(file.digest);
    if ('text' in file) files.push(file);
    else unread.push(file);
  }
  field(siteInfoText === UNREADABLE ? '\u0000unreadable' : (siteInfoText ?? '\u0000none'));
  field(JSON.stringify(problems));
  const htmlBodySelector = options.htmlBodySelector ?? null;
  return {
    root,
    exists,
    files,
    unread,
    sourcePaths,
    siteInfoText,
    htmlBodySelector,
    problems,
    hash: hash.digest('hex'),
  };
}

export function sortProblems(problems: ContentProblem[]): void {
  problems.sort(
    (a, b) =>
      compareCodePoints(a.file, b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      compareCodePoints(a.severity, b.severity) ||
      compareCodePoints(a.message, b.message),
  );
}

/** Every page file (`.md`, and `.html` / `.htm` of a built site) below the root, as `/`-separated relative paths in code point order. */
async function findSources(
  root: string,
  report: (file: string, problem: LineProblem) => void,
): Promise<string[]> {
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
            message:
              'a symbolic link to a folder is not followed (it could loop); copy or move the folder instead',
            severity: 'warning',
          });
          continue;
        }
      }
      if (isDirectory) subfolders.push(relativePath);
      else if (isFile && (entry.name.endsWith('.md') || isHtmlSource(entry.name))) found.push(relativePath);
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

async function readAll(
  root: string,
  sources: string[],
  report: (file: string, problem: LineProblem) => void,
  options: ReadOptions,
): Promise<(SourceFile | UnreadFile)[]> {
  const { known } = options;
  const settleMs = options.stampSettleMs ?? STAMP_SETTLE_MS;
  const results: (SourceFile | UnreadFile)[] = [];
  for (let index = 0; index < sources.length; index++) {
    // Between batches the event loop runs: a reload reads while the server keeps answering.
    if (index > 0 && index % READ_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    const sourcePath = sources[index]!;
    const before = known?.get(sourcePath);
    if (before?.stamp !== undefined) {
      const stats = statSync(join(root, sourcePath), { bigint: true, throwIfNoEntry: false });
      if (stats !== undefined && stampOf(stats, settleMs) === before.stamp) {
        results.push({ sourcePath, digest: before.digest, stamp: before.stamp });
        continue;
      }
    }
    const file = readSourceFile(root, sourcePath, report, settleMs, options.maxFileBytes);
    if (file !== null) results.push(file);
  }
  return results;
}

/** Reads, checks and digests one file; null (with the problem reported) when it cannot be a page. */
function readSourceFile(
  root: string,
  sourcePath: string,
  report: (file: string, problem: LineProblem) => void,
  settleMs: number,
  maxFileBytes = MAX_FILE_BYTES,
): SourceFile | null {
  let bytes: Buffer;
  let stats: BigIntStats;
  try {
    ({ bytes, stats } = readContentFile(root, sourcePath, maxFileBytes));
  } catch (error) {
    report(sourcePath, {
      line: null,
      message:
        error instanceof RefusedFile
          ? `${error.message}; the page is skipped`
          : `the file cannot be read (${errorCode(error)}); the page is skipped`,
      severity: 'error',
    });
    return null;
  }
  const decoded = decodeUtf8(bytes);
  if ('invalidLine' in decoded) {
    report(sourcePath, {
      line: decoded.invalidLine,
      message: 'the file is not valid UTF-8 text; save it as UTF-8. The page is skipped',
      severity: 'error',
    });
    return null;
  }
  const bom = decoded.text.startsWith('\uFEFF');
  const text = bom ? decoded.text.slice(1) : decoded.text;
  const modifiedDay = stats.mtime.toISOString().slice(0, 10);
  // The digest of the text, from its bytes (valid UTF-8, as just checked) rather than encoding it again.
  const digest = createHash('sha256')
    .update(`${modifiedDay}\n`)
    .update(bom ? bytes.subarray(3) : bytes)
    .digest('hex');
  // Taken before the bytes were read: a write after that changes the ctime the stamp holds.
  const stamp = stampOf(stats, settleMs);
  return { sourcePath, text, modifiedDay, digest, ...(stamp !== undefined ? { stamp } : {}) };
}

/**
 * The file's device, inode, size and modification and change times (nanoseconds), or undefined
 * when its last change is too recent to trust (STAMP_SETTLE_MS). Any write changes the change time,
 * which no tool can set back, and replacing the file changes the inode.
 */
function stampOf(stats: BigIntStats, settleMs: number): string | undefined {
  if (!stats.isFile()) return undefined;
  if (Number(stats.ctimeNs / 1_000_000n) > Date.now() - settleMs) return undefined;
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/** A file the content folder may not publish: the message says why and what to do. */
class RefusedFile extends Error {}

/** Opens without following a symbolic link in the last component where the platform can. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * The one place that decides what a content file may be: a regular file whose real path is inside
 * the content folder (a symbolic link to a file outside it would publish that file, a server's
 * configuration with its passwords, say) and of at most `maxFileBytes`. Gives its bytes and stats
 * in four system calls (readFileSync on a descriptor adds a second fstat): thousands of small files
 * make a start-up's read mostly system calls. Throws RefusedFile, or the system's error.
 */
function readContentFile(
  root: string,
  relativePath: string,
  maxFileBytes: number,
  tooLargeAdvice = PAGE_ADVICE,
): { bytes: Buffer; stats: BigIntStats } {
  const path = join(root, relativePath);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW | constants.O_NONBLOCK);
    if (NO_FOLLOW === 0) checkInside(root, path);
  } catch (error) {
    // ELOOP: the last component is a symbolic link. Followed only when it stays in the folder.
    if (errorCode(error) !== 'ELOOP') throw error;
    fd = openSync(checkInside(root, path), constants.O_RDONLY | constants.O_NONBLOCK);
  }
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (!stats.isFile()) throw new RefusedFile('not a regular file (a folder, device, socket or pipe)');
    const size = Number(stats.size);
    if (size > maxFileBytes) throw new RefusedFile(tooLarge(size, maxFileBytes, tooLargeAdvice));
    // A size of 0 may be a file that does not report one: read to its end, but never past the limit.
    const bytes = Buffer.allocUnsafe(size === 0 ? maxFileBytes + 1 : size);
    let filled = 0;
    while (filled < bytes.length) {
      const read = readSync(fd, bytes, filled, bytes.length - filled, null);
      if (read === 0) break;
      filled += read;
    }
    if (size === 0 && filled > maxFileBytes)
      throw new RefusedFile(tooLarge(filled, maxFileBytes, tooLargeAdvice));
    return { bytes: filled < bytes.length ? bytes.subarray(0, filled) : bytes, stats };
  } finally {
    closeSync(fd);
  }
}

const PAGE_ADVICE = 'split it into smaller pages, or raise CONTENT_MAX_FILE_BYTES';
const tooLarge = (size: number, maxFileBytes: number, advice: string) =>
  `the file is ${size} bytes, over the limit of ${maxFileBytes} bytes: ${advice}`;

/** The real path of `path`; throws RefusedFile when it is outside the real path of `root`. */
function checkInside(root: string, path: string): string {
  const real = realpathSync.native(path);
  const fromRoot = relative(realpathSync.native(root), real);
  if (fromRoot === '' || fromRoot.startsWith('..') || isAbsolute(fromRoot))
    throw new RefusedFile(
      'it is a symbolic link to a file outside the content folder, which is not published: copy the file into CONTENT_DIR instead',
    );
  return real;
}

/**
 * `content` with the unread files among `sourcePaths` (all of them when absent) read and put in
 * `files`, in path order. When one of them no longer has the digest it was listed with (it changed
 * since), the whole folder is read again instead, so the files and the hash always agree.
 */
export async function readUnread(
  content: ContentFiles,
  options: ReadOptions = {},
  sourcePaths?: readonly string[],
): Promise<ContentFiles> {
  const wanted = sourcePaths ? new Set(sourcePaths) : null;
  const toRead = wanted ? content.unread.filter((file) => wanted.has(file.sourcePath)) : content.unread;
  if (toRead.length === 0) return content;
  const settleMs = options.stampSettleMs ?? STAMP_SETTLE_MS;
  const read: SourceFile[] = [];
  for (const file of toRead) {
    const now = readSourceFile(
      content.root,
      file.sourcePath,
      () => undefined,
      settleMs,
      options.maxFileBytes,
    );
    if (now === null || now.digest !== file.digest)
      return readContent(content.root, {
        ...options,
        htmlBodySelector: content.htmlBodySelector ?? undefined,
        known: undefined,
      });
    read.push(now);
  }
  const taken = new Set(toRead);
  const files = [...content.files, ...read].sort((a, b) => compareCodePoints(a.sourcePath, b.sourcePath));
  return { ...content, files, unread: content.unread.filter((file) => !taken.has(file)) };
}

export const UNREADABLE = Symbol('unreadable');

/**
 * The bytes of `_site.yaml` by the rules of every content file (inside the folder, a regular file)
 * and at most SITE_INFO_MAX_BYTES; null when there is none. Throws an Error whose message says why
 * the file cannot be used. The site details and the forms both read it here.
 */
export function readSiteInfoBytes(root: string, maxFileBytes = MAX_FILE_BYTES): Buffer | null {
  try {
    return readContentFile(
      root,
      SITE_INFO_FILE,
      Math.min(maxFileBytes, SITE_INFO_MAX_BYTES),
      SITE_INFO_ADVICE,
    ).bytes;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    if (error instanceof RefusedFile) throw error;
    throw new Error(`the file cannot be read (${errorCode(error)})`, { cause: error });
  }
}

/** The text of `_site.yaml`, null when there is none, UNREADABLE when it exists but cannot be used. */
async function readSiteInfoFile(
  root: string,
  report: (file: string, problem: LineProblem) => void,
  maxFileBytes = MAX_FILE_BYTES,
): Promise<string | null | typeof UNREADABLE> {
  let bytes: Buffer | null;
  try {
    bytes = readSiteInfoBytes(root, maxFileBytes);
  } catch (error) {
    report(SITE_INFO_FILE, {
      line: null,
      message: `${(error as Error).message}; defaults are used`,
      severity: 'error',
    });
    return UNREADABLE;
  }
  if (bytes === null) return null;
  const decoded = decodeUtf8(bytes);
  if ('text' in decoded) return decoded.text;
  report(SITE_INFO_FILE, {
    line: decoded.invalidLine,
    message: 'the file is not valid UTF-8 text; save it as UTF-8. Defaults are used',
    severity: 'error',
  });
  return UNREADABLE;
}

function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string')
    return error.code;
  return error instanceof Error ? error.message : String(error);
}
