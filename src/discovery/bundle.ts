import { agentsMarkdown, apiMarkdown, authMarkdown } from './agent-docs.js';
import type { OpenApiDocument } from './api-reference.js';
import { API_CATALOG_MEDIA_TYPE, apiCatalogJson, ardJson, robotsTxt } from './catalogs.js';
import { developersPage, docsPage, standaloneHtml } from './html.js';
import { llmsFullTxt, llmsTxt } from './llms.js';
import { buildModel, type DiscoveryInput, type DiscoveryModel, type HtmlPageParts } from './model.js';
import {
  apiCatalogLinkHeader,
  DISCOVERY_PATHS,
  SITE_OWN_PATHS,
  SKILL_NAME,
  sitemapPartPath,
  skillPath,
} from './paths.js';
import { skillMarkdown, skillsIndexJson } from './skill.js';
import { buildSitemaps, SITEMAP_PROTOCOL_LIMITS } from './sitemap.js';
import { strongEtag } from '../http-primitives/index.js';

/** One document as served: its exact bytes, media type, strong validator and extra headers. */
export interface ServedDocument {
  path: string;
  contentType: string;
  body: Buffer;
  /** Strong ETag: the quoted base64url SHA-256 of `body`. */
  etag: string;
  headers: Readonly<Record<string, string>>;
}

/**
 * Every discovery document of one site, each built on its first request and then kept: on a large
 * site most are seldom or never asked for (llms-full.txt is the whole site's text, several MB),
 * and building them all took about 1.5 s of a 7,500-page start-up.
 */
export interface DiscoveryBundle {
  /** The path of every document, except the parts of a split sitemap (`/sitemaps/2.xml`, …). */
  readonly paths: readonly string[];
  /** The document at `path` (built now if it was not yet), or undefined when there is none. */
  document(path: string): ServedDocument | undefined;
  /** Every document by request path (builds those not built yet). */
  readonly documents: ReadonlyMap<string, ServedDocument>;
  /** The OpenAPI document served at /openapi.json (parsed), for callers that read it. */
  readonly openApi: OpenApiDocument;
  /** What the documents derive from (built on first use). */
  readonly model: DiscoveryModel;
}

/** Where the parts of a split sitemap live (`/sitemaps/1.xml`, …). */
const SITEMAP_PARTS_PREFIX = sitemapPartPath(1).replace(/1\.xml$/, '');

export const MEDIA_TYPES = {
  json: 'application/json; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
} as const;

/** The documents that are not sitemaps, in the order `documents` lists them. */
const FIXED_PATHS: readonly string[] = [
  DISCOVERY_PATHS.openApi,
  DISCOVERY_PATHS.agentsMd,
  DISCOVERY_PATHS.authMd,
  DISCOVERY_PATHS.apiMd,
  DISCOVERY_PATHS.llmsTxt,
  DISCOVERY_PATHS.llmsFullTxt,
  DISCOVERY_PATHS.robotsTxt,
];
const HTML_PATHS: readonly string[] = [DISCOVERY_PATHS.docs, DISCOVERY_PATHS.developers];
const AGENT_PATHS: readonly string[] = [
  skillPath(SKILL_NAME),
  DISCOVERY_PATHS.skillsIndex,
  DISCOVERY_PATHS.ard,
  DISCOVERY_PATHS.aiCatalog,
  DISCOVERY_PATHS.apiCatalog,
];

/**
 * The discovery documents of the contract, the site and the configuration, each built on its
 * first request (see DiscoveryBundle); the server then serves the kept bytes. The same input gives
 * the same bytes whenever a document is built.
 */
