/**
 * One Markdown or built HTML file → one Page: front matter (or head tags), rendering, title,
 * passages. Pure; runs in parse workers too.
 */

import { readPageFields, splitFrontMatter, type LineProblem } from './front-matter.js';
import { extractHtml, MAX_HTML_LENGTH, type HtmlOptions, type HtmlSection } from './html-page.js';
import { collapseWhitespace, renderMarkdown } from './markdown.js';
import { summarize } from './summary.js';
import type { Page, Passage } from './types.js';
import { isHtmlSource, urlForHtmlSourcePath, urlForSourcePath } from './urls.js';
import { detectLanguage, folderLanguage, languageTag } from '../language/index.js';

export interface SourceFile {
  sourcePath: string;
  text: string;
  /** The file's modification day (YYYY-MM-DD, UTC). */
  modifiedDay: string;
  /** SHA-256 (hex) of the text and the modification day: equal digests, equal page. */
  digest: string;
  /**
   * The file as it was read (device, inode, size, modification and change times; see read.ts):
   * the next read of the folder skips the file while its stamp is the same. Absent when the file
   * had changed too recently for the stamp to be trusted.
   */
  stamp?: string;
}

export interface PageOptions {
  /** Element ids the page layout itself uses; see LoadOptions. */
  reservedAnchors?: readonly string[];
  /** Where the text of built HTML pages is (HtmlOptions.bodySelector): CONTENT_HTML_BODY. */
  htmlBodySelector?: string;
}

/**
 * One file → one page, or null when an error makes the page unusable. The source paths the page
 * links to are added to `linkTargets` (whether they exist or not), so a rebuild can tell when a
 * page's "leads nowhere" warnings would change.
 */
export function buildPage(
  file: SourceFile,
  sourceSet: ReadonlySet<string>,
  options: PageOptions,
  report: (problem: LineProblem) => void,
  linkTargets: string[] = [],
): Page | null {
  // A hostile file (20,000 repeats of one key) must not write 20,000 log lines at every reload.
  let count = 0;
  let error = false;
  const page = buildUncappedPage(
    file,
    sourceSet,
    options,
    (problem) => {
      count++;
      error ||= problem.severity === 'error';
      if (count <= MAX_PROBLEMS_PER_FILE) report(problem);
    },
    linkTargets,
  );
  if (count > MAX_PROBLEMS_PER_FILE)
    report({
      line: null,
      message: `and ${count - MAX_PROBLEMS_PER_FILE} more problems in this file, not listed: correct the ones above and check again`,
      severity: error ? 'error' : 'warning',
    });
  return page;
}

/** The problems listed for one file; a count stands for the rest. */
export const MAX_PROBLEMS_PER_FILE = 50;

function buildUncappedPage(
  file: SourceFile,
  sourceSet: ReadonlySet<string>,
  options: PageOptions,
  report: (problem: LineProblem) => void,
  linkTargets: string[],
): Page | null {
  if (isHtmlSource(file.sourcePath))
    return buildHtmlPage(file, sourceSet, { bodySelector: options.htmlBodySelector }, report, linkTargets);
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
    html: false,
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
  for (const link of rendered.links) linkTargets.push(link.targetSourcePath);
  for (const link of rendered.links)
    if (!sourceSet.has(link.targetSourcePath))
      report({
        line: link.line === null ? null : split.bodyStartLine + link.line,
        message: `the link to ${link.targetSourcePath} leads nowhere: there is no such page in the content folder`,
        severity: 'warning',
      });

  const url = urlForSourcePath(file.sourcePath);
  const description = fields.description ?? summarize(rendered.leadParagraph);
  let lang: string | null = null;
  const written = split.data.lang;
  if (written !== undefined && written !== null) {
    lang = typeof written === 'string' ? languageTag(written) : null;
    if (lang === null)
      report({
        line: split.keyLines.get('lang') ?? 1,
        message: '`lang` must be a BCP 47 language tag such as en, de or pt-BR; it is ignored',
        severity: 'warning',
      });
  }
  const { lang: pageLang, detectedLang } = languageOf(
    lang,
    file.sourcePath,
    `${title}. ${description} ${rendered.sections[0]?.text ?? ''}`,
  );
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
    headings: rendered.headings,
    passages: buildPassages(url, title, description, rendered.sections),
    linkListAnchors: rendered.linkListAnchors,
    lang: pageLang,
    detectedLang,
    frontMatter: split.data,
  };
}

