/**
 * One built HTML file (the output of a static site generator: MkDocs, Docusaurus, VitePress, Hugo,
 * Sphinx, …) → the facts a Page is made of: its address, title, description, dates, language,
 * schema.org JSON-LD, and the text of its main content split at its headings. Pure; runs in parse
 * workers too.
 *
 * The parser is parse5: it builds the tree exactly as the WHATWG HTML standard (and so a browser)
 * does, broken markup included, and was as fast as htmlparser2 + domhandler on real generator
 * output (docs/content.md, "Built HTML": `npx tsx bench/html-parsers.ts`).
 *
 * More than 500 lines on purpose: the rules (which element is the main content, what is left
 * out, where a section's anchor is) are one pass over one tree and share its walkers.
 */

import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import type { LineProblem } from './front-matter.js';
import type { Heading } from './types.js';

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

/** Largest JSON-LD kept per page (serialised, in UTF-16 code units): results carry it to every client. */
export const MAX_JSON_LD_LENGTH = 8192;
/** Larger HTML files are not read: no docs page comes near, and parsing one would stall a load. */
export const MAX_HTML_LENGTH = 8 * 1024 * 1024;

export interface HtmlOptions {
  /**
   * Where the owner says the text is: simple selectors (`tag`, `#id`, `.class`, `[attr]`,
   * `[attr=value]`, combined as `div.content`, several separated by commas). Tried after
   * `[data-frontdoor-body]`, before `<main>`.
   */
  bodySelector?: string;
}

/** A block of a section's text, as the Markdown twin writes it. */
export interface HtmlBlock {
  kind: 'text' | 'item' | 'code';
  text: string;
}

export interface HtmlSection {
  /** null for the text before the first heading. */
  anchor: string | null;
  heading: string | null;
  level: number;
  blocks: HtmlBlock[];
  /** Characters of its text inside links (for link-list sections). */
  linkLength: number;
  links: number;
}

/** What the whole document says about the page, beside its text (its head, JSON-LD, ids, dates). */
export interface HtmlHead {
  /** `<title>` as written. */
  title: string | null;
  /** og:site_name or application-name. */
  siteName: string | null;
  description: string | null;
  datePublished: string | null;
  dateModified: string | null;
  lang: string | null;
  /** Decoded path of `<link rel="canonical">`, when it has one. */
  canonicalPath: string | null;
  noindex: boolean;
  /** Target of a meta-refresh redirect stub (resolved against the page's path), else null. */
  redirectTo: string | null;
  jsonLd: Record<string, unknown>[];
  /** Every element id (and `<a name>`) in the document. */
  ids: Set<string>;
}

export interface HtmlExtraction extends Omit<HtmlHead, 'siteName'> {
  /** The title without the site's name (pageTitle). */
  title: string | null;
  headings: Heading[];
  sections: HtmlSection[];
  /** Local link targets, resolved to decoded site paths without query or fragment. */
  links: string[];
}

/** Elements whose content is never page text. */
const SKIPPED_TAGS = new Set([
  'script',
  'style',
  'template',
  'svg',
  'math',
  'noscript',
  'nav',
  'aside',
  'form',
  'button',
  'select',
  'textarea',
  'input',
  'label',
  'iframe',
  'object',
  'embed',
  'canvas',
  'dialog',
  'footer',
  'head',
  'link',
  'meta',
  'title',
]);
/** Landmarks that are not the page's own text. */
const SKIPPED_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
]);
/** Class or id words of sidebars, tables of contents, breadcrumbs, cookie banners and the like. */
const SKIPPED_NAME_RE =
  /sidebar|breadcrumb|cookie|consent|gdpr|skip-?link|skip-?to|table-?of-?contents|tableofcontents|(?:^|[-_])toc(?:$|[-_])|^toc|edit-?this-?page|pagination|prev-?next|headerlink|header-anchor|hash-link/i;
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'blockquote',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'header',
  'hr',
  'li',
  'main',
  'ol',
  'p',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'ul',
  'br',
]);
const HEADING_RE = /^h[1-6]$/;
/** Elements inside which a `<header>` is the content's own (a Docusaurus article's title), not the site's banner. */
const SECTIONING = new Set(['article', 'main', 'section']);