export function buildDiscoveryBundle(input: DiscoveryInput): DiscoveryBundle {
  let model: DiscoveryModel | null = null;
  const modelOf = (): DiscoveryModel => (model ??= buildModel(input));
  const built = new Map<string, ServedDocument>();
  const served = (path: string, contentType: string, text: string, headers: Record<string, string> = {}) => {
    const body = Buffer.from(text, 'utf8');
    const document: ServedDocument = { path, contentType, body, etag: strongEtag(body), headers };
    built.set(path, document);
    return document;
  };
  const page = (parts: HtmlPageParts) => {
    const m = modelOf();
    return m.renderHtmlPage ? m.renderHtmlPage(parts) : standaloneHtml(m, parts);
  };
  const skillText = () => skillMarkdown(modelOf());
  const builders = new Map<string, () => ServedDocument>([
    [
      DISCOVERY_PATHS.openApi,
      () =>
        served(DISCOVERY_PATHS.openApi, MEDIA_TYPES.json, `${JSON.stringify(modelOf().openApi, null, 2)}\n`),
    ],
    [
      DISCOVERY_PATHS.agentsMd,
      () => served(DISCOVERY_PATHS.agentsMd, MEDIA_TYPES.markdown, agentsMarkdown(modelOf())),
    ],
    [
      DISCOVERY_PATHS.authMd,
      () => served(DISCOVERY_PATHS.authMd, MEDIA_TYPES.markdown, authMarkdown(modelOf())),
    ],
    [
      DISCOVERY_PATHS.apiMd,
      () => served(DISCOVERY_PATHS.apiMd, MEDIA_TYPES.markdown, apiMarkdown(modelOf())),
    ],
    [DISCOVERY_PATHS.llmsTxt, () => served(DISCOVERY_PATHS.llmsTxt, MEDIA_TYPES.text, llmsTxt(modelOf()))],
    [
      DISCOVERY_PATHS.llmsFullTxt,
      () => served(DISCOVERY_PATHS.llmsFullTxt, MEDIA_TYPES.text, llmsFullTxt(modelOf())),
    ],
    [
      DISCOVERY_PATHS.robotsTxt,
      () => served(DISCOVERY_PATHS.robotsTxt, MEDIA_TYPES.text, robotsTxt(modelOf())),
    ],
    [DISCOVERY_PATHS.docs, () => served(DISCOVERY_PATHS.docs, MEDIA_TYPES.html, page(docsPage(modelOf())))],
    [
      DISCOVERY_PATHS.developers,
      () => served(DISCOVERY_PATHS.developers, MEDIA_TYPES.html, page(developersPage(modelOf()))),
    ],
    [skillPath(SKILL_NAME), () => served(skillPath(SKILL_NAME), MEDIA_TYPES.markdown, skillText())],
    [
      DISCOVERY_PATHS.skillsIndex,
      () =>
        served(
          DISCOVERY_PATHS.skillsIndex,
          MEDIA_TYPES.json,
          skillsIndexJson(modelOf(), Buffer.from(skillText(), 'utf8')),
        ),
    ],
    [DISCOVERY_PATHS.ard, () => served(DISCOVERY_PATHS.ard, MEDIA_TYPES.json, ardJson(modelOf()))],
    [
      DISCOVERY_PATHS.aiCatalog,
      () => served(DISCOVERY_PATHS.aiCatalog, MEDIA_TYPES.json, ardJson(modelOf())),
    ],
    [
      DISCOVERY_PATHS.apiCatalog,
      () =>
        served(DISCOVERY_PATHS.apiCatalog, API_CATALOG_MEDIA_TYPE, apiCatalogJson(modelOf()), {
          link: apiCatalogLinkHeader(modelOf().publicBaseUrl),
        }),
    ],
  ]);
  // The sitemap files are built together (an index and its parts, or one file).
  let sitemapPaths: string[] | null = null;
  const sitemaps = (): string[] => {
    if (sitemapPaths === null) {
      const limits = { ...SITEMAP_PROTOCOL_LIMITS, ...input.sitemapLimits };
      const files = buildSitemaps(modelOf(), limits);
      for (const [path, xml] of files) served(path, MEDIA_TYPES.xml, xml);
      sitemapPaths = [...files.keys()];
    }
    return sitemapPaths;
  };
  const isSitemap = (path: string) =>
    path === DISCOVERY_PATHS.sitemap || path.startsWith(SITEMAP_PARTS_PREFIX);
  const document = (path: string): ServedDocument | undefined => {
    const done = built.get(path);
    if (done) return done;
    if (isSitemap(path)) {
      sitemaps();
      return built.get(path);
    }
    return builders.get(path)?.();
  };
  // Beside a site served elsewhere (servesPages false) its own documents are not served at all.
  const servesPages = input.servesPages !== false;
  const paths = [...FIXED_PATHS, DISCOVERY_PATHS.sitemap, ...HTML_PATHS, ...AGENT_PATHS].filter(
    (path) => servesPages || !SITE_OWN_PATHS.has(path),
  );
  const servedDocument = (path: string): ServedDocument | undefined =>
    servesPages || !(SITE_OWN_PATHS.has(path) || isSitemap(path)) ? document(path) : undefined;
  return {
    paths,
    document: servedDocument,
    get documents() {
      const all = new Map<string, ServedDocument>();
      for (const path of FIXED_PATHS) if (paths.includes(path)) all.set(path, document(path)!);
      if (servesPages) for (const path of sitemaps()) all.set(path, document(path)!);
      for (const path of [...HTML_PATHS, ...AGENT_PATHS])
        if (paths.includes(path)) all.set(path, document(path)!);
      return all;
    },
    get openApi() {
      return modelOf().openApi;
    },
    get model() {
      return modelOf();
    },
  };
}
