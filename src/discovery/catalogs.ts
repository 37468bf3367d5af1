import { oneLine } from './api-reference.js';
import type { DiscoveryModel } from './model.js';
import { DISCOVERY_PATHS, SKILL_NAME, skillPath } from './paths.js';
import { skillDescription } from './skill.js';

/** RFC 9727 media type of the API catalog (an RFC 9264 linkset with the api-catalog profile). */
export const API_CATALOG_MEDIA_TYPE =
  'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/** The registered media type of an OpenAPI 3.1 document, used as the `type` hint of links to it. */
export const OPENAPI_MEDIA_TYPE = 'application/vnd.oai.openapi+json;version=3.1';

interface LinkTarget {
  href: string;
  type?: string;
  title?: string;
}

/**
 * /.well-known/api-catalog: one context anchored at the catalog listing the API as an `item`, and
 * one anchored at the API (its base URL, the OpenAPI `servers` entry) with its description,
 * documentation, metadata and health links. Every href is absolute.
 */
export function apiCatalogJson(model: DiscoveryModel): string {
  const api = model.reference.serverUrl || model.publicBaseUrl;
  const target = (path: string, type: string, title: string): LinkTarget => ({
    href: model.at(path),
    type,
    title,
  });
  // Beside a site served elsewhere, its own /docs are not this server's (model.serves).
  const served = (path: string, type: string, title: string): LinkTarget[] =>
    model.serves(path) ? [target(path, type, title)] : [];
  const linkset = [
    {
      anchor: model.at(DISCOVERY_PATHS.apiCatalog),
      item: [{ href: api, title: model.reference.title }],
    },
    {
      anchor: api,
      'service-desc': [target(DISCOVERY_PATHS.openApi, OPENAPI_MEDIA_TYPE, 'OpenAPI 3.1 contract')],
      'service-doc': [
        ...served(DISCOVERY_PATHS.docs, 'text/html', 'Documentation'),
        ...served(DISCOVERY_PATHS.developers, 'text/html', 'API reference'),
        target(DISCOVERY_PATHS.apiMd, 'text/markdown', 'API reference for agents'),
      ],
      'service-meta': [
        target(DISCOVERY_PATHS.authMd, 'text/markdown', 'Authentication (none) and the approval rule'),
        target(DISCOVERY_PATHS.agentsMd, 'text/markdown', 'Guide for AI agents'),
        target(DISCOVERY_PATHS.skillsIndex, 'application/json', 'Agent Skills discovery index'),
      ],
      status: [target(DISCOVERY_PATHS.health, 'application/json', 'Health')],
    },
  ];
  return `${JSON.stringify({ linkset }, null, 2)}\n`;
}

/** Media type ARD tools know for an Agent Skill. */
export const ARD_SKILL_TYPE = 'text/markdown; profile="urn:air:agent-skills"';

/**
 * /.well-known/ard.json (also served as ai-catalog.json): the API contract, the /ask endpoint and
 * the skill, each with representative queries. The form without a `host` member is the one both
 * the conformance tool and the Lighthouse audit accept.
 */
export function ardJson(model: DiscoveryModel): string {
  const name = model.siteName;
  const urn = (namespace: string, id: string) => `urn:air:${model.host}:${namespace}:${id}`;
  const entries = [
    {
      identifier: urn('api', 'public-website-api'),
      displayName: model.reference.title,
      type: OPENAPI_MEDIA_TYPE,
      url: model.at(DISCOVERY_PATHS.openApi),
      description: oneLine(model.reference.description.split('\n\n')[0] ?? ''),
      representativeQueries: [
        `search ${name} documentation`,
        `request a demo from ${name}`,
        `suggest a protocol-derived document to ${name}`,
      ],
      tags: ['openapi', 'nlweb', 'search', 'contact'],
    },
    {
      identifier: urn('nlweb', 'ask'),
      displayName: `${name} site search (NLWeb)`,
      type: 'application/json',
      url: model.at(DISCOVERY_PATHS.ask),
      description:
        `Read-only, deterministic lexical search over the public pages and documentation of ${name}. ` +
        'GET /ask?query=… or POST /ask with {"query": {"text": "…"}}; answers are NLWeb responses.',
      representativeQueries: [
        `What does ${name} do?`,
        model.askExample.query,
        `${name} security and compliance`,
      ],
      tags: ['nlweb', 'search', 'read-only'],
    },
    {
      identifier: urn('skill', SKILL_NAME),
      displayName: `Search and contact ${name}`,
      type: ARD_SKILL_TYPE,
      url: model.at(skillPath(SKILL_NAME)),
      description: skillDescription(model),
      representativeQueries: [
        `find information on the ${name} website`,
        `book a demo with ${name} for me`,
        `send a document suggestion to ${name}`,
      ],
      tags: ['agent-skill', 'search', 'contact'],
    },
  ];
  return `${JSON.stringify({ specVersion: '1.0', entries }, null, 2)}\n`;
}

/** /robots.txt: everything may be crawled; the sitemap and the agent catalog are announced. */
export function robotsTxt(model: DiscoveryModel): string {
  return [
    `# ${model.siteName}: everything public may be crawled and read by people and agents.`,
    '# Submitting a form needs the user’s explicit approval: see /agents.md.',
    'User-agent: *',
    'Allow: /',
    '',
    `Sitemap: ${model.at(DISCOVERY_PATHS.sitemap)}`,
    `Agentmap: ${model.at(DISCOVERY_PATHS.ard)}`,
    '',
  ].join('\n');
}
