import { DISCOVERY_PATHS, SKILLS_ROOT } from '../discovery/index.js';

/**
 * The documents whose readers the insight counts, each under a stable name. Markdown twins of
 * pages are counted together as `markdown-twin`; every file of the agent skills as `agent-skills`;
 * the sitemap index and its parts as `sitemap`.
 */
export const READERSHIP_DOCUMENTS = [
  'llms.txt',
  'llms-full.txt',
  'markdown-twin',
  'openapi.json',
  'agents.md',
  'auth.md',
  'api.md',
  'agent-skills',
  'ard',
  'ai-catalog',
  'api-catalog',
  'sitemap',
  'robots.txt',
  'ask',
] as const;
export type ReadershipDocument = (typeof READERSHIP_DOCUMENTS)[number];

const BY_PATH = new Map<string, ReadershipDocument>([
  [DISCOVERY_PATHS.llmsTxt, 'llms.txt'],
  [DISCOVERY_PATHS.llmsFullTxt, 'llms-full.txt'],
  [DISCOVERY_PATHS.openApi, 'openapi.json'],
  [DISCOVERY_PATHS.agentsMd, 'agents.md'],
  [DISCOVERY_PATHS.authMd, 'auth.md'],
  [DISCOVERY_PATHS.apiMd, 'api.md'],
  [DISCOVERY_PATHS.ard, 'ard'],
  [DISCOVERY_PATHS.aiCatalog, 'ai-catalog'],
  [DISCOVERY_PATHS.apiCatalog, 'api-catalog'],
  [DISCOVERY_PATHS.sitemap, 'sitemap'],
  [DISCOVERY_PATHS.robotsTxt, 'robots.txt'],
  [DISCOVERY_PATHS.ask, 'ask'],
]);

const SITEMAP_PART = /^\/sitemaps\/\d+\.xml$/;

/**
 * Which counted document a response was, from its path (without the query) and content type;
 * null for everything else. A page answered as Markdown (Accept: text/markdown) counts as a twin.
 */
export function readershipDocument(path: string, contentType: string | undefined): ReadershipDocument | null {
  const named = BY_PATH.get(path);
  if (named !== undefined) return named;
  if (path.startsWith(SKILLS_ROOT)) return 'agent-skills';
  if (SITEMAP_PART.test(path)) return 'sitemap';
  if (path.endsWith('.md') || contentType?.startsWith('text/markdown')) return 'markdown-twin';
  return null;
}
