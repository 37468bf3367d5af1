/**
 * Markdown → HTML, headings, plain-text sections and a lead paragraph, from one markdown-it parse.
 * Pure and synchronous: the same input always gives the same output.
 */

import type { default as MarkdownItConstructor, MarkdownIt } from 'markdown-it';
import type { Token } from 'markdown-it';
import { createRequire } from 'node:module';
import { posix } from 'node:path';
import { LinkListTally } from './link-lists.js';
import { AnchorAllocator } from './slug.js';
import type { Heading } from './types.js';
import { encodePagePath, urlForSourcePath } from './urls.js';

/**
 * markdown-it, loaded on the first render: a server started from a snapshot renders nothing until
 * a page is first asked for (~0.15 s and several MB of start-up saved). Raw HTML is escaped
 * (html: false); bare URLs with a scheme become links, names that only look like domains
 * ("ASP.NET", "settings.py", even "www.example.com") do not (fuzzyLink off); quotes and dashes
 * stay as written.
 *
 * Version 14, not 15: 15's build turns class fields into a generic `_defineProperty` helper that
 * every token's dozen fields go through, and parsed the docs corpus 1.8 times slower (0.67 against
 * 0.38 s of CPU for 7,545 pages) to the same HTML, page for page (docs/benchmarks.md).
 */
let loadedParser: MarkdownIt | null = null;
function parser(): MarkdownIt {
  if (loadedParser) return loadedParser;
  const markdownIt = new (createRequire(import.meta.url)('markdown-it') as typeof MarkdownItConstructor)({
    html: false,
    linkify: true,
    typographer: false,
  });
  markdownIt.linkify.set({ fuzzyLink: false });
  return (loadedParser = keepPlainUrlsAsWritten(passOverTextWithoutLinks(markdownIt)));
}

/**
 * A URL that markdown-it's normalizeLink and normalizeLinkText give back as it is: http(s) or
 * protocol-relative, a lowercase ASCII host of short labels, no port or a numeric one, then only
 * characters that percent-encoding keeps and no `%`. Anything else (an `xn--` label, a label over
 * 63 characters or a host over 255, which mdurl cuts, `user@host`, a non-ASCII path) takes the
 * full path.
 */
