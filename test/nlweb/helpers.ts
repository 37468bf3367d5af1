import { defaultSiteInfo, loadSite, type Page, type Passage, type Site } from '../../src/content/index.js';
import type { NlWebResponse } from '../../src/contract/index.js';
import type { AskServiceOptions } from '../../src/nlweb/index.js';
import { renderMarkdown } from '../../src/content/index.js';
import { contentFolder } from '../support/files.js';
import { startAskServer, type AskApp } from '../support/servers.js';

export const PUBLIC_BASE_URL = 'https://www.acme.test';

/** Pages of a small site: one long page with many matching sections, a docs page, plain pages. */
export const CONTENT_FILES: Record<string, string> = {
  '_site.yaml': 'name: Acme Widgets\ndescription: Widgets for people who need widgets.\n',
  'index.md': [
    '---',
    'title: Acme Widgets',
    'description: The home of Acme widgets.',
    '---',
    '',
    'Acme builds configurable widgets for factories and laboratories.',
    '',
  ].join('\n'),
  'security.md': [
    '---',
    'title: Security',
    'description: How Acme protects customer data.',
    'date: 2025-03-03',
    'updated: 2025-06-01',
    'tags: [security, encryption]',
    '---',
    '',
    'Acme protects widget configurations with encryption at every step.',
    '',
    '## Encryption at rest',
    '',
    'Stored data uses AES-256 encryption with keys rotated every ninety days.',
    '',
    '## Encryption in transit',
    '',
    'All traffic uses TLS 1.2 or later; encryption of traffic is mandatory.',
    '',
    '## Key management',
    '',
    'Encryption keys live in a hardware security module; key rotation is automatic.',
    '',
    '## Hosting and data residency',
    '',
    'Customers choose the European Union or the United States as their hosting region.',
    '',
  ].join('\n'),
  'docs/getting-started.md': [
    '---',
    'title: Getting started',
    'description: Set up your first widget.',
    'date: 2025-01-10',
    '---',
    '',
    'Create an account, then configure your first widget.',
    '',
    '## Turn on encryption',
    '',
    'Open the settings page and switch on encryption for exported widget files.',
    '',
  ].join('\n'),
  'pricing.md': [
    '---',
    'title: Pricing',
    'description: Plans and prices.',
    'tags: [pricing]',
    '---',
    '',
    'Every plan includes encryption, single sign-on and unlimited widgets.',
    '',
    '## Enterprise',
    '',
    'The enterprise plan adds a dedicated hosting region and a named support engineer.',
    '',
  ].join('\n'),
  'careers.md': [
    '---',
    'title: Careers',
    'description: Work at Acme.',
    '---',
    '',
    'We hire engineers who enjoy building reliable widgets.',
    '',
  ].join('\n'),
};

/** The fixture site through the real content loader. */
export async function loadFixtureSite(files: Record<string, string> = CONTENT_FILES): Promise<Site> {
  const dir = contentFolder(files);
  const { site, problems } = await loadSite(dir);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) throw new Error(`fixture content has errors: ${JSON.stringify(errors)}`);
  return site;
}

/** The real application listening on port 0 over the fixture site, at PUBLIC_BASE_URL. */
export function startAskApp(
  options: AskServiceOptions = {},
  env: Record<string, string> = {},
): Promise<AskApp> {
  return startAskServer(CONTENT_FILES, options, env, PUBLIC_BASE_URL);
}

/** A parsed event stream: the data payloads of its events and its comment lines. */
export interface ParsedStream {
  events: Record<string, unknown>[];
  comments: string[];
}

/**
 * Parses text/event-stream text the way NLWeb clients do, and checks the framing strictly: every
 * event is exactly one `data: ` line (unnamed) followed by a blank line.
 */
export function parseEventStream(text: string): ParsedStream {
  const events: Record<string, unknown>[] = [];
  const comments: string[] = [];
  if (!text.endsWith('\n\n')) throw new Error('the stream does not end with a blank line');
  for (const block of text.slice(0, -2).split('\n\n')) {
    const lines = block.split('\n');
    if (lines.length !== 1) throw new Error(`an event has ${lines.length} lines: ${JSON.stringify(block)}`);
    const line = lines[0]!;
    if (line.startsWith(':')) comments.push(line);
    else if (line.startsWith('data: ')) events.push(JSON.parse(line.slice('data: '.length)));
    else throw new Error(`unexpected line: ${JSON.stringify(line)}`);
  }
  return { events, comments };
}

/** NLWeb's reassembly rule: merge every `_meta` (first value wins), concatenate every `content`. */
export function reassemble(events: Record<string, unknown>[]): NlWebResponse {
  const meta: Record<string, unknown> = {};
  const content: unknown[] = [];
  for (const event of events) {
    for (const [key, value] of Object.entries((event._meta as Record<string, unknown>) ?? {}))
      if (!(key in meta)) meta[key] = value;
    if (Array.isArray(event.content)) content.push(...event.content);
  }
  return { _meta: meta, content } as NlWebResponse;
}

/** An answer with its request_id removed, for comparing two answers to the same request. */
export function withoutRequestId(answer: NlWebResponse): unknown {
  const { request_id: _ignored, ...meta } = answer._meta;
  return { ...answer, _meta: meta };
}

export interface HandSection {
  heading: string;
  text: string;
}

export interface HandPage {
  url: string;
  title: string;
  lead?: string;
  description?: string;
  date?: string | null;
  lastModified?: string;
  tags?: string[];
  keywords?: string[];
  aliases?: string[];
  /** The body in Markdown (for what is read from it, such as link lists); empty by default. */
  markdown?: string;
  sections?: HandSection[];
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A Site built by hand (no loader), for service tests that need exact passages. */
export function handSite(name: string, pages: HandPage[]): Site {
  const built: Page[] = pages.map((p) => {
    const sections = p.sections ?? [];
    const passages: Passage[] = [
      { key: p.url, pageUrl: p.url, anchor: null, headingPath: [p.title], text: p.lead ?? '' },
      ...sections.map((s) => ({
        key: `${p.url}#${slug(s.heading)}`,
        pageUrl: p.url,
        anchor: slug(s.heading),
        headingPath: [p.title, s.heading],
        text: s.text,
      })),
    ];
    return {
      url: p.url,
      sourcePath: `${p.url.slice(1) || 'index'}.md`,
      title: p.title,
      description: p.description ?? `About ${p.title}.`,
      date: p.date ?? null,
      lastModified: p.lastModified ?? '2025-01-01',
      tags: p.tags ?? [],
      keywords: p.keywords ?? [],
      aliases: p.aliases ?? [],
      nav: null,
      order: null,
      form: null,
      markdown: '',
      linkListAnchors: renderMarkdown(p.markdown ?? '', { html: false }).linkListAnchors,
      headings: sections.map((s) => ({ level: 2, text: s.heading, anchor: slug(s.heading) })),
      passages,
      lang: 'en',
      detectedLang: null,
      frontMatter: {},
    };
  });
  built.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return {
    info: { ...defaultSiteInfo({ name, description: '' }), legalName: name },
    pages: built,
    byUrl: new Map(built.map((page) => [page.url, page])),
  };
}
