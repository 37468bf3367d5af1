import { NLWEB_VERSION, personaTableMarkdown, SUGGESTION_COMPANY_TYPES } from '../contract/index.js';
import { oneLine } from './api-reference.js';
import { document, link, table } from './markdown.js';
import { configuredChoiceTables, hasSeedForms, type DiscoveryModel } from './model.js';
import {
  approvalRule,
  errorCodeTable,
  fieldTable,
  listInWords,
  operationMarkdown,
  SEARCH_LIMIT_NOTE,
  sideEffectingOperations,
} from './operations.js';
import { COMPANION_DOCUMENTS, DISCOVERY_PATHS } from './paths.js';

function companionsTable(model: DiscoveryModel): string {
  return table(
    ['document', 'what it is'],
    COMPANION_DOCUMENTS.filter(({ path }) => model.serves(path)).map(({ path, description }) => [
      link(path, model.at(path)),
      description,
    ]),
  );
}

function siteSections(model: DiscoveryModel): string | null {
  const indexes = model.site.pages.filter(
    (page) => page.url !== '/' && page.url.endsWith('/') && page.url.split('/').length === 3,
  );
  if (indexes.length === 0) return null;
  return [
    'Sections of the site:',
    '',
    ...indexes.map(
      (page) => `- ${link(page.title, model.at(page.url))}: ${oneLine(page.description) || page.url}`,
    ),
  ].join('\n');
}

/** /agents.md: what the site is, what an agent may do alone, and the approval rule. */
export function agentsMarkdown(model: DiscoveryModel): string {
  const { info } = model.site;
  const reads = model.reference.operations.filter((op) => op.effect === 'read-only');
  const writes = sideEffectingOperations(model);
  return document([
    `# ${model.siteName}: guide for AI agents`,
    oneLine(info.description) || null,
    info.tagline ? `> ${oneLine(info.tagline)}` : null,
    `Site: ${model.publicBaseUrl}. ${
      info.contactEmail ? `Contact: ${info.contactEmail}. ` : ''
    }The OpenAPI contract at ${model.at(DISCOVERY_PATHS.openApi)} is authoritative for every request and answer.`,
    siteSections(model),
    '## What you may do without asking',
    [
      '- Read any public page; every page also has a Markdown twin (see /llms.txt for the list).',
      ...reads.map(
        (op) =>
          `- \`${op.method} ${op.path}\` (${op.operationId}): ${op.summary}. Read-only` +
          (op.path === DISCOVERY_PATHS.ask
            ? `, deterministic lexical search answering NLWeb ${NLWEB_VERSION}; it calls no language model and reads no customer data.`
            : '.'),
      ),
      '- Fetch any document listed below.',
    ].join('\n'),
    '## What needs the user’s explicit approval',
    approvalRule(model),
    table(
      ['operation', 'what it does', 'approval'],
      writes.map((op) => [
        `\`${op.method} ${op.path}\` (${op.operationId})`,
        op.summary,
        'required, for the exact data',
      ]),
    ),
    '## Credentials',
    `No operation takes credentials: there is no API key, token, cookie or OAuth flow, and none is accepted. ` +
      `See ${link(DISCOVERY_PATHS.authMd, model.at(DISCOVERY_PATHS.authMd))} for why the approval rule still applies.`,
    '## How to search',
    `Ask a question in plain words: \`GET ${model.at(DISCOVERY_PATHS.ask)}?query=...\` or \`POST ${DISCOVERY_PATHS.ask}\` ` +
      `with \`{"query": {"text": "..."}}\`. The answer starts with a text item, then one resource item per result ` +
      `(best first) whose \`data\` has \`url\`, \`name\`, \`description\` and \`score\`. ${SEARCH_LIMIT_NOTE}`,
    '## Documents for agents',
    companionsTable(model),
  ]);
}

