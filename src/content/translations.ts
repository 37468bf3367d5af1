/**
 * Translations of a page: the pages at the same path in the site's other language folders
 * (`/guide/tar`, `/de/guide/tar`, `/ja/guide/tar`). A page outside any language folder is the
 * copy at the root. Pure; found once per site.
 */

import { folderLanguage } from '../language/index.js';
import { compareCodePoints } from '../unicode/index.js';
import type { Page, Site } from './types.js';

const groups = new WeakMap<Site, Map<string, Page[]>>();

/** The path of a page without its language folder: what its translations share. */
function sharedPath(page: Page): string {
  if (folderLanguage(page.sourcePath) === null) return page.url;
  const rest = page.url.indexOf('/', 1);
  return rest < 0 ? '/' : page.url.slice(rest);
}

/**
 * The page and its translations in other languages, ordered by language tag then URL; an empty
 * list when it has none (one language only at its path).
 */
export function translationsOf(site: Site, page: Page): readonly Page[] {
  let byPath = groups.get(site);
  if (!byPath) {
    byPath = new Map();
    for (const p of site.pages) {
      const key = sharedPath(p);
      const group = byPath.get(key);
      if (group) group.push(p);
      else byPath.set(key, [p]);
    }
    for (const group of byPath.values())
      group.sort((a, b) => compareCodePoints(a.lang, b.lang) || compareCodePoints(a.url, b.url));
    groups.set(site, byPath);
  }
  const group = byPath.get(sharedPath(page)) ?? [];
  return new Set(group.map((p) => p.lang)).size > 1 ? group : [];
}
