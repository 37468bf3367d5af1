import { strongEtag } from '../content/index.js';
import { agentsMarkdown, apiMarkdown, authMarkdown } from './agent-docs.js';
import type { OpenApiDocument } from './api-reference.js';
import { API_CATALOG_MEDIA_TYPE, apiCatalogJson, ardJson, robotsTxt } from './catalogs.js';
import { developersPage, docsPage, standaloneHtml } from './html.js';
import { llmsFullTxt, llmsTxt } from './llms.js';
import { buildModel, type DiscoveryInput, type DiscoveryModel, type HtmlPageParts } from './model.js';
import { apiCatalogLinkHeader, DISCOVERY_PATHS, SKILL_NAME, skillPath } from './paths.js';
import { skillMarkdown, skillsIndexJson } from './skill.js';
import { buildSitemaps, SITEMAP_PROTOCOL_LIMITS } from './sitemap.js';

/** One document as served: its exact bytes, media type, strong validator and extra headers. */
export interface ServedDocument {
  path: string;
  contentType: string;
  body: Buffer;
  /** Strong ETag: the quoted base64url SHA-256 of `body`. */
  etag: string;
  headers: Readonly<Record<string, string>>;
}

export interface DiscoveryBundle {
  /** Every document by request path. */
  documents: ReadonlyMap<string, ServedDocument>;
  /** The OpenAPI document served at /openapi.json (parsed), for callers that read it. */
  openApi: OpenApiDocument;
  model: DiscoveryModel;
}

export const MEDIA_TYPES = {
  json: 'application/json; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
} as const;

/**
 * Builds every discovery document from the contract, the site and the configuration. Called once
 * at start-up; the server then serves the cached bytes.
 */
export function buildDiscoveryBundle(input: DiscoveryInput): DiscoveryBundle {
  const model = buildModel(input);
  const documents = new Map<string, ServedDocument>();
  const add = (path: string, contentType: string, text: string, headers: Record<string, string> = {}) => {
    const body = Buffer.from(text, 'utf8');
    documents.set(path, { path, contentType, body, etag: strongEtag(body), headers });
  };
  const page = (parts: HtmlPageParts) =>
    model.renderHtmlPage ? model.renderHtmlPage(parts) : standaloneHtml(model, parts);

  add(DISCOVERY_PATHS.openApi, MEDIA_TYPES.json, `${JSON.stringify(model.openApi, null, 2)}\n`);
  add(DISCOVERY_PATHS.agentsMd, MEDIA_TYPES.markdown, agentsMarkdown(model));
  add(DISCOVERY_PATHS.authMd, MEDIA_TYPES.markdown, authMarkdown(model));
  add(DISCOVERY_PATHS.apiMd, MEDIA_TYPES.markdown, apiMarkdown(model));
  add(DISCOVERY_PATHS.llmsTxt, MEDIA_TYPES.text, llmsTxt(model));
  add(DISCOVERY_PATHS.llmsFullTxt, MEDIA_TYPES.text, llmsFullTxt(model));
  add(DISCOVERY_PATHS.robotsTxt, MEDIA_TYPES.text, robotsTxt(model));
  const limits = { ...SITEMAP_PROTOCOL_LIMITS, ...input.sitemapLimits };
  for (const [path, xml] of buildSitemaps(model, limits)) add(path, MEDIA_TYPES.xml, xml);
  add(DISCOVERY_PATHS.docs, MEDIA_TYPES.html, page(docsPage(model)));
  add(DISCOVERY_PATHS.developers, MEDIA_TYPES.html, page(developersPage(model)));

  const skill = Buffer.from(skillMarkdown(model), 'utf8');
  add(skillPath(SKILL_NAME), MEDIA_TYPES.markdown, skill.toString('utf8'));
  add(DISCOVERY_PATHS.skillsIndex, MEDIA_TYPES.json, skillsIndexJson(model, skill));

  const ard = ardJson(model);
  add(DISCOVERY_PATHS.ard, MEDIA_TYPES.json, ard);
  add(DISCOVERY_PATHS.aiCatalog, MEDIA_TYPES.json, ard);
  add(DISCOVERY_PATHS.apiCatalog, API_CATALOG_MEDIA_TYPE, apiCatalogJson(model), {
    link: apiCatalogLinkHeader(model.publicBaseUrl),
  });

  return { documents, openApi: model.openApi, model };
}
