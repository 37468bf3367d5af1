/**
 * The language switch of the page header: links to the page's translations (the same page in the
 * site's other language folders), each named in its own language and marked with `lang` and
 * `hreflang`, the current one with `aria-current`. Plain links in a labelled navigation list: it
 * works without JavaScript and reads well in a screen reader. Its styles are its own stylesheet,
 * linked with it (a `<link rel="stylesheet">` may stand in the body), so pages without
 * translations load nothing for it.
 */

import type { Site } from '../content/index.js';
import { encodePagePath, translationsOf } from '../content/index.js';
import { escapeHtml } from '../text/index.js';
import { languageName, messagesFor } from '../language/index.js';
import { assetUrl } from './assets.js';

/** The switch for the page at `path` written in `lang`; empty when the page has no translation. */
export function renderLanguageSwitch(site: Site, path: string, lang: string): string {
  const page = site.byUrl.get(path);
  if (!page) return '';
  const copies = translationsOf(site, page);
  if (copies.length < 2) return '';
  const items = copies.map((copy) => {
    const attributes = `lang="${escapeHtml(copy.lang)}" hreflang="${escapeHtml(copy.lang)}"`;
    const current = copy === page ? ' aria-current="page"' : '';
    return `<li><a href="${escapeHtml(encodePagePath(copy.url))}" ${attributes}${current}>${escapeHtml(
      languageName(copy.lang),
    )}</a></li>`;
  });
  return (
    `<link rel="stylesheet" href="${assetUrl('language-switch.css')}">` +
    `<nav class="language-switch" aria-label="${escapeHtml(messagesFor(lang).languages)}"><ul>${items.join('')}</ul></nav>`
  );
}
