import { absoluteUrl } from '../content/index.js';
import { SUBMISSION_PATHS } from '../contract/index.js';
import { escapeHtml } from '../text/index.js';

/** Every path this room serves, named once so documents that link to each other cannot disagree. */
export const DISCOVERY_PATHS = {
  openApi: '/openapi.json',
  agentsMd: '/agents.md',
  authMd: '/auth.md',
  apiMd: '/api.md',
  llmsTxt: '/llms.txt',
  llmsFullTxt: '/llms-full.txt',
  robotsTxt: '/robots.txt',
  sitemap: '/sitemap.xml',
  docs: '/docs',
  developers: '/developers',
  skillsIndex: '/.well-known/agent-skills/index.json',
  ard: '/.well-known/ard.json',
  aiCatalog: '/.well-known/ai-catalog.json',
  apiCatalog: '/.well-known/api-catalog',
  /** Served by the HTTP assembly (src/http/app.ts); the api-catalog points at it as `status`. */
  health: '/healthz',
  ask: '/ask',
  leads: SUBMISSION_PATHS.lead,
  suggestions: SUBMISSION_PATHS.suggestion,
} as const;

export const SKILLS_ROOT = '/.well-known/agent-skills/';

/**
 * The documents that belong to a site's own pages: beside a site served elsewhere (PAGES=off) that
 * site keeps its robots.txt and sitemap and its own /docs, so these are neither served nor linked.
 */
export const SITE_OWN_PATHS: ReadonlySet<string> = new Set([
  DISCOVERY_PATHS.robotsTxt,
  DISCOVERY_PATHS.sitemap,
  DISCOVERY_PATHS.docs,
  DISCOVERY_PATHS.developers,
]);

/** The one skill this site publishes; also its folder name and its front-matter name. */
export const SKILL_NAME = 'search-and-contact';

/**
 * The companion documents, in the order the agent guide's table and the HTML pages' list show
 * them: `description` for the guide (agents.md), `label` for the list on /docs and /developers
 * (absent: not listed there).
 */
export const COMPANION_DOCUMENTS: readonly { path: string; description: string; label?: string }[] = [
  {
    path: DISCOVERY_PATHS.openApi,
    description: 'OpenAPI 3.1 contract: the authoritative request and answer shapes.',
    label: 'OpenAPI 3.1 contract',
  },
  {
    path: DISCOVERY_PATHS.apiMd,
    description: 'The API reference in Markdown, with example requests and answers.',
    label: 'API reference in Markdown',
  },
  {
    path: DISCOVERY_PATHS.agentsMd,
    description: 'This guide: what the site is and what an agent may do.',
    label: 'Guide for AI agents',
  },
  {
    path: DISCOVERY_PATHS.authMd,
    description: 'Authentication (none) and why the approval rule still applies.',
    label: 'Authentication',
  },
  {
    path: skillPath(SKILL_NAME),
    description: 'Agent skill: search the site and submit the forms with approval.',
    label: 'Agent skill',
  },
  {
    path: DISCOVERY_PATHS.skillsIndex,
    description: 'Agent Skills discovery index (with sha256 digests).',
    label: 'Agent Skills index',
  },
  {
    path: DISCOVERY_PATHS.apiCatalog,
    description: 'RFC 9727 API catalog (linkset).',
    label: 'API catalog (RFC 9727)',
  },
  {
    path: DISCOVERY_PATHS.ard,
    description: 'Agentic resource discovery catalog (same bytes at /.well-known/ai-catalog.json).',
    label: 'Agentic resource catalog',
  },
  {
    path: DISCOVERY_PATHS.llmsTxt,
    description: 'Index of the public pages for language models.',
    label: 'llms.txt',
  },
  { path: DISCOVERY_PATHS.llmsFullTxt, description: 'Every public page as one Markdown document.' },
  { path: DISCOVERY_PATHS.sitemap, description: 'Sitemap of every public page.', label: 'Sitemap' },
  { path: DISCOVERY_PATHS.docs, description: 'Documentation index for people.' },
  { path: DISCOVERY_PATHS.developers, description: 'API reference for people (HTML).' },
];

/** Where the sitemap files of a sitemap index are served: `/sitemaps/1.xml`, `/sitemaps/2.xml`, … */
export function sitemapPartPath(index: number): string {
  return `/sitemaps/${index}.xml`;
}

export function skillPath(name: string): string {
  return `${SKILLS_ROOT}${name}/SKILL.md`;
}

/** A link to announce in an HTML head (`<link>`) or in a `Link` header. */
export interface DiscoveryLink {
  rel: string;
  /** Absolute URL built from the public base URL. */
  href: string;
  type: string;
  title: string;
}

/**
 * The discovery documents every HTML page should announce in its head, so an agent that lands on
 * any page finds the catalogs, the contract and the agent guides.
 */
export function discoveryLinks(publicBaseUrl: string): DiscoveryLink[] {
  const at = (path: string) => absoluteUrl(publicBaseUrl, path);
  return [
    {
      rel: 'api-catalog',
      href: at(DISCOVERY_PATHS.apiCatalog),
      type: 'application/linkset+json',
      title: 'API catalog',
    },
    {
      rel: 'ard',
      href: at(DISCOVERY_PATHS.ard),
      type: 'application/json',
      title: 'Agentic resource catalog',
    },
    {
      rel: 'ai-catalog',
      href: at(DISCOVERY_PATHS.aiCatalog),
      type: 'application/json',
      title: 'Agentic resource catalog',
    },
    {
      rel: 'service-desc',
      href: at(DISCOVERY_PATHS.openApi),
      type: 'application/vnd.oai.openapi+json;version=3.1',
      title: 'OpenAPI contract',
    },
    { rel: 'service-doc', href: at(DISCOVERY_PATHS.developers), type: 'text/html', title: 'API reference' },
    {
      rel: 'alternate',
      href: at(DISCOVERY_PATHS.llmsTxt),
      type: 'text/markdown',
      title: 'llms.txt: the site for language models',
    },
    {
      rel: 'alternate',
      href: at(DISCOVERY_PATHS.agentsMd),
      type: 'text/markdown',
      title: 'Guide for AI agents',
    },
    { rel: 'sitemap', href: at(DISCOVERY_PATHS.sitemap), type: 'application/xml', title: 'Sitemap' },
  ];
}

/** The `<link>` elements for `discoveryLinks`, one per line, for a layout's `<head>`. */
export function discoveryLinkTags(publicBaseUrl: string): string {
  return discoveryLinks(publicBaseUrl)
    .map(
      (link) =>
        `<link rel="${escapeHtml(link.rel)}" href="${escapeHtml(link.href)}" type="${escapeHtml(
          link.type,
        )}" title="${escapeHtml(link.title)}">`,
    )
    .join('\n');
}

/** The `Link` header value that RFC 9727 asks for on the home page and on the catalog itself. */
export function apiCatalogLinkHeader(publicBaseUrl: string): string {
  return `<${absoluteUrl(publicBaseUrl, DISCOVERY_PATHS.apiCatalog)}>; rel="api-catalog"`;
}
