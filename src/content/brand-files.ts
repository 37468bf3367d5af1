import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { brandFileProblem } from './brand.js';

/**
 * The largest brand picture (logo, favicon, social image, hero): 2 MiB, the limit of a page. A
 * logo is a few KB and a social image a few hundred; a larger file is a mistake, and every visitor
 * of every page would fetch it.
 */
export const MAX_BRAND_FILE_BYTES = 2 * 1024 * 1024;

/** The picture formats the site serves, by the extension that names them. */
const EXTENSION_FORMATS: Record<string, PictureFormat> = {
  svg: 'svg',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  webp: 'webp',
  gif: 'gif',
  avif: 'avif',
  ico: 'ico',
};
type PictureFormat = 'svg' | 'png' | 'jpeg' | 'webp' | 'gif' | 'avif' | 'ico';
const CONTENT_TYPES: Record<PictureFormat, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  ico: 'image/x-icon',
};

/** How many bytes of a file are read to tell its format (an SVG may open with a long comment). */
const SNIFF_BYTES = 4096;
const SVG_START =
  /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>/]/i;

/** The picture format of a file's first bytes, or null when they are none the site serves. */
export function sniffPicture(head: Buffer): PictureFormat | null {
  const ascii = (start: number, end: number) => head.toString('latin1', start, end);
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a)
    return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'avif';
  if (head.length >= 6 && head.readUInt32BE(0) === 0x00000100 && head.readUInt16LE(4) > 0) return 'ico';
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  return !text.includes('\u0000') && SVG_START.test(text) ? 'svg' : null;
}

export type BrandFileCheck = { ok: true; real: string; contentType: string } | { ok: false; problem: string };

/**
 * The one place that decides what a brand file named in `_site.yaml` may be: a plain relative
 * picture name (brandFileProblem), a regular file whose real place is inside the content folder (a
 * link may not publish a file from elsewhere), at most MAX_BRAND_FILE_BYTES, and a picture by its
 * bytes, of the format its name says (an `.ico` may hold a PNG, as many do). The content type
 * served is the one the bytes show. A problem says what is wrong, for the author.
 */
export function checkBrandFile(root: string, file: string): BrandFileCheck {
  const named = brandFileProblem(file);
  if (named !== null) return { ok: false, problem: named };
  const missing = {
    ok: false as const,
    problem: `the brand file "${file}" is not a file in the content folder: add it there, or correct the name in the brand section`,
  };
  let real: string;
  try {
    const realRoot = realpathSync(root);
    real = realpathSync(join(root, ...file.split('/')));
    if (!real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) return missing;
    const stats = statSync(real);
    if (!stats.isFile()) return missing;
    if (stats.size > MAX_BRAND_FILE_BYTES)
      return {
        ok: false,
        problem: `the brand file "${file}" is ${stats.size} bytes, over the limit of ${MAX_BRAND_FILE_BYTES} bytes for a brand picture: save it smaller`,
      };
  } catch {
    return missing;
  }
  const head = readHead(real);
  if (head === null) return missing;
  const extension = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  const namedFormat = EXTENSION_FORMATS[extension];
  const format = sniffPicture(head);
  if (format === null)
    return {
      ok: false,
      problem: `the brand file "${file}" is not a picture: its bytes are none of ${Object.keys(CONTENT_TYPES).join(', ')}`,
    };
  if (format !== namedFormat && !(namedFormat === 'ico' && format === 'png'))
    return {
      ok: false,
      problem: `the brand file "${file}" is named as ${namedFormat} but its bytes are ${format}: rename it to end in .${format === 'jpeg' ? 'jpg' : format}`,
    };
  return { ok: true, real, contentType: CONTENT_TYPES[format] };
}

/** The first SNIFF_BYTES of a file, opened without waiting on a pipe; null when it cannot be read. */
function readHead(real: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(real, 'r');
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    return head.subarray(0, readSync(fd, head, 0, SNIFF_BYTES, 0));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The real path of a brand file that passes checkBrandFile, else null. */
export function resolveBrandFile(root: string, file: string): string | null {
  const checked = checkBrandFile(root, file);
  return checked.ok ? checked.real : null;
}
