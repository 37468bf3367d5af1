import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DISCOVERY_PATHS,
  effectOf,
  readApiReference,
  skillPath,
  SKILL_NAME,
} from '../../src/discovery/index.js';
import { CONSEQUENTIAL } from '../../src/contract/index.js';
import { agentsMarkdown, apiMarkdown, authMarkdown } from '../../src/discovery/agent-docs.js';
import { llmsTxt } from '../../src/discovery/llms.js';
import { buildModel, type DiscoveryModel } from '../../src/discovery/model.js';
import { skillMarkdown } from '../../src/discovery/skill.js';
import { discoveryInputOf } from '../../src/http/surfaces/discovery.js';

import { PublishedContract } from '../support/openapi.js';
import { BASE, get, startDiscoveryApp, type DiscoveryApp } from './harness.js';

type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
};
type OpenApi = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

let served: DiscoveryApp;
let openApi: OpenApi;
beforeAll(async () => {
  served = await startDiscoveryApp();
  openApi = (await get(served.app, DISCOVERY_PATHS.openApi)).json() as OpenApi;
});
afterAll(async () => {
  await served.close();
});

const operations = () =>
  Object.entries(openApi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );

/** The text of a Markdown section: from its heading to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const level = /^#+/.exec(heading)![0].length;
  const end = lines.findIndex(
    (line, i) => i > start && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level,
  );
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

function codeAfter(text: string, label: string): string | null {
  const at = text.indexOf(label);
  if (at === -1) return null;
  const match = /```[a-z]*\n([\s\S]*?)\n```/.exec(text.slice(at));
  return match ? match[1]! : null;
}

describe('/agents.md, /auth.md, /api.md', () => {
  it.each([DISCOVERY_PATHS.agentsMd, DISCOVERY_PATHS.authMd, DISCOVERY_PATHS.apiMd])(
    '%s is Markdown that starts with an H1 and links only to this site or the contract',
    async (path) => {
      const response = await get(served.app, path);
      expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(response.body).toMatch(/^# \S/);
      expect(response.body.match(/^# /gm)).toHaveLength(1);
      for (const [, url] of response.body.matchAll(/\]\(([^)]+)\)/g))
        expect(url!.startsWith(BASE), url).toBe(true);
    },
  );

  it('agents.md says what the site is, what may be done alone, the approval rule and where the docs are', async () => {
    const text = (await get(served.app, DISCOVERY_PATHS.agentsMd)).body;
    expect(text).toContain(served.site.info.description.replace(/\s+/g, ' ').trim());
    expect(text).toContain('## What you may do without asking');
    expect(text).toContain('## What needs the user’s explicit approval');
    expect(text).toMatch(
      /`POST \/api\/leads`.*`POST \/api\/document-suggestions`.*explicitly approved that exact data/s,
    );
    for (const path of [DISCOVERY_PATHS.openApi, DISCOVERY_PATHS.apiMd, DISCOVERY_PATHS.llmsTxt])
      expect(text).toContain(`${BASE}${path}`);
  });

  it('auth.md says there are no credentials and why approval is still needed', async () => {
    const text = (await get(served.app, DISCOVERY_PATHS.authMd)).body;
    expect(text).toContain('No operation takes credentials');
    expect(text).toContain('## Why approval is still required');
    expect(text).not.toMatch(/oauth-authorization-server|openid-configuration/);
  });

  it('api.md documents every operation of the served contract with an example request and answer', async () => {
    const text = (await get(served.app, DISCOVERY_PATHS.apiMd)).body;
    const contract = new PublishedContract(
      openApi as unknown as ConstructorParameters<typeof PublishedContract>[0],
    );
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('email', true);
    ajv.addFormat('uri', true);
    ajv.addSchema({ $id: 'openapi.json', components: openApi.components });

    for (const { path, method, operation } of operations()) {
      const body = section(text, `### ${method} ${path} — `);
      expect(body).toContain(`\`${operation.operationId}\``);

      const request = codeAfter(body, 'Example request:');
      expect(request, `${method} ${path} example request`).not.toBeNull();
      expect(request!).toContain(`${BASE}${path}`);
      const data = /--data '([^']*)'/.exec(request!)?.[1];
      if (operation.requestBody) {
        expect(data, `${method} ${path} has a body`).toBeDefined();
        const ref = Object.values(operation.requestBody.content)[0]!.schema.$ref;
        const validate = ajv.compile({ $ref: `openapi.json${ref}` });
        expect(validate(JSON.parse(data!)) ? [] : validate.errors, `${method} ${path} example body`).toEqual(
          [],
        );
      }

      const statuses = [...body.matchAll(/Example answer \((\d{3})\):/g)].map((m) => m[1]!);
      expect(
        statuses.some((status) => status.startsWith('2')),
        `${method} ${path} example answer`,
      ).toBe(true);
      for (const status of statuses) {
        const answer = JSON.parse(codeAfter(body, `Example answer (${status}):`)!) as unknown;
        contract.expectResponse(method, path, Number(status), 'application/json', answer);
      }
    }
  });

  it('the /ask example answer is a real answer of this server to the example request', async () => {
    const text = (await get(served.app, DISCOVERY_PATHS.apiMd)).body;
    const body = section(text, '### GET /ask — ');
    const url = /curl -sS '([^']+)'/.exec(codeAfter(body, 'Example request:')!)![1]!;
    const query = new URL(url).searchParams;
    const answer = served.context.ask.answer(
      { text: query.get('query')!, maxResults: Number(query.get('max_results') ?? 10), conversationId: null },
      '00000000-0000-4000-8000-000000000000',
    );
    expect(JSON.parse(codeAfter(body, 'Example answer (200):')!)).toEqual(answer);
    expect(answer.content.length).toBeGreaterThan(1);
  });
});

describe('/docs and /developers', () => {
  it('/developers renders the served contract: every operation, parameter, schema and example', async () => {
    const response = await get(served.app, DISCOVERY_PATHS.developers);
    const html = response.body;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    for (const { path, operation } of operations()) {
      expect(html).toContain(`id="${operation.operationId}"`);
      expect(html).toContain(path);
    }
    for (const name of Object.keys(openApi.components.schemas)) expect(html).toContain(`id="schema-${name}"`);
    expect(html).toContain('<table>');
    expect(html).toContain('Example answer (200)');
    // Served locally: no external script, stylesheet or font.
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"[^>]+href="https?:/);
    expect(html).not.toMatch(/<[^>]+\sstyle="/);
  });

  it('/docs lists every documentation page and links the API reference', async () => {
    const html = (await get(served.app, DISCOVERY_PATHS.docs)).body;
    const docsPages = served.site.pages.filter((page) => page.url.startsWith('/docs/'));
    expect(docsPages.length).toBeGreaterThan(0);
    for (const page of docsPages) expect(html, page.url).toContain(`href="${encodeURI(page.url)}"`);
    expect(html).toContain('href="/developers"');
    expect(html).toContain('href="/openapi.json"');
  });
});

/** The approval section of /agents.md: from its heading to the next H2. */
const approvalSection = (markdown: string) =>
  /## What needs the user’s explicit approval\n([\s\S]*?)\n## /.exec(markdown)![1]!;

