import type { default as MarkdownItConstructor, MarkdownIt } from 'markdown-it';
import { createRequire } from 'node:module';
import { ERROR_CODES, personaTableMarkdown, SUGGESTION_COMPANY_TYPES } from '../contract/index.js';
import { encodePagePath } from '../content/index.js';
import { oneLine, type FieldRow, type OperationDoc } from './api-reference.js';
import { treeOrder } from './llms.js';
import { json } from './markdown.js';
import { configuredChoiceTables, hasSeedForms, type DiscoveryModel, type HtmlPageParts } from './model.js';
import { approvalRule, ERROR_CODE_GUIDE, exampleAnswer, exampleRequest } from './operations.js';
import { COMPANION_DOCUMENTS, discoveryLinkTags, DISCOVERY_PATHS } from './paths.js';
import { escapeHtml } from '../text/index.js';

/**
 * The two pages for people: /docs (the documentation index) and /developers (the API reference
 * rendered server-side from the OpenAPI document: no script, no CDN).
 */

// Raw HTML in descriptions is escaped (html: false), as everywhere on the site. Loaded with the
// first of these pages (they are built on their first request), not at start-up.
let loadedMarkdown: MarkdownIt | null = null;
const markdown = (): MarkdownIt =>
  (loadedMarkdown ??= new (createRequire(import.meta.url)('markdown-it') as typeof MarkdownItConstructor)({
    html: false,
    linkify: false,
    typographer: false,
  }));

const inline = (text: string) => markdown().renderInline(text);
/** markdown-it writes a style attribute for aligned table cells, which the site's CSP forbids. */
const block = (text: string) =>
  markdown()
    .render(text)
    .replace(/ style="text-align:[a-z]+"/g, '');

function htmlTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  caption?: string,
): string {
  return [
    '<div class="table-wrap"><table>',
    caption ? `<caption>${escapeHtml(caption)}</caption>` : '',
    `<thead><tr>${headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.map((row) => `<tr>${row.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody>`,
    '</table></div>',
  ].join('');
}

function fieldsHtml(rows: readonly FieldRow[], caption: string): string {
  return htmlTable(
    ['Field', 'Type', 'Required', 'Bounds / format', 'Meaning'],
    rows.map((row) => [
      `<code>${escapeHtml(row.name)}</code>`,
      escapeHtml(row.type),
      inline(row.required),
      inline(row.constraints),
      inline(row.description),
    ]),
    caption,
  );
}

const pre = (language: string, text: string) =>
  `<pre><code class="language-${language}">${escapeHtml(text)}</code></pre>`;

function operationHtml(model: DiscoveryModel, operation: OperationDoc): string {
  const parts: string[] = [
    `<section class="api-operation" aria-labelledby="${escapeHtml(operation.operationId)}">`,
    `<h2 id="${escapeHtml(operation.operationId)}"><code>${escapeHtml(operation.method)} ${escapeHtml(
      operation.path,
    )}</code> — ${escapeHtml(operation.summary)}</h2>`,
    `<p>Operation <code>${escapeHtml(operation.operationId)}</code>. ${
      operation.effect === 'side-effecting'
        ? '<strong>Side effect: creates a real submission.</strong> Agents must have the user’s explicit approval of the exact data first.'
        : '<strong>Read-only:</strong> no side effects.'
    }</p>`,
    block(operation.description),
  ];
  if (operation.parameters.length > 0)
    parts.push(
      htmlTable(
        ['Name', 'In', 'Type', 'Required', 'Bounds / format', 'Meaning'],
        operation.parameters.map((p) => [
          `<code>${escapeHtml(p.name)}</code>`,
          escapeHtml(p.location),
          escapeHtml(p.type),
          escapeHtml(p.required),
          inline(p.constraints),
          inline(p.description),
        ]),
        'Query parameters',
      ),
    );
  if (operation.requestBody) {
    const body = operation.requestBody;
    parts.push(
      `<p>Request body (${body.required ? 'required' : 'optional'}), as ${body.contentTypes
        .map((type) => `<code>${escapeHtml(type)}</code>`)
        .join(' or ')}${body.schemaName ? `: schema <code>${escapeHtml(body.schemaName)}</code>` : ''}.</p>`,
      fieldsHtml(body.fields, 'Request body fields'),
    );
  }
  parts.push('<h3>Example request</h3>', pre('sh', exampleRequest(model, operation).curl));
  parts.push(
    htmlTable(
      ['Status', 'Meaning', 'Content type', 'Body'],
      operation.responses.map((r) => [
        escapeHtml(r.status),
        inline(r.description),
        r.contentTypes.map((type) => `<code>${escapeHtml(type)}</code>`).join(', '),
        r.schemaName
          ? `<a href="#schema-${escapeHtml(r.schemaName)}"><code>${escapeHtml(r.schemaName)}</code></a>`
          : '',
      ]),
      'Answers',
    ),
  );
  for (const response of operation.responses) {
    const example = exampleAnswer(model, operation, response.status);
    if (example === undefined) continue;
    parts.push(`<h3>Example answer (${escapeHtml(response.status)})</h3>`, pre('json', json(example)));
  }
  parts.push('</section>');
  return parts.join('\n');
}

export function developersPage(model: DiscoveryModel): HtmlPageParts {
  const { reference } = model;
  const link = (path: string, text: string) => `<a href="${escapeHtml(path)}">${escapeHtml(text)}</a>`;
  const body = [
    `<p>${escapeHtml(reference.title)}, version ${escapeHtml(reference.version)}. Base URL <code>${escapeHtml(
      reference.serverUrl,
    )}</code>. This page is rendered from the OpenAPI contract at ${link(
      DISCOVERY_PATHS.openApi,
      DISCOVERY_PATHS.openApi,
    )}, which is authoritative; the same reference for agents is ${link(DISCOVERY_PATHS.apiMd, DISCOVERY_PATHS.apiMd)}.</p>`,
    `<p><strong>No operation takes credentials.</strong> ${inline(approvalRule(model))}</p>`,
    htmlTable(
      ['Method', 'Path', 'Operation', 'Summary', 'Effect'],
      reference.operations.map((op) => [
        escapeHtml(op.method),
        `<code>${escapeHtml(op.path)}</code>`,
        `<a href="#${escapeHtml(op.operationId)}"><code>${escapeHtml(op.operationId)}</code></a>`,
        escapeHtml(op.summary),
        escapeHtml(op.effect),
      ]),
      'Operations',
    ),
    ...reference.operations.map((op) => operationHtml(model, op)),
    ...(hasSeedForms(model)
      ? [
          '<h2 id="personas">Which persona belongs to which companyType</h2>',
          '<p>Demo requests:</p>',
          block(personaTableMarkdown()),
          '<p>Document suggestions:</p>',
          block(personaTableMarkdown(SUGGESTION_COMPANY_TYPES)),
        ]
      : []),
    ...configuredChoiceTables(model).flatMap((choices) => [
      `<h2>${escapeHtml(choices.heading)}</h2>`,
      `<p>${escapeHtml(choices.intro)}</p>`,
      block(choices.table),
    ]),
    '<h2 id="errors">Errors</h2>',
    '<p>The <code>/api</code> operations answer errors with the <code>Error</code> shape; /ask answers with an NLWeb response whose text item says what to fix.</p>',
    htmlTable(
      ['Code', 'Status', 'Meaning', 'What to do'],
      ERROR_CODES.map((code) => [
        `<code>${code}</code>`,
        escapeHtml(ERROR_CODE_GUIDE[code].status),
        inline(ERROR_CODE_GUIDE[code].meaning),
        inline(ERROR_CODE_GUIDE[code].whatToDo),
      ]),
      'Error codes',
    ),
    '<h2 id="schemas">Schemas</h2>',
    ...reference.schemas.map((schema) =>
      [
        `<h3 id="schema-${escapeHtml(schema.name)}"><code>${escapeHtml(schema.name)}</code></h3>`,
        schema.description ? `<p>${inline(oneLine(schema.description.split('\n\n')[0] ?? ''))}</p>` : '',
        schema.fields.length > 0 ? fieldsHtml(schema.fields, `${schema.name} fields`) : '',
      ].join('\n'),
    ),
    '<h2 id="machine-readable">Machine-readable companions</h2>',
    companionsList(),
  ].join('\n');
  return {
    path: DISCOVERY_PATHS.developers,
    title: 'API reference',
    description: `The ${model.siteName} public website API: search, demo requests and document suggestions.`,
    bodyHtml: body,
    kind: 'reference',
  };
}

function companionsList(): string {
  const items = COMPANION_DOCUMENTS.flatMap(({ path, label }) =>
    label === undefined ? [] : [{ path, label }],
  );
  return `<ul>${items
    .map(
      ({ path, label }) =>
        `<li><a href="${escapeHtml(path)}">${escapeHtml(label)}</a> <code>${escapeHtml(path)}</code></li>`,
    )
    .join('')}</ul>`;
}

export function docsPage(model: DiscoveryModel): HtmlPageParts {
  const pages = treeOrder(
    model.site.pages.filter((page) => page.url.startsWith('/docs/')),
    model.site.byUrl.get('/docs/'),
    '/docs/',
  );
  const list =
    pages.length > 0
      ? `<ul>${pages
          .map(
            (page) =>
              `<li><a href="${escapeHtml(encodePagePath(page.url))}">${escapeHtml(page.title)}</a>${
                page.description ? ` — ${escapeHtml(oneLine(page.description))}` : ''
              }</li>`,
          )
          .join('')}</ul>`
      : '<p>There are no documentation pages yet.</p>';
  const body = [
    `<p>Documentation for ${escapeHtml(model.siteName)}: the guides of the documentation section and the ` +
      'reference of the public website API.</p>',
    '<h2 id="guides">Guides</h2>',
    list,
    '<h2 id="api">API</h2>',
    `<p>The ${'<a href="/developers">API reference</a>'} describes every operation with examples; the ` +
      `<a href="${DISCOVERY_PATHS.openApi}">OpenAPI contract</a> is authoritative. Searching is read-only; the ` +
      'demo request and the document suggestion create real submissions and need the user’s explicit approval ' +
      'when an agent sends them. No operation takes credentials.</p>',
    '<h2 id="agents">For AI agents</h2>',
    companionsList(),
  ].join('\n');
  return {
    path: DISCOVERY_PATHS.docs,
    title: 'Documentation',
    description: `Guides and the API reference of ${model.siteName}.`,
    bodyHtml: body,
    kind: 'index',
  };
}

/** A complete HTML document for a page, used when no site layout is supplied. */
export function standaloneHtml(model: DiscoveryModel, parts: HtmlPageParts): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(`${parts.title} | ${model.siteName}`)}</title>`,
    `<meta name="description" content="${escapeHtml(parts.description)}">`,
    `<link rel="canonical" href="${escapeHtml(model.at(parts.path))}">`,
    discoveryLinkTags(model.publicBaseUrl),
    '</head>',
    '<body>',
    `<main id="main"><article><h1>${escapeHtml(parts.title)}</h1>`,
    `<p>${escapeHtml(parts.description)}</p>`,
    parts.bodyHtml,
    '</article></main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
