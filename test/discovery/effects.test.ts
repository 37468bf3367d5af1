import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSEQUENTIAL } from '../../src/contract/index.js';
import {
  DISCOVERY_PATHS,
  effectOf,
  readApiReference,
  skillPath,
  SKILL_NAME,
} from '../../src/discovery/index.js';
import { agentsMarkdown, apiMarkdown, authMarkdown } from '../../src/discovery/agent-docs.js';
import { llmsTxt } from '../../src/discovery/llms.js';
import { buildModel, type DiscoveryModel } from '../../src/discovery/model.js';
import { skillMarkdown } from '../../src/discovery/skill.js';
import { discoveryInputOf } from '../../src/http/routes/discovery.js';
import { get, startDiscoveryApp, type DiscoveryApp } from './harness.js';

type Operation = { operationId: string; [key: string]: unknown };
type OpenApi = { paths: Record<string, Record<string, Operation>> };

let served: DiscoveryApp;
let openApi: OpenApi;
beforeAll(async () => {
  served = await startDiscoveryApp();
  openApi = (await get(served.app, DISCOVERY_PATHS.openApi)).json() as OpenApi;
});
afterAll(async () => {
  await served.close();
});

const servedOperations = () =>
  Object.entries(openApi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );

/** The approval section of /agents.md: from its heading to the next H2. */
const approvalSection = (markdown: string) =>
  /## What needs the user’s explicit approval\n([\s\S]*?)\n## /.exec(markdown)![1]!;

describe('side effects in the agent documents come from the operations themselves', () => {
  it('only the operations the contract marks consequential are called side-effecting, in every document', async () => {
    const consequential = servedOperations().filter(({ operation }) => operation[CONSEQUENTIAL] === true);
    const others = servedOperations().filter(({ operation }) => operation[CONSEQUENTIAL] !== true);
    expect(consequential.map(({ operation }) => operation.operationId).sort()).toEqual([
      'requestDemo',
      'suggestDocument',
    ]);
    // Safe methods never carry the flag: a health check is no submission.
    for (const { method, operation } of servedOperations())
      if (method === 'GET') expect(operation[CONSEQUENTIAL], operation.operationId).not.toBe(true);

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
    for (const { path, method, operation } of servedOperations()) {
      const row = api.split('\n').find((line) => line.startsWith(`| ${method} | \`${path}\` |`));
      expect(row, `${method} ${path}`).toMatch(
        operation[CONSEQUENTIAL] === true ? /\| side-effecting \|$/ : /\| read-only \|$/,
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