describe('side effects in the agent documents come from the operations themselves', () => {
  it('only the operations the contract marks consequential are called side-effecting, in every document', async () => {
    const consequential = operations().filter(
      ({ operation }) => (operation as Record<string, unknown>)[CONSEQUENTIAL] === true,
    );
    const others = operations().filter(
      ({ operation }) => (operation as Record<string, unknown>)[CONSEQUENTIAL] !== true,
    );
    expect(consequential.map(({ operation }) => operation.operationId).sort()).toEqual([
      'requestDemo',
      'suggestDocument',
    ]);
    // Safe methods never carry the flag: a health check is no submission.
    for (const { method, operation } of operations())
      if (method === 'GET')
        expect((operation as Record<string, unknown>)[CONSEQUENTIAL], operation.operationId).not.toBe(true);

    const agents = (await get(served.app, DISCOVERY_PATHS.agentsMd)).body;
    const auth = (await get(served.app, DISCOVERY_PATHS.authMd)).body;
    const api = (await get(served.app, DISCOVERY_PATHS.apiMd)).body;
    const skill = (await get(served.app, skillPath(SKILL_NAME))).body;
    const llms = (await get(served.app, DISCOVERY_PATHS.llmsTxt)).body;
    const approval = approvalSection(agents);
    const authApproval = /## Why approval is still required\n([\s\S]*?)\n## /.exec(auth)![1]!;
    const skillRule = /\n2\. (.*)\n/.exec(skill)![1]!;
    const llmsRule = /[^.]*create real submissions[^.]*\./.exec(llms)![0];
    for (const { path, method } of consequential)
      for (const text of [approval, authApproval, skillRule, llmsRule])
        expect(text).toContain(`${method} ${path}`);
    for (const { path, method } of others)
      for (const text of [approval, authApproval, skillRule, llmsRule])
        expect(text, `${method} ${path}`).not.toContain(`${method} ${path}\``);
    expect(llmsRule).toMatch(/^ ?Two operations create real submissions/);
    // /api.md's operation table: the effect column of every row.
    for (const { path, method, operation } of operations()) {
      const row = api.split('\n').find((line) => line.startsWith(`| ${method} | \`${path}\` |`));
      expect(row, `${method} ${path}`).toMatch(
        (operation as Record<string, unknown>)[CONSEQUENTIAL] === true
          ? /\| side-effecting \|$/
          : /\| read-only \|$/,
      );
    }
    expect(agents).toMatch(/`GET \/healthz` \(checkHealth\): [^\n]*\. Read-only\.\n/);
  });

  it('a new read-only route is read-only without being listed anywhere; a new POST needs the flag to be', () => {
    expect(effectOf('GET', {})).toBe('read-only');
    expect(effectOf('HEAD', {})).toBe('read-only');
    // A safe method cannot be called side-effecting, whatever it claims.
    expect(effectOf('GET', { [CONSEQUENTIAL]: true })).toBe('read-only');
    // A new POST is side-effecting until it says it is not: never advertised as safe by default.
    expect(effectOf('POST', {})).toBe('side-effecting');
    expect(effectOf('POST', { [CONSEQUENTIAL]: false })).toBe('read-only');
    expect(effectOf('DELETE', { [CONSEQUENTIAL]: true })).toBe('side-effecting');

    const model = buildModel(discoveryInputOf(served.context));
    const paths = {
      ...model.openApi.paths,
      '/status/version': {
        get: { operationId: 'readVersion', summary: 'The running version', responses: { '200': {} } },
      },
    };
    const openApiWithNewRoute = { ...model.openApi, paths };
    const withRoute: DiscoveryModel = {
      ...model,
      openApi: openApiWithNewRoute,
      reference: readApiReference(openApiWithNewRoute),
    };
    const operation = withRoute.reference.operations.find((op) => op.operationId === 'readVersion');
    expect(operation?.effect).toBe('read-only');
    expect(agentsMarkdown(withRoute)).toContain(
      '`GET /status/version` (readVersion): The running version. Read-only.',
    );
    expect(approvalSection(agentsMarkdown(withRoute))).not.toContain('/status/version');
    for (const text of [authMarkdown(withRoute), skillMarkdown(withRoute), llmsTxt(withRoute)])
      expect(text).not.toMatch(/GET \/status\/version[^\n]*approv/);
    expect(apiMarkdown(withRoute)).toContain(
      '| GET | `/status/version` | `readVersion` | The running version | read-only |',
    );
  });
});
