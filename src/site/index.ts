/**
 * The public website: one HTML layout shared by every page, the content page templates, the search
 * page, the two forms and the static assets. Pure functions over the content model; the Fastify
 * routes live in src/http/surfaces/site.ts.
 */
export { renderLayout } from './layout.js';
export type { LayoutOptions, PageKind } from './layout.js';
export { wrapTables } from '../content/index.js';
export {
  breadcrumbsOf,
  childrenOf,
  demoPathOf,
  markdownPathOf,
  navigationOf,
  footerColumnsOf,
  headerLinksOf,
  shortTitleOf,
  type MenuColumn,
  type MenuLink,
} from './paths.js';
export { ASSETS_DIR, assetUrl, EMBED_ASSETS, siteAssets } from './assets.js';
export { SCRIPT_WORDS, scriptWords } from './script-words.js';
export {
  BRAND_FILE_PREFIX,
  BRAND_ICON,
  BRAND_STYLESHEET,
  brandAssets,
  brandAssetUrl,
  brandFileUrl,
} from './brand.js';
export {
  DEFAULT_FORM_CATALOG,
  descriptorOf,
  formCatalog,
  FORMS,
  renderEmbeddedForm,
  type FormCatalog,
  type FormDescriptor,
  type FormKind,
  type FormState,
} from './forms.js';
export {
  renderConfirmationPage,
  renderContentPage,
  renderFormFallbackPage,
  formsOf,
  type SiteView,
} from './pages.js';
export {
  renderErrorPage,
  renderNotFoundPage,
  notFoundQuery,
  type ClosestPage,
  renderSearchPage,
} from './search-and-error-pages.js';
export {
  HTML_TYPE,
  RENDERED_BYTES_KEPT,
  renderSite,
  type RenderedSite,
  type RenderSiteOptions,
  type Representation,
} from './render-cache.js';
export {
  askedLanguage,
  askerLanguage,
  askerLanguageVary,
  searchForPage,
  type AskerLanguageHints,
} from './search.js';
export type { SiteAsset } from './assets.js';