/**
 * The body without the heading that became the title, so a Markdown twin does not repeat it. A
 * heading inside the text leaves an empty line, so the blocks around it stay apart (a paragraph
 * before it and one after do not merge): rendering this body gives the page's HTML (htmlOf).
 */
function removeLines(body: string, lines: [number, number] | null): string {
  if (!lines) return body;
  const all = body.split('\n');
  all.splice(lines[0], lines[1] - lines[0], '');
  return all.join('\n').replace(/^\s*\n/, '');
}

function buildPassages(
  url: string,
  title: string,
  description: string,
  sections: readonly { heading: string | null; level: number | null; anchor: string | null; text: string }[],
): Passage[] {
  const passages: Passage[] = [];
  let sectionHeading: string | null = null;
  for (const section of sections) {
    let headingPath: string[];
    if (section.heading === null) headingPath = [title];
    else if (section.level === 2) {
      sectionHeading = section.heading;
      headingPath = [title, section.heading];
    } else
      headingPath =
        sectionHeading === null ? [title, section.heading] : [title, sectionHeading, section.heading];
    // Collapsed: search and snippets read words, not line breaks, and the ask service quotes this
    // very string instead of keeping a collapsed copy of every passage. Line by line: most lines
    // are a block's text, collapsed already (what collapseWhitespace of the whole would give).
    const text = section.text
      .split('\n')
      .map(collapseWhitespace)
      .filter((line) => line !== '')
      .join(' ');
    if (text === '') continue;
    passages.push({
      key: section.anchor === null ? url : `${url}#${section.anchor}`,
      pageUrl: url,
      anchor: section.anchor,
      headingPath,
      text,
    });
  }
  // Every page stays findable, even one that is only a title and a description.
  if (passages.length === 0)
    passages.push({ key: url, pageUrl: url, anchor: null, headingPath: [title], text: description || title });
  return passages;
}

/**
 * A page's language: the one it declares (front matter `lang`, `<html lang>`), else its top
 * folder's; detected from `sample` only when nothing says (`_site.yaml` `language` may still
 * replace a detected one, loader.ts).
 */
function languageOf(
  declared: string | null,
  sourcePath: string,
  sample: string,
): { lang: string; detectedLang: string | null } {
  const said = declared ?? folderLanguage(sourcePath);
  if (said !== null) return { lang: said, detectedLang: null };
  const detected = detectLanguage(sample) ?? 'en';
  return { lang: detected, detectedLang: detected };
}

/**
 * One built HTML file → one page, or null when it is not one to index: `noindex`, a redirect stub
 * (its target is a page of its own), the host's 404 page, or a document without a title.
 */
