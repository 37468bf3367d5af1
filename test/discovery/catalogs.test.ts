import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { COMPANY_TYPES, personaTableMarkdown, SUGGESTION_COMPANY_TYPES } from '../../src/contract/index.js';
import {
  AGENT_SKILLS_SCHEMA,
  ARD_SKILL_TYPE,
  DISCOVERY_PATHS,
  discoveryLinks,
  discoveryLinkTags,
  OPENAPI_MEDIA_TYPE,
} from '../../src/discovery/index.js';
import { BASE, get, pathOf, startDiscoveryApp, type DiscoveryApp } from './harness.js';
import { expectValid, isValid } from './schemas.js';

let served: DiscoveryApp;
beforeAll(async () => {
  served = await startDiscoveryApp();
});
afterAll(async () => {
  await served.close();
});

type Target = { href: string; type?: string; title?: string };
type Context = { anchor: string } & Record<string, Target[] | string>;

describe('/.well-known/api-catalog (RFC 9727)', () => {
  it('is an RFC 9264 linkset with the api-catalog profile and Link header', async () => {
    const response = await get(served.app, DISCOVERY_PATHS.apiCatalog);
    expect(response.headers['content-type']).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    expect(response.headers.link).toBe(`<${BASE}/.well-known/api-catalog>; rel="api-catalog"`);
    const head = await served.app.inject({ method: 'HEAD', url: DISCOVERY_PATHS.apiCatalog });
    expect(head.headers.link).toBe(response.headers.link);
    expectValid('linkset.schema.json', response.json());
  });

  it('lists the API as an item and describes it with service-desc, service-doc, service-meta and status', async () => {
    const { linkset } = (await get(served.app, DISCOVERY_PATHS.apiCatalog)).json() as { linkset: Context[] };
    const catalog = linkset.find((context) => context.anchor === `${BASE}/.well-known/api-catalog`);
    expect(catalog?.item).toEqual([expect.objectContaining({ href: BASE })]);
    const api = linkset.find((context) => context.anchor === BASE)!;
    expect(api['service-desc']).toEqual([
      expect.objectContaining({ href: `${BASE}/openapi.json`, type: OPENAPI_MEDIA_TYPE }),
    ]);
    const docs = (api['service-doc'] as Target[]).map((target) => [target.href, target.type]);
    expect(docs).toContainEqual([`${BASE}/docs`, 'text/html']);
    expect(docs).toContainEqual([`${BASE}/api.md`, 'text/markdown']);
    expect((api['service-meta'] as Target[]).map((target) => target.href)).toContain(`${BASE}/auth.md`);
    expect(api.status).toEqual([expect.objectContaining({ href: `${BASE}/healthz` })]);
  });

  it('the linkset schema rejects what RFC 9264 forbids', () => {
    const valid = { linkset: [{ anchor: `${BASE}/`, item: [{ href: `${BASE}/x` }] }] };
    expect(isValid('linkset.schema.json', valid)).toBe(true);
    expect(isValid('linkset.schema.json', { ...valid, extra: 1 })).toBe(false);
    expect(isValid('linkset.schema.json', { linkset: [{ anchor: `${BASE}/`, item: `${BASE}/x` }] })).toBe(
      false,
    );
    expect(
      isValid('linkset.schema.json', { linkset: [{ anchor: `${BASE}/`, item: [{ href: '/x' }] }] }),
    ).toBe(false);
    expect(
      isValid('linkset.schema.json', { linkset: [{ anchor: `${BASE}/`, item: [{ title: 'x' }] }] }),
    ).toBe(false);
  });
});

