/**
 * The discovery room: every machine-readable companion of the site (OpenAPI contract, agent
 * guides, agent skill, catalogs, llms.txt, sitemap, robots.txt) and the /docs and /developers
 * pages, generated from the contract, the content and the configuration. Pure: no HTTP here.
 */
export { buildDiscoveryBundle, MEDIA_TYPES } from './bundle.js';
export type { DiscoveryBundle, ServedDocument } from './bundle.js';
export type { DiscoveryInput, HtmlPageParts } from './model.js';
export {
  apiCatalogLinkHeader,
  DISCOVERY_PATHS,
  discoveryLinks,
  discoveryLinkTags,
  SKILL_NAME,
  skillPath,
  SKILLS_ROOT,
} from './paths.js';
export type { DiscoveryLink } from './paths.js';
export { API_CATALOG_MEDIA_TYPE, ARD_SKILL_TYPE, OPENAPI_MEDIA_TYPE } from './catalogs.js';
export { AGENT_SKILLS_SCHEMA, sha256Digest } from './skill.js';
export { SITEMAP_NAMESPACE, SITEMAP_PROTOCOL_LIMITS } from './sitemap.js';
export type { SitemapLimits } from './sitemap.js';
export { effectOf, readApiReference } from './api-reference.js';
export type { ApiReference, OpenApiDocument } from './api-reference.js';