function buildHtmlPage(
  file: SourceFile,
  sourceSet: ReadonlySet<string>,
  options: HtmlOptions,
  report: (problem: LineProblem) => void,
  linkTargets: string[],
): Page | null {
  if (file.text.length > MAX_HTML_LENGTH) {
    report({
      line: null,
      message: `the file is larger than ${MAX_HTML_LENGTH / 1024 / 1024} MB; the page is skipped`,
      severity: 'error',
    });
    return null;
  }
  if (/(^|\/)404\.html?$/i.test(file.sourcePath)) return null;
  let extracted: ReturnType<typeof extractHtml>;
  try {
    extracted = extractHtml(file.text, `/${file.sourcePath}`, options, report);
  } catch (error) {
    // parse5 reads any string; this is a guard so that one file can never stop a load.
    report({
      line: null,
      message: `the HTML could not be read (${error instanceof Error ? error.message : String(error)}); the page is skipped`,
      severity: 'error',
    });
    return null;
  }
  if (extracted.noindex || extracted.redirectTo !== null) return null;
  const title = extracted.title;
  if (title === null) {
    report({
      line: null,
      message: 'not indexed: the HTML has no <title> and no <h1>; add one of them',
      severity: 'warning',
    });
    return null;
  }
  const url =
    extracted.canonicalPath ??
    urlForHtmlSourcePath(file.sourcePath, usesCleanUrls(file, extracted.links, sourceSet, linkTargets));
  const sections = extracted.sections.map((section) => ({
    anchor: section.anchor,
    level: section.anchor === null ? null : section.level,
    heading: section.heading,
    text: section.blocks.map((block) => block.text).join('\n'),
  }));
  const firstText = extracted.sections.flatMap((s) => s.blocks).find((b) => b.kind === 'text')?.text ?? '';
  const description = extracted.description ?? summarize(firstText);
  return {
    url,
    sourcePath: file.sourcePath,
    title,
    description,
    date: extracted.datePublished,
    lastModified: extracted.dateModified ?? extracted.datePublished ?? file.modifiedDay,
    tags: [],
    keywords: [],
    aliases: [],
    nav: null,
    order: null,
    form: null,
    markdown: markdownBody(extracted.sections),
    headings: extracted.headings,
    passages: buildPassages(url, title, description, sections),
    linkListAnchors: extracted.sections
      .filter((s) => s.links >= 2 && s.linkLength * 2 >= s.blocks.reduce((n, b) => n + b.text.length, 0))
      .map((s) => s.anchor),
    frontMatter: extracted.description !== null ? { description: extracted.description } : {},
    ...languageOf(
      extracted.lang === null ? null : languageTag(extracted.lang),
      file.sourcePath,
      `${title}. ${description} ${firstText}`,
    ),
    ...(extracted.jsonLd.length > 0 ? { schemaOrg: extracted.jsonLd } : {}),
  };
}

/**
 * Whether the site links `a.html` as `/a` (VitePress's cleanUrls, Docusaurus's, most hosts'
 * "pretty URLs"): more of the page's links to other HTML files leave the extension out than keep it.
 */
function usesCleanUrls(
  file: SourceFile,
  links: readonly string[],
  sourceSet: ReadonlySet<string>,
  linkTargets: string[],
): boolean {
  if (/(^|\/)index\.html?$/i.test(file.sourcePath)) return false;
  let clean = 0;
  let withExtension = 0;
  for (const link of links) {
    const path = link.slice(1);
    if (path === '' || path.endsWith('/')) continue;
    if (isHtmlSource(path)) {
      linkTargets.push(path);
      if (sourceSet.has(path)) withExtension++;
    } else {
      linkTargets.push(`${path}.html`);
      if (sourceSet.has(`${path}.html`)) clean++;
    }
  }
  return clean > withExtension;
}

/** The page's Markdown twin body: each section's heading and blocks (list items, code fenced). */
function markdownBody(sections: readonly HtmlSection[]): string {
  const parts: string[] = [];
  for (const section of sections) {
    if (section.heading !== null) parts.push(`${'#'.repeat(section.level)} ${section.heading}`);
    for (const block of section.blocks) {
      if (block.kind === 'code') {
        const fence = '`'.repeat(Math.max(3, ...[...block.text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
        parts.push(`${fence}\n${block.text}\n${fence}`);
      } else {
        // Text that would read as Markdown syntax at the start of a line is escaped.
        const text = block.text.replace(/^([#>+*-]|\d+[.)])/, '\\$1');
        parts.push(block.kind === 'item' ? `- ${text}` : text);
      }
    }
  }
  return parts.join('\n\n');
}
