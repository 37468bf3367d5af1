import { markdownOf, type Page } from '../content/index.js';
import { languageName, primaryLanguage } from '../language/index.js';
import { oneLine } from './api-reference.js';
import { document, link } from './markdown.js';
import type { DiscoveryModel } from './model.js';
import { countWord, listInWords, sideEffectingOperations } from './operations.js';
import { DISCOVERY_PATHS, SKILL_NAME, skillPath } from './paths.js';

/**
 * /llms.txt in the llmstxt.org layout: `# Name`, one `> summary` line, prose without headings,
 * then `## Section` blocks of `- [title](absolute-url): note` lines, and `## Optional` last.
 */

interface Section {
  title: string;
  pages: Page[];
  /** Header navigation position of the section's index page (sections are shown in that order). */
  nav: number | null;
  key: string;
}

const compareByOrder = (a: Page, b: Page): number => {
  const orderA = a.order ?? Number.POSITIVE_INFINITY;
  const orderB = b.order ?? Number.POSITIVE_INFINITY;
  if (orderA !== orderB) return orderA < orderB ? -1 : 1;
  return a.url < b.url ? -1 : a.url > b.url ? 1 : 0;
};

function sectionTitle(key: string, index: Page | undefined): string {
  const navTitle = index?.frontMatter['navTitle'];
  if (typeof navTitle === 'string' && navTitle.trim() !== '') return oneLine(navTitle);
  const words = key.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Is `page` directly inside `folder` (`/a/` holds `/a/b` and `/a/b/`, not `/a/b/c`)? */
function isDirectChild(folder: string, page: Page): boolean {
  if (!page.url.startsWith(folder) || page.url === folder) return false;
  const rest = page.url.slice(folder.length);
  const slash = rest.indexOf('/');
  return slash === -1 || slash === rest.length - 1;
}

/**
 * A section's pages as a tree walk: the index first, then each page followed by the pages of its
 * own folder (`/solutions/cros` then `/solutions/cros/…`), siblings by `order`, then URL.
 */
export function treeOrder(pages: readonly Page[], index: Page | undefined, folder: string): Page[] {
  const remaining = new Set(pages);
  const ordered: Page[] = [];
  const visit = (current: string) => {
    const children = [...remaining].filter((page) => isDirectChild(current, page)).sort(compareByOrder);
    for (const child of children) {
      if (!remaining.delete(child)) continue;
      ordered.push(child);
      visit(child.url.endsWith('/') ? child.url : `${child.url}/`);
    }
  };
  if (index && remaining.delete(index)) ordered.push(index);
  visit(folder);
  // Pages in folders without a page of their own, in URL order.
  for (const page of [...remaining].sort(compareByOrder)) {
    ordered.push(page);
    remaining.delete(page);
  }
  return ordered;
}

/** Pages grouped by their first path segment; the pages at the top level form the first group. */
export function pageSections(model: DiscoveryModel): Section[] {
  const groups = new Map<string, Page[]>();
  for (const page of model.site.pages) {
    const segments = page.url.split('/').filter((segment) => segment !== '');
    const key = segments.length <= 1 && !page.url.endsWith('/') ? '' : (segments[0] ?? '');
    // Appended in place: copying the group for each page was quadratic (seconds for 7,500 pages).
    const group = groups.get(key);
    if (group) group.push(page);
    else groups.set(key, [page]);
  }
  const sections: Section[] = [];
  for (const [key, pages] of groups) {
    const index = key === '' ? model.site.byUrl.get('/') : model.site.byUrl.get(`/${key}/`);
    sections.push({
      key,
      title: key === '' ? `About ${model.siteName}` : sectionTitle(key, index),
      pages: treeOrder(pages, index, key === '' ? '/' : `/${key}/`),
      nav: key === '' ? Number.NEGATIVE_INFINITY : (index?.nav ?? null),
    });
  }
  return sections.sort((a, b) => {
    const navA = a.nav ?? Number.POSITIVE_INFINITY;
    const navB = b.nav ?? Number.POSITIVE_INFINITY;
    if (navA !== navB) return navA < navB ? -1 : 1;
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  });
}

/**
 * The site's languages (page tags) in llms.txt order when it declares more than one (front matter
 * `lang`, language folders): its main language first (`_site.yaml` `language`, else the one with
 * the most pages), then by tag. Null for a site in one language.
 */
function siteLanguages(model: DiscoveryModel): string[] | null {
  const pagesIn = new Map<string, number>();
  const declared = new Set<string>();
  for (const page of model.site.pages) {
    pagesIn.set(page.lang, (pagesIn.get(page.lang) ?? 0) + 1);
    if (page.detectedLang === null) declared.add(page.lang);
  }
  if (declared.size < 2) return null;
  const byTag = [...pagesIn.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const siteLanguage = model.site.info.language;
  const main =
    (siteLanguage === null
      ? undefined
      : byTag.find((tag) => primaryLanguage(tag) === primaryLanguage(siteLanguage))) ??
    byTag.reduce((most, tag) => (pagesIn.get(tag)! > pagesIn.get(most)! ? tag : most));
  return [main, ...byTag.filter((tag) => tag !== main)];
}

/**
 * The sections of llms.txt and the order of llms-full.txt: on a site in several languages one per
 * language (`## Deutsch (de)`), the main language first, each holding that language's pages in
 * the order of the folder sections; otherwise the folder sections (pageSections).
 */
export function listedSections(model: DiscoveryModel): { title: string; pages: Page[] }[] {
  const sections = pageSections(model);
  const languages = siteLanguages(model);
  if (languages === null) return sections;
  const ordered = sections.flatMap((section) => section.pages);
  return languages.map((tag) => ({
    title: `${oneLine(languageName(tag))} (${tag})`,
    pages: ordered.filter((page) => page.lang === tag),
  }));
}

/**
 * One list line. The reference parser reads a title as `[^\]]+`, so a bracket cannot even be
 * escaped there: brackets in titles become parentheses.
 */
function entry(title: string, url: string, note: string): string {
  const safeTitle = oneLine(title).replace(/\[/g, '(').replace(/\]/g, ')');
  return `- ${link(safeTitle, url)}: ${oneLine(note)}`;
}

/** A level-2 section: its heading, then its list. */
function section(heading: string, lines: string[]): string {
  return [`## ${heading}`, lines.join('\n')].join('\n\n');
}

/** A section of links to the site's own documents: per link its title, path and what it is. */
function linkSection(
  model: DiscoveryModel,
  heading: string,
  links: readonly [string, string, string][],
): string {
  return section(
    heading,
    // Only documents this server serves (beside a site, its sitemap and /developers are not).
    links
      .filter(([, path]) => model.serves(path))
      .map(([title, path, note]) => entry(title, model.at(path), note)),
  );
}

/** Which operations create something, from the operations themselves (api-reference.ts). */
function writesSentence(model: DiscoveryModel): string {
  const writes = sideEffectingOperations(model);
  if (writes.length === 0) return 'No operation changes anything.';
  const what = listInWords(writes.map((op) => `${op.summary.toLowerCase()} (\`${op.method} ${op.path}\`)`));
  const count = countWord(writes.length);
  return (
    `${count.charAt(0).toUpperCase()}${count.slice(1)} ${writes.length === 1 ? 'operation creates a real submission' : 'operations create real submissions'} — ` +
    `${what} — and may be called only after the user has explicitly approved the exact data.`
  );
}

export function llmsTxt(model: DiscoveryModel): string {
  const { info } = model.site;
  const pageUrl = (page: Page) => model.at(model.markdownPathOf ? model.markdownPathOf(page.url) : page.url);
  const summary =
    oneLine(info.description) || oneLine(info.tagline) || `The public website of ${model.siteName}.`;
  const prose = [
    info.tagline && oneLine(info.tagline) !== summary ? oneLine(info.tagline) : '',
    (model.markdownPathOf
      ? 'Every page below is linked to its Markdown version. '
      : 'Every page below is linked to the page itself. ') +
      `Search the pages read-only with ` +
      `\`GET ${model.at(DISCOVERY_PATHS.ask)}?query=...\` (NLWeb). ${writesSentence(model)} ` +
      'No operation takes credentials.',
  ]
    .filter((line) => line !== '')
    .join(' ');

  const api = linkSection(model, 'API and agent guides', [
    [
      'OpenAPI contract',
      DISCOVERY_PATHS.openApi,
      'the authoritative OpenAPI 3.1 description of every operation',
    ],
    ['API reference', DISCOVERY_PATHS.apiMd, 'every operation with example requests and answers'],
    ['Guide for AI agents', DISCOVERY_PATHS.agentsMd, 'what an agent may do alone and what needs approval'],
    ['Authentication', DISCOVERY_PATHS.authMd, 'no credentials, and why the approval rule applies'],
    [
      'Agent skill: search and contact',
      skillPath(SKILL_NAME),
      'how to search the site and submit the forms with approval',
    ],
  ]);

  const sections = listedSections(model).map(({ title, pages }) =>
    section(
      title,
      pages.map((page) => entry(page.title, pageUrl(page), page.description || page.title)),
    ),
  );

  const optional = linkSection(model, 'Optional', [
    ['All pages in one file', DISCOVERY_PATHS.llmsFullTxt, 'every public page as one Markdown document'],
    ['Sitemap', DISCOVERY_PATHS.sitemap, 'every public page with its last modification date'],
    ['API catalog', DISCOVERY_PATHS.apiCatalog, 'RFC 9727 linkset pointing at the contract and the docs'],
    ['Agentic resource catalog', DISCOVERY_PATHS.ard, 'the API, the search endpoint and the skill'],
    ['Agent Skills index', DISCOVERY_PATHS.skillsIndex, 'the skills with their sha256 digests'],
    ['API reference for people', DISCOVERY_PATHS.developers, 'the same reference as HTML'],
  ]);

  return document([`# ${oneLine(model.siteName)}`, `> ${summary}`, prose, api, ...sections, optional]);
}

/** /llms-full.txt: every public page's Markdown twin in one document, in the order of llms.txt. */
export function llmsFullTxt(model: DiscoveryModel): string {
  const { info } = model.site;
  const pages = listedSections(model).flatMap((section) => section.pages);
  return document([
    `# ${oneLine(model.siteName)}`,
    `> ${oneLine(info.description) || `The public website of ${model.siteName}.`}`,
    `Every public page of ${model.publicBaseUrl} as Markdown (${pages.length} pages). Each page starts with ` +
      'its title as a level-1 heading and its address on the next line.',
    ...pages.map((page) => {
      const twin = markdownOf(page).replace(/\n+$/, '');
      const [title, ...rest] = twin.split('\n');
      return ['---', title, '', `Source: ${model.at(page.url)}`, ...rest].join('\n');
    }),
  ]);
}
