/** The content room: a folder of Markdown files or a built static site's HTML → the Site every other room reads. */
export type {
  Brand,
  BrandColours,
  BrandImage,
  ContentProblem,
  FooterColumn,
  Heading,
  NavLink,
  Page,
  Passage,
  Site,
  SiteInfo,
} from './types.js';
export { AA_RATIO, brandFiles, checkContrast, DEFAULT_COLOURS, defaultBrand } from './brand.js';
export { checkBrandFile, MAX_BRAND_FILE_BYTES, resolveBrandFile } from './brand-files.js';
export {
  contrastRatio,
  hexOf,
  mix,
  parseHexColour,
  passingAlternative,
  readableOn,
  type Rgb,
} from './colour.js';
export {
  buildSite,
  CONTENT_MODEL_VERSION,
  filesToRebuild,
  loadSite,
  readContent,
  readUnread,
  rebuildSite,
  STAMP_SETTLE_MS,
  type ContentFiles,
  type KnownFile,
  type UnreadFile,
  type LoadedSite,
  type LoadOptions,
  type PreviousBuild,
} from './loader.js';
export type { FileBuild, PageStep } from './parallel.js';
export type { SourceFile } from './page.js';
export {
  renderMarkdown,
  type RenderedMarkdown,
  type RenderedSection,
  type RenderOptions,
} from './markdown.js';
export { htmlOf, markdownOf } from './markdown-twin.js';
export {
  extractHtml,
  MAX_HTML_LENGTH,
  MAX_JSON_LD_LENGTH,
  type HtmlExtraction,
  type HtmlOptions,
} from './html-page.js';
export { absoluteUrl, encodePagePath, isHtmlSource, urlForHtmlSourcePath, urlForSourcePath } from './urls.js';
export { slugify } from './slug.js';
export {
  defaultWorkerCount,
  MIN_FILES_FOR_WORKERS,
  startModuleWorker,
  startParseWorkers,
} from './parallel.js';
export { readContentInWorker, type ContentReading, type ContentSummary } from './read-in-worker.js';
export { fromWire, stampsOf, toWire, type WireSummary } from './read-wire.js';
export { watchContentFolder, type ContentWatcher, type ContentWatchOptions } from './watch.js';
export { summarize, DESCRIPTION_MAX_LENGTH } from './summary.js';
export { wrapTables } from './table-regions.js';
export { translationsOf } from './translations.js';
export { defaultSiteInfo } from './site-info.js';
export {
  checkFormsFile,
  defaultApiPath,
  FormsConfigError,
  readFormsConfig,
  readFormsFile,
  unknownFormProblems,
  untranslatedFormProblems,
} from './forms-config.js';
