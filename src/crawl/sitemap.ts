import { gunzipSync } from 'node:zlib';
import sax from 'sax';

/**
 * Reading a sitemap (sitemaps.org 0.9): a `<urlset>` of pages or a `<sitemapindex>` of sitemaps,
 * plain or gzipped. sax in strict mode knows only XML's five named entities and character
 * references, so a document type cannot define entities that expand (no "billion laughs", no
 * external entities); the size is bounded before parsing, the number of entries while parsing.
 */

/** The protocol's own limits: 50,000 entries and 50 MB (uncompressed) per sitemap. */
export const MAX_SITEMAP_BYTES = 52_428_800;
export const MAX_SITEMAP_ENTRIES = 50_000;

export interface Sitemap {
  kind: 'urlset' | 'sitemapindex';
  /** The `<loc>` of each `<url>` (urlset) or `<sitemap>` (index), in document order. */
  locs: string[];
}

/** Parses a sitemap's bytes; throws with the reason when they are not one. */
export function parseSitemap(bytes: Buffer): Sitemap {
  const text = inflated(bytes).toString('utf8');
  const parser = sax.parser(true, { trim: true });
  const stack: string[] = [];
  let kind: Sitemap['kind'] | null = null;
  const locs: string[] = [];
  let loc: string | null = null;
  let failure: Error | null = null;
  const localName = (name: string) => name.slice(name.indexOf(':') + 1);
  parser.onopentag = (tag) => {
    const name = localName(tag.name);
    if (stack.length === 0) {
      if (name !== 'urlset' && name !== 'sitemapindex')
        throw new Error(`the root element is <${tag.name}>, not <urlset> or <sitemapindex>`);
      kind = name;
    }
    stack.push(name);
    const entry = kind === 'urlset' ? 'url' : 'sitemap';
    if (name === 'loc' && stack.length === 3 && stack[1] === entry) loc = '';
  };
  const onText = (chunk: string) => {
    if (loc !== null) loc += chunk;
  };
  parser.ontext = onText;
  parser.oncdata = onText;
  parser.onclosetag = () => {
    if (loc !== null && stack.length === 3) {
      if (loc.trim() !== '') locs.push(loc.trim());
      loc = null;
      if (locs.length > MAX_SITEMAP_ENTRIES)
        throw new Error(`more than ${MAX_SITEMAP_ENTRIES} entries (the protocol's limit)`);
    }
    stack.pop();
  };
  parser.onerror = (error) => {
    failure ??= new Error(`not well-formed XML: ${error.message.split('\n')[0]}`);
  };
  try {
    parser.write(text).close();
  } catch (error) {
    failure ??= error as Error;
  }
  if (failure !== null) throw failure;
  if (kind === null) throw new Error('no root element');
  return { kind, locs };
}

/** A gzipped sitemap (`sitemap.xml.gz`, served as a file, not as Content-Encoding) inflated, bounded. */
function inflated(bytes: Buffer): Buffer {
  if (bytes.length > MAX_SITEMAP_BYTES) throw new Error(`larger than ${MAX_SITEMAP_BYTES} bytes`);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_SITEMAP_BYTES });
  } catch (error) {
    throw new Error(
      (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
        ? `larger than ${MAX_SITEMAP_BYTES} bytes once inflated`
        : `not a readable gzip file: ${(error as Error).message}`,
    );
  }
}