describe('/.well-known/agent-skills/index.json (Agent Skills Discovery 0.2.0)', () => {
  it('validates, and every digest is the sha256 of the exact bytes served at its url', async () => {
    const index = (await get(served.app, DISCOVERY_PATHS.skillsIndex)).json() as {
      $schema: string;
      skills: { name: string; type: string; description: string; url: string; digest: string }[];
    };
    expectValid('agent-skills-index.schema.json', index);
    expect(index.$schema).toBe(AGENT_SKILLS_SCHEMA);
    expect(index.skills.length).toBeGreaterThanOrEqual(1);
    for (const skill of index.skills) {
      const url = new URL(skill.url, `${BASE}${DISCOVERY_PATHS.skillsIndex}`).href;
      expect(url).toBe(`${BASE}/.well-known/agent-skills/${skill.name}/SKILL.md`);
      const artifact = await get(served.app, pathOf(url));
      expect(artifact.statusCode).toBe(200);
      expect(artifact.headers['content-type']).toBe('text/markdown; charset=utf-8');
      const digest = `sha256:${createHash('sha256').update(artifact.rawPayload).digest('hex')}`;
      expect(skill.digest).toBe(digest);

      // SKILL.md: YAML front matter whose name is the folder's and whose description is the index's.
      const text = artifact.rawPayload.toString('utf8');
      const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
      expect(match).not.toBeNull();
      const frontMatter = parseYaml(match![1]!) as { name: string; description: string };
      expect(frontMatter.name).toBe(skill.name);
      expect(frontMatter.description).toBe(skill.description);
      expect(frontMatter.description.length).toBeLessThanOrEqual(1024);
    }
  });

  it('the skill teaches search, the approval rule, the exact fields, the persona table and errors', async () => {
    const text = (await get(served.app, '/.well-known/agent-skills/search-and-contact/SKILL.md')).body;
    const document = (await get(served.app, DISCOVERY_PATHS.openApi)).json() as {
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    for (const [path, operations] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(operations)) {
        expect(text).toContain(`${method.toUpperCase()} ${path}`);
        expect(text).toContain(operation.operationId);
      }
    for (const schema of ['LeadRequest', 'SuggestionRequest'])
      for (const field of Object.keys(document.components.schemas[schema]!.properties))
        expect(text, `${schema}.${field}`).toContain(`| \`${field}\` |`);
    expect(text).toContain(personaTableMarkdown(COMPANY_TYPES));
    expect(text).toContain(personaTableMarkdown(SUGGESTION_COMPANY_TYPES));
    expect(text).toMatch(/explicitly approved that exact data/);
    expect(text).toContain('Shall I send it?');
    for (const code of ['VALIDATION_ERROR', 'INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'INTERNAL_ERROR'])
      expect(text).toContain(code);
    expect(text).toContain(`${BASE}/ask?query=`);
  });

  it('answers 404 with the error envelope for an unknown skill, on GET and HEAD', async () => {
    const response = await get(served.app, '/.well-known/agent-skills/no-such-skill/SKILL.md', {
      accept: 'text/html',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ ok: false, code: 'ENDPOINT_NOT_FOUND' });
    const head = await served.app.inject({ method: 'HEAD', url: '/.well-known/agent-skills/nope/SKILL.md' });
    expect(head.statusCode).toBe(404);
  });

  it('the index schema rejects what the specification forbids', () => {
    const skill = {
      name: 'good-name',
      type: 'skill-md',
      description: 'x',
      url: 'good-name/SKILL.md',
      digest: `sha256:${'a'.repeat(64)}`,
    };
    const index = (s: object) => ({ $schema: AGENT_SKILLS_SCHEMA, skills: [{ ...skill, ...s }] });
    expect(isValid('agent-skills-index.schema.json', index({}))).toBe(true);
    for (const bad of [
      { name: 'Bad' },
      { name: '-bad' },
      { name: 'bad--name' },
      { name: 'a'.repeat(65) },
      { type: 'zip' },
      { description: 'x'.repeat(1025) },
      { digest: `sha256:${'A'.repeat(64)}` },
    ])
      expect(isValid('agent-skills-index.schema.json', index(bad)), JSON.stringify(bad)).toBe(false);
  });
});

describe('/.well-known/ard.json (Agentic Resource Discovery)', () => {
  it('validates, and ai-catalog.json serves the same bytes', async () => {
    const ard = await get(served.app, DISCOVERY_PATHS.ard);
    const aiCatalog = await get(served.app, DISCOVERY_PATHS.aiCatalog);
    expect(aiCatalog.rawPayload.equals(ard.rawPayload)).toBe(true);
    expectValid('ard.schema.json', ard.json());
  });

  it('has entries for the API, the /ask endpoint and the skill, each reachable', async () => {
    const { entries } = (await get(served.app, DISCOVERY_PATHS.ard)).json() as {
      entries: { identifier: string; type: string; url: string; representativeQueries: string[] }[];
    };
    const host = new URL(BASE).hostname;
    expect(entries.map((entry) => entry.url)).toEqual([
      `${BASE}/openapi.json`,
      `${BASE}/ask`,
      `${BASE}/.well-known/agent-skills/search-and-contact/SKILL.md`,
    ]);
    expect(entries[2]!.type).toBe(ARD_SKILL_TYPE);
    for (const entry of entries) expect(entry.identifier.startsWith(`urn:air:${host}:`)).toBe(true);
  });

  it('the ARD schema rejects a host member, both url and data, and too few queries', () => {
    const entry = {
      identifier: 'urn:air:www.a.test:api:x',
      displayName: 'X',
      type: 'application/json',
      url: 'https://www.a.test/x',
      representativeQueries: ['one', 'two'],
    };
    expect(isValid('ard.schema.json', { specVersion: '1.0', entries: [entry] })).toBe(true);
    expect(isValid('ard.schema.json', { specVersion: '1.0', host: {}, entries: [entry] })).toBe(false);
    expect(isValid('ard.schema.json', { specVersion: '1.0', entries: [{ ...entry, data: {} }] })).toBe(false);
    expect(
      isValid('ard.schema.json', {
        specVersion: '1.0',
        entries: [{ ...entry, representativeQueries: ['one'] }],
      }),
    ).toBe(false);
    expect(
      isValid('ard.schema.json', { specVersion: '1.0', entries: [{ ...entry, identifier: 'urn:air:x' }] }),
    ).toBe(false);
  });
});

describe('robots.txt and the HTML head links', () => {
  it('robots.txt announces the sitemap and the agent catalog with absolute URLs', async () => {
    const text = (await get(served.app, DISCOVERY_PATHS.robotsTxt)).body;
    const lines = text.split('\n');
    expect(lines).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    expect(lines).toContain(`Agentmap: ${BASE}/.well-known/ard.json`);
    expect(lines).toContain('User-agent: *');
  });

  it('discoveryLinks names ard, ai-catalog, api-catalog and the contract with absolute URLs', () => {
    const links = discoveryLinks(BASE);
    const byRel = new Map(links.map((link) => [link.rel, link.href]));
    expect(byRel.get('ard')).toBe(`${BASE}/.well-known/ard.json`);
    expect(byRel.get('ai-catalog')).toBe(`${BASE}/.well-known/ai-catalog.json`);
    expect(byRel.get('api-catalog')).toBe(`${BASE}/.well-known/api-catalog`);
    expect(byRel.get('service-desc')).toBe(`${BASE}/openapi.json`);
    expect(discoveryLinkTags(BASE)).toContain(`<link rel="ard" href="${BASE}/.well-known/ard.json"`);
  });
});
