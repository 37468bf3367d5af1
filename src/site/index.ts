/**
 * The public website: one HTML layout shared by every page, the content page templates, the search
 * page, the two forms and the static assets. Pure functions over the content model; the Fastify
 * routes live in src/http/routes/site.ts.
 */
export { renderLayout } from './layout.js';
export type { LayoutOptions, PageKind } from './layout.js';
export { escapeHtml, jsonForScript, wrapTables } from './escape.js';
export {
  absoluteUrl,
  breadcrumbsOf,
  childrenOf,
  markdownPathOf,
  navigationOf,
  shortTitleOf,
} from './paths.js';
export { assetUrl, siteAssets } from './assets.js';
export type { SiteAsset } from './assets.js';