/** /auth.md: no credentials, and why the side-effecting operations still need approval. */
export function authMarkdown(model: DiscoveryModel): string {
  const writes = sideEffectingOperations(model);
  return document([
    `# Authentication at ${model.siteName}`,
    '**No operation takes credentials.** The API declares no security requirement (`security: []` in the ' +
      'OpenAPI contract): there is no API key, bearer token, cookie, OAuth or OpenID Connect flow, and a ' +
      'credential sent anyway is ignored. This site publishes no OAuth metadata, because there is no ' +
      'authorization server.',
    '## Why there are none',
    'Everything here is public: the pages and documentation anyone can read, a search over exactly those ' +
      'pages, and two forms that anyone may send, the same forms a visitor fills in on the site. No operation ' +
      'reads or changes anything that belongs to a user, so there is nothing to sign in to.',
    '## Why approval is still required',
    `Without credentials, nothing stops a client from sending the forms; the control is the user’s consent. ${approvalRule(
      model,
    )}`,
    table(
      ['operation', 'creates', 'before calling'],
      writes.map((op) => [
        `\`${op.method} ${op.path}\``,
        CREATES[op.operationId] ?? op.summary,
        'show the exact fields and values; get an explicit yes',
      ]),
    ),
    '## Limits instead of accounts',
    `Because the forms are open, the contract bounds them: a request body is at most ${model.bodyLimitBytes} ` +
      'bytes and every field has its own length limit (see the tables in /api.md). These limits apply to ' +
      'everyone alike; none of them needs a credential.',
    `See ${link(DISCOVERY_PATHS.agentsMd, model.at(DISCOVERY_PATHS.agentsMd))} and ${link(
      DISCOVERY_PATHS.apiMd,
      model.at(DISCOVERY_PATHS.apiMd),
    )}.`,
  ]);
}

/** What each known side-effecting operation creates, in the words a user would approve. */
const CREATES: Readonly<Record<string, string>> = {
  requestDemo: 'a real follow-up request (someone will contact the person)',
  suggestDocument: 'an internal submission for product review',
};

/** /api.md: the API reference in Markdown, rendered from the OpenAPI document. */
export function apiMarkdown(model: DiscoveryModel): string {
  const { reference } = model;
  return document([
    `# ${reference.title}`,
    `Version ${reference.version}, OpenAPI ${model.openApi.openapi}. Base URL: ${reference.serverUrl}. ` +
      `The contract: ${model.at(DISCOVERY_PATHS.openApi)}. Paths carry no version segment.`,
    reference.description,
    '## Authentication',
    `None. No operation takes credentials. Side-effecting operations (${listInWords(
      sideEffectingOperations(model).map((op) => `\`${op.operationId}\``),
    )}) need the user’s explicit ` +
      `approval of the exact data (see ${link(DISCOVERY_PATHS.authMd, model.at(DISCOVERY_PATHS.authMd))}).`,
    '## Operations',
    table(
      ['method', 'path', 'operation', 'summary', 'effect'],
      reference.operations.map((op) => [
        op.method,
        `\`${op.path}\``,
        `\`${op.operationId}\``,
        op.summary,
        op.effect,
      ]),
    ),
    ...reference.operations.map((op) => operationMarkdown(model, op, 3)),
    ...(hasSeedForms(model)
      ? [
          '## Which persona belongs to which companyType',
          `Demo requests (all audiences):\n\n${personaTableMarkdown()}\n\nDocument suggestions (${SUGGESTION_COMPANY_TYPES.join(
            ', ',
          )} only):\n\n${personaTableMarkdown(SUGGESTION_COMPANY_TYPES)}`,
        ]
      : []),
    ...configuredChoiceTables(model).flatMap((choices) => [
      `## ${choices.heading}`,
      `${choices.intro}\n\n${choices.table}`,
    ]),
    '## Errors',
    'The `/api` operations answer errors with the `Error` shape (`ok` false, `error`, `code`, `message`, ' +
      '`resolution`). /ask answers its errors with an NLWeb response whose first text item says what to fix.',
    errorCodeTable(),
    '## Schemas',
    ...reference.schemas.map((schema) =>
      [`### ${schema.name}`, oneLine(schema.description.split('\n\n')[0] ?? ''), fieldTable(schema.fields)]
        .filter((block) => block !== '')
        .join('\n\n'),
    ),
  ]);
}