const PLAIN_URL =
  /^(?:https?:)?\/\/(?!(?:[^/?#]*\.)?xn--)[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})*(?::[0-9]+)?(?:[/?#][A-Za-z0-9\-._~!$&'()*+,;=:@/?#]*)?$/;

/**
 * Every link of a page goes through normalizeLink (mdurl's parse, punycode, format and
 * percent-encoding) and every autolink's text through normalizeLinkText: ~10 µs a call, a tenth
 * of a second for the docs corpus's 17,000, for URLs that nine times in ten come back unchanged.
 * Those are recognised by PLAIN_URL and returned at once; a test compares both functions with
 * markdown-it's own on generated URLs.
 */
export function keepPlainUrlsAsWritten(markdownIt: MarkdownIt): MarkdownIt {
  const normalizeLink = markdownIt.normalizeLink.bind(markdownIt);
  const normalizeLinkText = markdownIt.normalizeLinkText.bind(markdownIt);
  markdownIt.normalizeLink = (url: string) => (isPlainUrl(url) ? url : normalizeLink(url));
  markdownIt.normalizeLinkText = (url: string) => (isPlainUrl(url) ? url : normalizeLinkText(url));
  return markdownIt;
}

const isPlainUrl = (url: string): boolean => url.length <= 255 && PLAIN_URL.test(url);

/**
 * Whether linkify can find a link in `text` with fuzzy links off: a link with one of linkify-it's
 * schemes needs `//` (after `http:`, `https:` or `ftp:`, or alone, protocol-relative) or an `@`
 * (after `mailto:`, and in a bare e-mail address).
 */
const mayHoldLink = (text: string): boolean => text.includes('//') || text.includes('@');

/**
 * markdown-it asks linkify-it's `pretest` of every paragraph, heading and table cell whether it
 * may hold a link, and that test is one regular expression over Unicode's punctuation and space
 * classes that also looks for domain-like words, which fuzzy links off never link: a tenth of the
 * parse of the docs corpus, for 95,000 blocks of which none became a link. A block that cannot
 * hold a link (mayHoldLink) is now passed over first. The answer is unchanged: linkify-it's `test`
 * then runs on the block's text tokens, which are runs of the block's own characters (entities
 * and escapes are tokens of their own at that point), and it finds a link only where `//` or `@`
 * is. Another schema added to linkify-it needs adding to mayHoldLink.
 */
export function passOverTextWithoutLinks(markdownIt: MarkdownIt): MarkdownIt {
  const { linkify } = markdownIt;
  const pretest = linkify.pretest.bind(linkify);
  linkify.pretest = (text: string) => mayHoldLink(text) && pretest(text);
  return markdownIt;
}

export interface RenderOptions {
  /**
   * The file's path relative to the content folder (`/` separators). Relative links to `.md`
   * files are resolved against it and rewritten to page URLs; without it they stay as written.
   */
  sourcePath?: string;
  /** Take the first level-1 heading as the title and leave it out of the HTML and sections. */
  titleFromHeading?: boolean;
  /**
   * The title when it is already known (from front matter): a level-1 heading opening the body
   * with the same text only repeats it, so it is left out like a heading taken as the title.
   */
  knownTitle?: string;
  /** Element ids the surrounding layout uses (`main`, a form's id): headings get another anchor. */
  reservedAnchors?: Iterable<string>;
  /** False to leave the HTML out (html is then ''): loading a page needs only the rest. */
  html?: boolean;
}

/** The text between two splitting headings (levels 2–3 at the top level of the document). */
export interface RenderedSection {
  /** null for the lead text before the first splitting heading. */
  anchor: string | null;
  /** 2 or 3 for a heading section; null for the lead. */
  level: number | null;
  heading: string | null;
  /** Plain text, one line per block (paragraph, list item, code block, table row, minor heading). */
  text: string;
}

/** A relative link to a `.md` file that was rewritten to a page URL. */
export interface MarkdownLink {
  /** The target file relative to the content folder. */
  targetSourcePath: string;
  /** 0-based line of the block holding the link, within the rendered Markdown string. */
  line: number | null;
}

export interface RenderedMarkdown {
  html: string;
  /** Every heading left in the body, in order, with its unique anchor (level-1 headings become 2). */
  headings: Heading[];
  sections: RenderedSection[];
  /** The plain text of the heading taken as (or repeating) the title and left out, else null. */
  headingTitle: string | null;
  /** 0-based [start, end) lines of that heading in the input, so the caller can cut it from the body. */
  headingTitleLines: [number, number] | null;
  /** Plain text of the first paragraph (at the top level or in a blockquote), for a description. */
  leadParagraph: string;
  links: MarkdownLink[];
  /** The anchors of the sections that are link lists (null for the text before the first heading). */
  linkListAnchors: (string | null)[];
}

/** Renders one Markdown string (no front matter) with the site's rules. */
export function renderMarkdown(markdown: string, options: RenderOptions = {}): RenderedMarkdown {
  const markdownIt = parser();
  const tokens = markdownIt.parse(markdown, {});

  const isTitleHeading = (token: Token | undefined, i: number) =>
    token?.type === 'heading_open' &&
    token.tag === 'h1' &&
    token.level === 0 &&
    collapseWhitespace(inlineText(tokens[i + 1])) !== '';
  let titleIndex = -1;
  if (options.titleFromHeading) titleIndex = tokens.findIndex(isTitleHeading);
  else if (
    options.knownTitle !== undefined &&
    isTitleHeading(tokens[0], 0) &&
    collapseWhitespace(inlineText(tokens[1])) === collapseWhitespace(options.knownTitle)
  )
    titleIndex = 0;
  let headingTitle: string | null = null;
  let headingTitleLines: [number, number] | null = null;
  if (titleIndex >= 0) {
    const open = tokens[titleIndex]!;
    headingTitle = collapseWhitespace(inlineText(tokens[titleIndex + 1]));
    headingTitleLines = open.map ? [open.map[0], open.map[1]] : null;
    tokens.splice(titleIndex, 3);
  }

  const anchors = new AnchorAllocator(options.reservedAnchors);
  const headings: Heading[] = [];
  const sections: RenderedSection[] = [];
  const links: MarkdownLink[] = [];
  let current: { anchor: string | null; level: number | null; heading: string | null; lines: string[] } = {
    anchor: null,
    level: null,
    heading: null,
    lines: [],
  };
  let leadParagraph: string | null = null;
  // Containers the walk is inside (their opening token types), to tell a top-level paragraph from
  // one in a list or table.
  const containers: string[] = [];
  let tableRow: string[] | null = null;
  let blockLine: number | null = null;
  const linkLists = new LinkListTally();
  // The inline token holding the heading's own text, which is not its section's.
  let headingText = -1;

  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.map) blockLine = token.map[0];
    if (token.type === 'inline' && i !== headingText) tallyInline(token, linkLists);
    else if (token.type === 'fence' || token.type === 'code_block') linkLists.text(token.content, false);
    switch (token.type) {
      case 'heading_open': {
        // The page title is the only h1 on a page: a body h1 is a section heading.
        if (token.tag === 'h1') {
          token.tag = 'h2';
          const close = tokens[i + 2];
          if (close?.type === 'heading_close') close.tag = 'h2';
        }
        const level = Number(token.tag.slice(1));
        const text = collapseWhitespace(inlineText(tokens[i + 1]));
        const anchor = anchors.allocate(text);
        token.attrSet('id', anchor);
        headings.push({ level, text, anchor });
        linkLists.heading(anchor);
        headingText = i + 1;
        if (token.level === 0 && level <= 3) {
          sections.push(finishSection(current));
          current = { anchor, level, heading: text, lines: [] };
          rewriteLinks(tokens[i + 1], options, blockLine, links);
          // The heading's text names the section and is not part of its text; skipping the
          // closing token too keeps the container stack balanced.
          i += 2;
          continue;
        }
        break;
      }
      case 'inline': {
        rewriteLinks(token, options, blockLine, links);
        const text = collapseWhitespace(inlineText(token));
        if (tableRow) tableRow.push(text);
        else if (text !== '') current.lines.push(text);
        if (
          leadParagraph === null &&
          containers.at(-1) === 'paragraph_open' &&
          containers.slice(0, -1).every((kind) => kind === 'blockquote_open') &&
          text !== ''
        )
          leadParagraph = text;
        break;
      }
      case 'fence':
      case 'code_block': {
        const code = token.content.replace(/\s+$/, '');
        if (code !== '') current.lines.push(code);
        break;
      }
      case 'tr_open':
        tableRow = [];
        break;
      case 'tr_close':
        if (tableRow && tableRow.some((cell) => cell !== '')) current.lines.push(tableRow.join(' · '));
        tableRow = null;
        break;
      case 'th_open':
      case 'td_open':
        alignmentToClass(token);
        break;
      default:
        break;
    }
    if (token.nesting === 1) containers.push(token.type);
    else if (token.nesting === -1) containers.pop();
  }
  sections.push(finishSection(current));

  return {
    html: options.html === false ? '' : markdownIt.renderer.render(tokens, markdownIt.options, {}),
    headings,
    sections,
    headingTitle,
    headingTitleLines,
    leadParagraph: leadParagraph ?? '',
    links,
    linkListAnchors: linkLists.anchors(),
  };
}

/** Counts an inline token's shown text and links for the link-list tally (image alt text is not shown). */
function tallyInline(inline: Token, tally: LinkListTally): void {
  let inLink = false;
  for (const child of inline.children ?? []) {
    switch (child.type) {
      case 'link_open':
        tally.link();
        inLink = true;
        break;
      case 'link_close':
        inLink = false;
        break;
      case 'text':
      case 'text_special':
      case 'code_inline':
        tally.text(child.content, inLink);
        break;
      default:
        break;
    }
  }
}

function finishSection(section: {
  anchor: string | null;
  level: number | null;
  heading: string | null;
  lines: string[];
}): RenderedSection {
  return {
    anchor: section.anchor,
    level: section.level,
    heading: section.heading,
    text: section.lines.join('\n'),
  };
}

/** Plain text of an inline token: no Markdown syntax, link texts kept, image alt texts kept. */
function inlineText(token: Token | undefined): string {
  if (!token?.children) return token?.content ?? '';
  let text = '';
  for (const child of token.children) {
    switch (child.type) {
      case 'text':
      case 'text_special':
      case 'code_inline':
      case 'image':
        // An image token's content is its alt text.
        text += child.content;
        break;
      case 'softbreak':
      case 'hardbreak':
        text += ' ';
        break;
      default:
        break;
    }
  }
  return text;
}

/** Whitespace that collapseWhitespace would change: any but a lone space between two words. */
const UNCOLLAPSED_RE = /[^\S ]| {2}|^ | $/;

export function collapseWhitespace(text: string): string {
  // Most text (a paragraph's, a heading's) has nothing to collapse: a test is cheaper than a copy.
  return UNCOLLAPSED_RE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** External links get rel="noopener"; relative links to `.md` sources point at the page URL. */
function rewriteLinks(
  inline: Token | undefined,
  options: RenderOptions,
  line: number | null,
  links: MarkdownLink[],
): void {
  for (const child of inline?.children ?? []) {
    if (child.type !== 'link_open') continue;
    const href = String(child.attrGet('href') ?? '');
    if (/^https?:/i.test(href) || href.startsWith('//')) {
      child.attrSet('rel', 'noopener');
      continue;
    }
    if (options.sourcePath === undefined || SCHEME.test(href) || /^[/#?]/.test(href)) continue;
    const rewritten = resolveSourceLink(href, options.sourcePath);
    if (!rewritten) continue;
    child.attrSet('href', rewritten.href);
    links.push({ targetSourcePath: rewritten.targetSourcePath, line });
  }
}

/**
 * `other.md#part` written in `guides/intro.md` → `/guides/other#part`. Links that leave the
 * content folder or do not name a `.md` file are not rewritten (null).
 */
export function resolveSourceLink(
  href: string,
  fromSourcePath: string,
): { href: string; targetSourcePath: string } | null {
  const match = /^([^?#]*)([?#].*)?$/.exec(href);
  const rawPath = match?.[1] ?? '';
  const rest = match?.[2] ?? '';
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (!path.endsWith('.md')) return null;
  const target = posix.normalize(posix.join(posix.dirname(fromSourcePath), path));
  if (target === '..' || target.startsWith('../') || target.startsWith('/')) return null;
  return { href: encodePagePath(urlForSourcePath(target)) + rest, targetSourcePath: target };
}

/** markdown-it aligns table cells with a style attribute, which the site's CSP forbids. */
function alignmentToClass(token: Token): void {
  const style = token.attrGet('style');
  if (style === null) return;
  const alignment = /text-align:\s*(left|center|right)/.exec(String(style))?.[1];
  token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
  if (alignment) token.attrJoin('class', `align-${alignment}`);
}