function attr(element: Element, name: string): string | null {
  for (const a of element.attrs) if (a.name === name) return a.value;
  return null;
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function childrenOf(node: ParentNode | Element): Node[] {
  // A template's content is a separate fragment, never page text (and never walked).
  return node.childNodes;
}

/** All the text below a node, whitespace collapsed, skipping what `skip` says. */
function textOf(node: Node, skip: (element: Element) => boolean = () => false): string {
  let out = '';
  const walk = (n: Node): void => {
    if (n.nodeName === '#text') out += (n as DefaultTreeAdapterTypes.TextNode).value;
    else if (isElement(n)) {
      if (skip(n)) return;
      if (BLOCK_TAGS.has(n.tagName)) out += ' ';
      for (const child of childrenOf(n)) walk(child);
      if (BLOCK_TAGS.has(n.tagName)) out += ' ';
    }
  };
  walk(node);
  return collapse(out);
}

/** Whitespace collapsed, zero-width characters (the invisible text of permalink anchors) removed. */
function collapse(text: string): string {
  return text
    .replace(/[\u200b\u2060\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** YYYY-MM-DD of an ISO date or date-time (or any date Date.parse reads), else null. */
export function dayOf(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T\s])/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const time = Date.parse(text);
  if (Number.isNaN(time)) return null;
  const day = new Date(time).toISOString().slice(0, 10);
  return /^\d{4}-/.test(day) ? day : null;
}

/** A link's path on the site, decoded and NFC, without query and fragment; null when it leaves the site. */
export function localPath(href: string, pagePath: string): string | null {
  const base = new URL(pagePath, 'http://site.invalid');
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  return decodePath(url.pathname);
}

function decodePath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/')
    .normalize('NFC');
}

/** A compound selector: `div.content#x[data-a=b]`. */
interface SimpleSelector {
  tag: string | null;
  id: string | null;
  classes: string[];
  attrs: { name: string; value: string | null }[];
}

/** The problem with a CONTENT_HTML_BODY selector, or null when it can be read. */
export function selectorProblem(list: string): string | null {
  const selectors = parseSelectors(list);
  return typeof selectors === 'string' ? `CONTENT_HTML_BODY: ${selectors}; it is not used` : null;
}

/** The selectors of `list` (comma-separated), or a message saying what is wrong with it. */
export function parseSelectors(list: string): SimpleSelector[] | string {
  const out: SimpleSelector[] = [];
  for (const raw of list.split(',')) {
    const text = raw.trim();
    const re = /([a-zA-Z][\w-]*)|#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|([\w-]+)))?\]/gy;
    const selector: SimpleSelector = { tag: null, id: null, classes: [], attrs: [] };
    let at = 0;
    for (let m = re.exec(text); m !== null && m.index === at; m = re.exec(text)) {
      at = re.lastIndex;
      if (m[1] !== undefined) selector.tag = m[1].toLowerCase();
      else if (m[2] !== undefined) selector.id = m[2];
      else if (m[3] !== undefined) selector.classes.push(m[3]);
      else selector.attrs.push({ name: m[4]!.toLowerCase(), value: m[5] ?? m[6] ?? m[7] ?? null });
    }
    if (text === '' || at !== text.length)
      return `"${text}" is not a selector this server reads: use tag, #id, .class, [attr] or [attr=value], combined (div.content) or separated by commas`;
    out.push(selector);
  }
  return out;
}

function matches(element: Element, selector: SimpleSelector): boolean {
  if (selector.tag !== null && element.tagName !== selector.tag) return false;
  if (selector.id !== null && attr(element, 'id') !== selector.id) return false;
  if (selector.classes.length > 0) {
    const classes = (attr(element, 'class') ?? '').split(/\s+/);
    if (!selector.classes.every((c) => classes.includes(c))) return false;
  }
  return selector.attrs.every(({ name, value }) => {
    const actual = attr(element, name);
    return actual !== null && (value === null || actual === value);
  });
}

/** Elements matching `test`, outermost only (one inside another found is not listed again), in document order. */
function findAll(root: Node, test: (element: Element) => boolean): Element[] {
  const found: Element[] = [];
  const walk = (node: Node): void => {
    if (!isElement(node) && node.nodeName !== '#document') return;
    if (isElement(node) && test(node)) {
      found.push(node);
      return;
    }
    for (const child of childrenOf(node as ParentNode)) walk(child);
  };
  walk(root);
  return found;
}

function isSkipped(element: Element, insideSectioning: boolean): boolean {
  const tag = element.tagName;
  if (SKIPPED_TAGS.has(tag)) return true;
  if (tag === 'header' && !insideSectioning) return true;
  if (element.attrs.length === 0) return false;
  if (attr(element, 'data-frontdoor-ignore') !== null || attr(element, 'data-pagefind-ignore') !== null)
    return true;
  if (attr(element, 'hidden') !== null || attr(element, 'aria-hidden') === 'true') return true;
  const role = attr(element, 'role');
  if (role !== null && SKIPPED_ROLES.has(role.trim().toLowerCase())) return true;
  const names = `${attr(element, 'class') ?? ''} ${attr(element, 'id') ?? ''}`.trim();
  return names !== '' && names.split(/\s+/).some((name) => SKIPPED_NAME_RE.test(name));
}

/**
 * Reads one HTML document. `pagePath` is the path the file is served at (for relative links and
 * the redirect target). Never throws on bad markup: parse5 repairs it as a browser would; what it
 * had to repair is reported as one warning.
 */
export function extractHtml(
  html: string,
  pagePath: string,
  options: HtmlOptions,
  report: (problem: LineProblem) => void,
): HtmlExtraction {
  const document = parse(html);
  if (mayBeBroken(html)) {
    // Again with error reporting, which makes parse5 record every node's source location (a
    // third of a page's parsing time): only for files that do not end as a whole document does.
    const parseErrors: { code: string; line: number }[] = [];
    parse(html, { onParseError: (error) => parseErrors.push({ code: error.code, line: error.startLine }) });
    reportParseErrors(parseErrors, report);
  }

  const head = readHead(document, pagePath, report);
  const root = contentRoots(document, options);
  const body = readBody(root, head.ids, pagePath);
  const { siteName, ...rest } = head;
  return {
    ...rest,
    title: pageTitle(head.title, body.h1, siteName),
    headings: body.headings,
    sections: body.sections,
    links: body.links,
  };
}

/**
 * Whether the markup may be cut off or swallowed: it does not end with `</html>`, or a comment is
 * left open. Generators end every page with `</html>`; a file cut short (a failed upload, a full
 * disk) or an unclosed comment or tag, the breakages that hide part of a page, fail this test.
 */
function mayBeBroken(html: string): boolean {
  if (!/<\/html>\s*$/i.test(html.slice(-4096))) return true;
  const opened = html.split('<!--').length;
  return opened > 1 && opened > html.split('-->').length;
}

/**
 * Errors a browser repairs silently but that change what the page shows (a tag never closed, text
 * cut off by the end of the file): one warning per file, with the count and the first of them.
 * Errors that change nothing a reader sees (a missing doctype, a duplicate attribute, a stray end
 * tag of an element that was never open) are too common in generated HTML to be worth a line each.
 */
const HARMLESS_PARSE_ERRORS = new Set([
  'missing-doctype',
  'duplicate-attribute',
  'end-tag-without-matching-open-element',
  'non-void-html-element-start-tag-with-trailing-solidus',
  'unexpected-character-in-attribute-name',
  'missing-whitespace-between-attributes',
  'non-conforming-doctype',
  'unexpected-null-character',
  'control-character-in-input-stream',
  'noncharacter-in-input-stream',
  'surrogate-in-input-stream',
  'missing-semicolon-after-character-reference',
  'unknown-named-character-reference',
]);

function reportParseErrors(errors: { code: string; line: number }[], report: (problem: LineProblem) => void) {
  const serious = errors.filter((error) => !HARMLESS_PARSE_ERRORS.has(error.code));
  if (serious.length === 0) return;
  const first = serious[0]!;
  report({
    line: first.line,
    message: `the HTML is malformed (${first.code}${serious.length > 1 ? ` and ${serious.length - 1} more` : ''}); it was read as a browser reads it, check that the page shows what you meant`,
    severity: 'warning',
  });
}

const MODIFIED_CLASS_RE = /last-?updated|last-?mod|modified|updated/i;
const PUBLISHED_CLASS_RE = /published|post-?date|pubdate/i;

/** One pass over the whole document for what is not body text: head tags, JSON-LD, ids, dates. */
function readHead(
  document: DefaultTreeAdapterTypes.Document,
  pagePath: string,
  report: (problem: LineProblem) => void,
): HtmlHead {
  const facts: HtmlHead = {
    title: null,
    siteName: null,
    description: null,
    datePublished: null,
    dateModified: null,
    lang: null,
    canonicalPath: null,
    noindex: false,
    redirectTo: null,
    jsonLd: [],
    ids: new Set(),
  };
  const meta = new Map<string, string>();
  let ogDescription: string | null = null;
  let timeModified: string | null = null;
  let timePublished: string | null = null;
  let jsonLdLength = 0;
  const walk = (node: Node, context: string): void => {
    if (!isElement(node)) {
      if (node.nodeName === '#document')
        for (const child of childrenOf(node as ParentNode)) walk(child, context);
      return;
    }
    const tag = node.tagName;
    const id = attr(node, 'id');
    if (id !== null && id !== '') facts.ids.add(id);
    if (tag === 'a') {
      const name = attr(node, 'name');
      if (name !== null && name !== '') facts.ids.add(name);
    }
    if (tag === 'html') {
      const lang = attr(node, 'lang')?.trim();
      if (lang) facts.lang = lang;
    } else if (tag === 'title' && facts.title === null) {
      facts.title = textOf(node) || null;
    } else if (tag === 'meta') {
      const key = (
        attr(node, 'name') ??
        attr(node, 'property') ??
        attr(node, 'itemprop') ??
        ''
      ).toLowerCase();
      const content = attr(node, 'content');
      const equiv = attr(node, 'http-equiv')?.toLowerCase();
      if (equiv === 'refresh' && content !== null && facts.redirectTo === null) {
        const target = /url\s*=\s*['"]?([^'"]+)/i.exec(content)?.[1]?.trim();
        if (target) facts.redirectTo = localPath(target, pagePath) ?? target;
      }
      if (key !== '' && content !== null && !meta.has(key)) meta.set(key, content);
      if (key === 'og:description' && content !== null) ogDescription ??= content;
    } else if (tag === 'link') {
      const rel = (attr(node, 'rel') ?? '').toLowerCase().split(/\s+/);
      const href = attr(node, 'href');
      if (rel.includes('canonical') && href !== null && facts.canonicalPath === null)
        facts.canonicalPath = canonicalPathOf(href, pagePath);
    } else if (tag === 'script') {
      if ((attr(node, 'type') ?? '').trim().toLowerCase() === 'application/ld+json') {
        const kept = readJsonLd(textOf(node), MAX_JSON_LD_LENGTH - jsonLdLength, report);
        for (const value of kept) {
          jsonLdLength += JSON.stringify(value).length;
          facts.jsonLd.push(value);
        }
      }
      return;
    } else if (tag === 'time') {
      const when = attr(node, 'datetime') ?? textOf(node);
      const marks = `${context} ${attr(node, 'class') ?? ''} ${attr(node, 'itemprop') ?? ''}`;
      if (MODIFIED_CLASS_RE.test(marks)) timeModified ??= dayOf(when);
      else if (PUBLISHED_CLASS_RE.test(marks) || /datePublished/.test(marks)) timePublished ??= dayOf(when);
    }
    const inner = `${attr(node, 'class') ?? ''} ${attr(node, 'itemprop') ?? ''}`.trim();
    const childContext = inner === '' ? context : `${context} ${inner}`;
    for (const child of childrenOf(node)) walk(child, childContext);
  };
  walk(document, '');

  const robots = `${meta.get('robots') ?? ''},${meta.get('frontdoor') ?? ''}`.toLowerCase();
  facts.noindex = /(^|[\s,])(noindex|none)($|[\s,])/.test(robots);
  const description = meta.get('description') ?? ogDescription;
  facts.description = description ? collapse(description) || null : null;
  facts.siteName = collapse(meta.get('og:site_name') ?? meta.get('application-name') ?? '') || null;
  const fromJsonLd = (key: string): string | null => {
    for (const value of facts.jsonLd) {
      const found = dayOf(typeof value[key] === 'string' ? value[key] : null);
      if (found) return found;
    }
    return null;
  };
  facts.dateModified =
    dayOf(meta.get('article:modified_time') ?? meta.get('og:updated_time')) ??
    fromJsonLd('dateModified') ??
    timeModified;
  facts.datePublished =
    dayOf(meta.get('article:published_time')) ?? fromJsonLd('datePublished') ?? timePublished;
  return facts;
}

function canonicalPathOf(href: string, pagePath: string): string | null {
  try {
    return decodePath(new URL(href.trim(), new URL(pagePath, 'http://site.invalid')).pathname);
  } catch {
    return null;
  }
}

/**
 * The objects of one JSON-LD block (an array's objects, or the object), when it is valid JSON, is
 * schema.org and fits in `room`; what is left out is reported.
 */
function readJsonLd(
  text: string,
  room: number,
  report: (problem: LineProblem) => void,
): Record<string, unknown>[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    report({
      line: null,
      message: `a JSON-LD block is not valid JSON (${error instanceof Error ? error.message : String(error)}); it is left out of search results`,
      severity: 'warning',
    });
    return [];
  }
  const objects = (Array.isArray(value) ? value : [value]).filter(
    (item): item is Record<string, unknown> =>
      typeof item === 'object' && item !== null && !Array.isArray(item),
  );
  const kept: Record<string, unknown>[] = [];
  for (const object of objects) {
    if (!/schema\.org/i.test(JSON.stringify(object['@context'] ?? ''))) continue;
    const length = JSON.stringify(object).length;
    if (length > room) {
      report({
        line: null,
        message: `the page's JSON-LD is longer than ${MAX_JSON_LD_LENGTH} characters; the rest is left out of search results`,
        severity: 'warning',
      });
      break;
    }
    room -= length;
    kept.push(object);
  }
  return kept;
}

/**
 * The title: `<title>` without the site's name (" | Example Docs", "Page - Site", "Page — Project
 * documentation"): when the page's first `<h1>` starts the title and a separator follows, the h1
 * is the title; else a suffix or prefix equal to og:site_name is removed. Without a `<title>`, the
 * first `<h1>`.
 */
function pageTitle(title: string | null, h1: string | null, siteName: string | null): string | null {
  if (title === null) return h1;
  const separator = /^\s*[|\-–—·:»•]\s*\S/;
  if (h1 !== null && title.startsWith(h1) && separator.test(title.slice(h1.length))) return h1;
  if (h1 !== null && title.endsWith(h1)) {
    const before = title.slice(0, title.length - h1.length);
    if (/\S\s*[|\-–—·:»•]\s*$/.test(before)) return h1;
  }
  if (siteName !== null && title !== siteName) {
    const suffix = new RegExp(`\\s*[|\\-–—·:»•]\\s*${escapeRegExp(siteName)}$`);
    const prefix = new RegExp(`^${escapeRegExp(siteName)}\\s*[|\\-–—·:»•]\\s*`);
    const trimmed = title.replace(suffix, '').replace(prefix, '');
    if (trimmed !== '') return trimmed;
  }
  return title;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Where the page's text is, most explicit first; the body when nothing marks it. */
function contentRoots(document: DefaultTreeAdapterTypes.Document, options: HtmlOptions): Element[] {
  const marked = findAll(document, (e) => attr(e, 'data-frontdoor-body') !== null);
  if (marked.length > 0) return marked;
  if (options.bodySelector) {
    // A selector it cannot read is reported once for the site, by the loader (selectorProblem).
    const selectors = parseSelectors(options.bodySelector);
    if (typeof selectors !== 'string') {
      const found = findAll(document, (e) => selectors.some((s) => matches(e, s)));
      if (found.length > 0) return found;
    }
  }
  for (const test of [
    (e: Element) => e.tagName === 'main',
    (e: Element) => attr(e, 'role') === 'main',
    (e: Element) => e.tagName === 'article',
  ]) {
    const found = findAll(document, test);
    if (found.length > 0) return found.slice(0, 1);
  }
  return findAll(document, (e) => e.tagName === 'body');
}

interface BodyFacts {
  h1: string | null;
  headings: Heading[];
  sections: HtmlSection[];
  links: string[];
}

/** The text of the content roots, split into sections at the headings that have an anchor. */
function readBody(roots: Element[], ids: ReadonlySet<string>, pagePath: string): BodyFacts {
  const lead: HtmlSection = { anchor: null, heading: null, level: 1, blocks: [], linkLength: 0, links: 0 };
  const sections: HtmlSection[] = [lead];
  const headings: Heading[] = [];
  const links: string[] = [];
  const usedAnchors = new Set<string>();
  let h1: string | null = null;
  let section = lead;
  let inline = '';
  let inlineKind: HtmlBlock['kind'] = 'text';
  // The latest id seen with no text since: the anchor of a heading that has none (Sphinx's
  // <section id>, an <a id> before the heading).
  let pendingId: string | null = null;
  let linkDepth = 0;

  const flush = (): void => {
    const text = collapse(inline);
    if (text !== '') section.blocks.push({ kind: inlineKind, text });
    inline = '';
    inlineKind = 'text';
  };
  const startHeading = (element: Element, level: number): void => {
    flush();
    const selfLink = (e: Element): boolean => {
      if (e.tagName !== 'a') return isSkipped(e, true);
      const href = attr(e, 'href');
      return (href !== null && href.startsWith('#') && collapse(textOf(e)).length <= 2) || isSkipped(e, true);
    };
    const text = textOf(element, selfLink);
    if (text === '') return;
    if (level === 1 && h1 === null) {
      // The title: not a section of its own, and not repeated in the text.
      h1 = text;
      pendingId = null;
      return;
    }
    const anchor = headingAnchor(element, pendingId, ids);
    pendingId = null;
    const shownLevel = Math.max(2, level);
    if (anchor === null || usedAnchors.has(anchor) || shownLevel > 3) {
      // Minor headings (h4-h6) stay in their section's text, as in Markdown pages; so does a
      // heading without an anchor of its own, in the section before, which a link can reach.
      if (anchor !== null && !usedAnchors.has(anchor)) {
        usedAnchors.add(anchor);
        headings.push({ level: shownLevel, text, anchor });
      }
      section.blocks.push({ kind: 'text', text });
      return;
    }
    usedAnchors.add(anchor);
    headings.push({ level: shownLevel, text, anchor });
    section = { anchor, heading: text, level: shownLevel, blocks: [], linkLength: 0, links: 0 };
    sections.push(section);
  };

  const walk = (node: Node, insideSectioning: boolean): void => {
    if (node.nodeName === '#text') {
      const value = (node as DefaultTreeAdapterTypes.TextNode).value;
      inline += value;
      if (linkDepth > 0) section.linkLength += collapse(value).length;
      if (pendingId !== null && value.trim() !== '') pendingId = null;
      return;
    }
    if (!isElement(node)) return;
    const tag = node.tagName;
    if (isSkipped(node, insideSectioning)) return;
    const id = attr(node, 'id') ?? (tag === 'a' ? attr(node, 'name') : null);
    if (id !== null && id !== '') pendingId = id;
    if (HEADING_RE.test(tag)) {
      startHeading(node, Number(tag[1]));
      return;
    }
    if (tag === 'pre') {
      flush();
      const code = textOf(node).length === 0 ? '' : preText(node);
      if (code.trim() !== '') section.blocks.push({ kind: 'code', text: code.replace(/\n+$/, '') });
      pendingId = null;
      return;
    }
    if (tag === 'img') {
      const alt = attr(node, 'alt');
      if (alt) inline += ` ${alt} `;
      return;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) flush();
    if (tag === 'li') inlineKind = 'item';
    if (tag === 'a') {
      const href = attr(node, 'href');
      if (href !== null && !href.startsWith('#')) {
        const target = localPath(href, pagePath);
        if (target !== null) links.push(target);
        section.links++;
      }
      linkDepth++;
    }
    const inside = insideSectioning || SECTIONING.has(tag);
    for (const child of childrenOf(node)) walk(child, inside);
    if (tag === 'a') linkDepth--;
    if (block) flush();
  };
  for (const root of roots) {
    walk(root, true);
    flush();
  }
  return { h1, headings, sections, links };
}

/** The text of a `<pre>` as written (line breaks kept), skipping what is never text. */
function preText(node: Element): string {
  let out = '';
  const walk = (n: Node): void => {
    if (n.nodeName === '#text') out += (n as DefaultTreeAdapterTypes.TextNode).value;
    else if (isElement(n) && !isSkipped(n, true)) {
      if (n.tagName === 'br') out += '\n';
      for (const child of childrenOf(n)) walk(child);
    }
  };
  walk(node);
  return out.replace(/[\u200b\ufeff]/g, '');
}

/**
 * A heading's anchor: its own id; else an id inside it (`<h2><a id="x">`); else the id just
 * before it with no text between (`<section id="x"><h2>`, `<a id="x"></a><h2>`); else the target
 * of its permalink when that id exists in the page. Null when none: a link must reach an element.
 */
function headingAnchor(element: Element, pendingId: string | null, ids: ReadonlySet<string>): string | null {
  const own = attr(element, 'id');
  if (own) return own;
  let inner: string | null = null;
  let permalink: string | null = null;
  const walk = (node: Node): void => {
    if (!isElement(node) || inner !== null) return;
    const id = attr(node, 'id') ?? (node.tagName === 'a' ? attr(node, 'name') : null);
    if (id) {
      inner = id;
      return;
    }
    const href = node.tagName === 'a' ? attr(node, 'href') : null;
    if (href?.startsWith('#') && permalink === null) {
      const target = decodeFragment(href.slice(1));
      if (ids.has(target)) permalink = target;
    }
    for (const child of childrenOf(node)) walk(child);
  };
  for (const child of childrenOf(element)) walk(child);
  return inner ?? pendingId ?? permalink;
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
