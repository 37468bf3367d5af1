import { collapseWhitespace, renderMarkdown } from './markdown.js';
import type { Page } from './types.js';

/**
 * The page's Markdown twin (served at the page URL + `.md`, for `Accept: text/markdown`, and in
 * llms-full.txt): `# Title`, the description as a `> ` line, then the body without front matter.
 * The description line is left out when it was derived from the body's first paragraph, which
 * the body already holds. Relative `.md` links stay as written: beside the twin they still resolve
 * (`other.md` next to `/guides/intro.md` is `/guides/other.md`, the other page's twin), provided a
 * folder's index twin is served at `<folder>/index.md`.
 */
export function markdownOf(page: Page): string {
  const parts = [`# ${page.title}`];
  const givenDescription = page.frontMatter.description;
  if (typeof givenDescription === 'string' && collapseWhitespace(givenDescription) === page.description)
    parts.push(`> ${page.description}`);
  const body = page.markdown.replace(/^(\s*\n)+/, '').trimEnd();
  if (body !== '') parts.push(body);
  return `${parts.join('\n\n')}\n`;
}

/**
 * The page's body as HTML, without the title (raw HTML in the source escaped, headings with `id`
 * anchors, table alignment as `align-left|center|right` classes): the same HTML the loader's parse
 * produced, rendered again from `page.markdown`. Pass the loader's `reservedAnchors` if it had any.
 */
export function htmlOf(page: Page, options: { reservedAnchors?: readonly string[] } = {}): string {
  return renderMarkdown(page.markdown, {
    sourcePath: page.sourcePath,
    reservedAnchors: options.reservedAnchors,
  }).html;
}
