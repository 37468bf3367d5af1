/** One Markdown file → one Page: front matter, rendering, title, passages. Pure; runs in parse workers too. */

import { readPageFields, splitFrontMatter, type LineProblem } from './front-matter.js';
import { collapseWhitespace, renderMarkdown } from './markdown.js';
import { summarize } from './summary.js';
import type { Page, Passage } from './types.js';
import { urlForSourcePath } from './urls.js';
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
  lang ??= folderLanguage(file.sourcePath);
  // Detected only when nothing says; `_site.yaml` `language` may still replace it (loader.ts).
  const detectedLang =
    lang === null
      ? (detectLanguage(`${title}. ${description} ${rendered.sections[0]?.text ?? ''}`) ?? 'en')
      : null;
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
    lang: lang ?? (detectedLang as string),
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
