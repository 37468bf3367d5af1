/**
 * What the ask service knows about pages beyond their passages: which sections are link lists
 * (they weigh little), which pages are copies of one another (the same page in several versions
 * or platforms, collapsed into one result), which scope a page is in, and the names a page is
 * known by (the search's page stage weighs how well a query names them).
 */

import type { Page, Passage } from '../content/index.js';
import { analyze, analyzeQuery, compareKeys } from '../search/index.js';

/** Pages with the same title and path but one segment are copies when their words overlap this much. */
export const COPY_SIMILARITY = 0.5;

const LINK_LIST_HEADING_RE =
  /^(?:related(?:\s+\w+)?|see\s+also|further\s+reading|more\s+information|references|learn\s+more|next\s+steps|read\s+more)$/i;
/**
 * The anchors (null for the text before the first heading) of the page's sections that are link
 * lists: named like one, or with at least two links making up most of their text.
 */
export function linkListSections(page: Page): Set<string | null> {
  const out = new Set<string | null>(page.linkListAnchors);
  for (const passage of page.passages) {
    const heading = passage.headingPath.at(-1);
    if (passage.anchor !== null && heading && LINK_LIST_HEADING_RE.test(heading.trim()))
      out.add(passage.anchor);
  }
  return out;
}

/**
 * A name as index terms, read as a query would be (question words dropped), so that an FAQ heading
 * "Does it run offline?" is named by "does it run offline" as by "run offline".
 */
export function nameTerms(name: string): string[] {
  return analyzeQuery(name).map((q) => q.term);
}

/**
 * The names a page is known by: its title, its aliases and its keywords (the words readers use
 * for its subject that its text does not: "cost" for a page titled "Pricing"), as index terms. A
 * query that names the page's subject names the page, where a section of another page that only
 * mentions the word does not.
 */
export function pageNames(page: Page): string[][] {
  return [page.title, ...(page.aliases ?? []), ...(page.keywords ?? [])]
    .map(nameTerms)
    .filter((n) => n.length > 0);
}

export interface CopyGroups {
  /** Page URL → the URLs of its copies, the preferred first (itself included); absent when none. */
  readonly groups: Map<string, string[]>;
  /** Page URL → its place in its group's preference order (0 = preferred). */
  readonly preference: Map<string, number>;
}

function termSet(page: Page): Set<string> {
  return new Set(analyze(page.passages.map((p: Passage) => p.text).join('\n')));
}

function similarity(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 1 : inter / union;
}

/** Numeric-aware descending order of version-like segments ("7.4" before "5.10" before "5.9"). */
function compareSegmentsDesc(a: string, b: string): number {
  const pa = a.split(/(\d+)/);
  const pb = b.split(/(\d+)/);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] as string;
    const y = pb[i] as string;
    if (x === y) continue;
    if (i % 2 === 1) return Number(y) - Number(x);
    return compareKeys(x, y);
  }
  return pb.length - pa.length;
}

/**
 * Groups pages that are copies of each other: same title, same path apart from one segment (a
 * version, a platform), and words that overlap at least COPY_SIMILARITY. In a group, the copy
 * from the segment value with the most pages on the site comes first (the main version or
 * platform), then the highest version-like value, then the path: never the accident of an order.
 */
export function findCopies(pages: readonly Page[]): CopyGroups {
  const segmentPages = new Map<string, number>();
  const candidates = new Map<string, { page: Page; segment: string }[]>();
  for (const page of pages) {
    const segments = page.url.split('/');
    segments.forEach((segment, i) => {
      if (i === 0 || segment === '') return;
      const at = `${i}\u0000${segment}`;
      segmentPages.set(at, (segmentPages.get(at) ?? 0) + 1);
      if (i === segments.length - 1) return;
      const pattern = [...segments.slice(0, i), '*', ...segments.slice(i + 1)].join('/');
      const key = `${page.title}\u0000${pattern}`;
      const list = candidates.get(key) ?? [];
      list.push({ page, segment });
      candidates.set(key, list);
    });
  }
  const groups = new Map<string, string[]>();
  const preference = new Map<string, number>();
  const terms = new Map<Page, Set<string>>();
  const termsOf = (p: Page): Set<string> => {
    let t = terms.get(p);
    if (!t) terms.set(p, (t = termSet(p)));
    return t;
  };
  // In key order, so that a page in two candidate groups joins the same one whatever the page order.
  for (const key of [...candidates.keys()].sort(compareKeys)) {
    const list = candidates.get(key)!;
    if (list.length < 2) continue;
    const depth = key.split('\u0000')[1]!.split('/').indexOf('*');
    const weight = (s: string) => segmentPages.get(`${depth}\u0000${s}`) ?? 0;
    list.sort(
      (a, b) =>
        weight(b.segment) - weight(a.segment) ||
        compareSegmentsDesc(a.segment, b.segment) ||
        compareKeys(a.page.url, b.page.url),
    );
    // Copies of the preferred page (a copy must resemble the page it stands in for).
    const lead = list[0]!.page;
    const members = list.filter(
      (c, i) => i === 0 || similarity(termsOf(lead), termsOf(c.page)) >= COPY_SIMILARITY,
    );
    if (members.length < 2) continue;
    const urls = members.map((m) => m.page.url);
    for (const [i, url] of urls.entries()) {
      if (groups.has(url)) continue;
      groups.set(url, urls);
      preference.set(url, i);
    }
  }
  return { groups, preference };
}

/**
 * A scope: `/path/` (pages under a path prefix), `tag:name` (pages with that tag, keyword or
 * alias), or a bare `name` (the section of that name: pages under `/name/`).
 */
export function inScope(page: Page, scope: string): boolean {
  if (scope.startsWith('/')) return page.url.startsWith(scope);
  if (scope.toLowerCase().startsWith('tag:')) {
    const tag = scope.slice(4).trim().toLowerCase();
    return [...page.tags, ...(page.keywords ?? [])].some((t) => t.toLowerCase() === tag);
  }
  const section = scope.replace(/^\/+|\/+$/g, '');
  return page.url === `/${section}` || page.url.startsWith(`/${section}/`);
}
