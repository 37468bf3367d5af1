import { createHash } from 'node:crypto';
import { stringify as stringifyYaml } from 'yaml';
import { MAX_QUERY_LENGTH, personaTableMarkdown, SUGGESTION_COMPANY_TYPES } from '../contract/index.js';
import { oneLine } from './api-reference.js';
import { codeBlock, document, json, table } from './markdown.js';
import { configuredChoiceTables, hasSeedForms, type DiscoveryModel } from './model.js';
import { approvalRule, errorCodeTable, exampleRequest, operationMarkdown } from './operations.js';
import { DISCOVERY_PATHS, SKILL_NAME, skillPath } from './paths.js';

export const AGENT_SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

/** Agent Skills limit the description to 1024 characters. */
const DESCRIPTION_LIMIT = 1024;

/** "request a demo or suggest a document through its two POST operations", from the site's forms. */
function formsPhrase(model: DiscoveryModel): string {
  if (hasSeedForms(model) && (model.forms ?? []).length <= 2)
    return 'request a demo or suggest a document through its two POST operations';
  const summaries = (model.forms ?? []).map(
    (form) => form.summary.charAt(0).toLowerCase() + form.summary.slice(1),
  );
  const count = summaries.length === 1 ? 'its POST operation' : `its ${summaries.length} POST operations`;
  return `${summaries.join(' or ')} through ${count}`;
}

export function skillDescription(model: DiscoveryModel): string {
  const text =
    `Search the public pages and documentation of ${model.siteName} (${model.publicBaseUrl}) through its ` +
    `read-only NLWeb /ask endpoint, and ${formsPhrase(model)} ` +
    'only after the user explicitly approves the exact data. Use when a user asks about ' +
    `${model.siteName}, its products or documentation, or wants to contact it.`;
  return text.length <= DESCRIPTION_LIMIT ? text : `${text.slice(0, DESCRIPTION_LIMIT - 1)}…`;
}

function approvalScript(model: DiscoveryModel, operationId: string): string {
  const operation = model.reference.operations.find((op) => op.operationId === operationId);
  if (!operation) return '';
  const example = exampleRequest(model, operation).body;
  const rows =
    example && typeof example === 'object' ? Object.entries(example as Record<string, unknown>) : [];
  return [
    'Before sending, show the user exactly this, with their values, and wait for an explicit yes:',
    [
      `> I will send this to ${model.siteName} (\`${operation.method} ${model.at(operation.path)}\`):`,
      '>',
      ...table(
        ['field', 'value'],
        rows.map(([field, value]) => [`\`${field}\``, String(value)]),
      )
        .split('\n')
        .map((line) => `> ${line}`),
      '>',
      '> Shall I send it?',
    ].join('\n'),
  ].join('\n\n');
}

/** SKILL.md: generated from the contract and the site details, so it changes when they do. */
export function skillMarkdown(model: DiscoveryModel): string {
  const byId = new Map(model.reference.operations.map((op) => [op.operationId, op]));
  const reads = model.reference.operations.filter((op) => op.effect === 'read-only');
  const lead = byId.get('requestDemo');
  const suggestion = byId.get('suggestDocument');
  const others = model.reference.operations.filter(
    (op) => op.effect === 'side-effecting' && op !== lead && op !== suggestion,
  );
  const frontMatter = stringifyYaml(
    { name: SKILL_NAME, description: skillDescription(model) },
    { lineWidth: 0 },
  ).trimEnd();
  const { info } = model.site;
  return document([
    `---\n${frontMatter}\n---`,
    `# Search ${model.siteName} and contact it for a user`,
    oneLine(info.description) || null,
    `Base URL: ${model.publicBaseUrl}. Contract (authoritative): ${model.at(DISCOVERY_PATHS.openApi)}. ` +
      'No credentials are needed, and none are accepted.',
    '## Rules',
    [
      '1. Searching is read-only and needs no permission: use /ask freely, and cite the `url` of every result you use.',
      `2. ${approvalRule(model)}`,
      '3. Show the method, the URL and every field with its value. Send only fields the user gave or approved.',
      '4. A 2xx answer means the submission is stored: do not send it again. `delivered: false` only means ' +
        'delivery is still being retried by the server.',
      '5. Never send personal data of anyone other than the user, and never put search results into a form ' +
        'without the user’s approval.',
    ].join('\n'),
    '## Search the site',
    `Ask in plain words; a query is at most ${MAX_QUERY_LENGTH} characters. The answer is an NLWeb response: ` +
      '`_meta.response_type` is `Answer` (results, possibly none) or `Elicitation` (say what is missing and ' +
      'ask the user); `content` starts with a text item summarising the answer, then one `resource` item per ' +
      'result, best first, whose `data` holds `url`, `name`, `description` (a snippet) and `score`.',
    ...reads.map((op) => operationMarkdown(model, op, 3)),
    lead ? '## Request a demo' : null,
    lead ? approvalScript(model, 'requestDemo') : null,
    lead ? operationMarkdown(model, lead, 3) : null,
    suggestion ? '## Suggest a document' : null,
    suggestion
      ? `Only ${SUGGESTION_COMPANY_TYPES.map((type) => `\`${type}\``).join(' and ')} audiences may suggest. ` +
        approvalScript(model, 'suggestDocument')
      : null,
    suggestion ? operationMarkdown(model, suggestion, 3) : null,
    ...others.map((op) => operationMarkdown(model, op, 2)),
    hasSeedForms(model) ? '## Which persona belongs to which companyType' : null,
    hasSeedForms(model)
      ? `Demo requests:\n\n${personaTableMarkdown()}\n\nDocument suggestions:\n\n${personaTableMarkdown(
          SUGGESTION_COMPANY_TYPES,
        )}\n\nIf the user’s role is not listed, leave \`persona\` out of a demo request (it is optional there) ` +
        'rather than picking one for them.'
      : null,
    ...configuredChoiceTables(model).flatMap((choices) => [
      `## ${choices.heading}`,
      `${choices.intro}\n\n${choices.table}`,
    ]),
    '## Handling errors',
    errorCodeTable(),
    'Every error body has this shape:',
    codeBlock(
      'json',
      json({ ok: false, error: '…', code: 'VALIDATION_ERROR', message: '…', resolution: '…' }),
    ),
    `/ask answers a missing, blank or too long query with status 400 and an NLWeb response whose text item ` +
      'says what to fix; fix the query and ask again.',
    '## Limits',
    table(
      ['limit', 'value'],
      [
        ['request body', `${model.bodyLimitBytes} bytes (413 PAYLOAD_TOO_LARGE above)`],
        ['search query', `${MAX_QUERY_LENGTH} characters`],
        ['every form field', 'see the field tables above'],
      ],
    ),
    `More: ${model.at(DISCOVERY_PATHS.apiMd)} (reference), ${model.at(DISCOVERY_PATHS.agentsMd)} (guide), ` +
      `${model.at(DISCOVERY_PATHS.llmsTxt)} (pages).`,
  ]);
}

export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The Agent Skills Discovery 0.2.0 index, with the digest of the exact bytes served at `url`. */
export function skillsIndexJson(model: DiscoveryModel, skillBytes: Uint8Array): string {
  return `${JSON.stringify(
    {
      $schema: AGENT_SKILLS_SCHEMA,
      skills: [
        {
          name: SKILL_NAME,
          type: 'skill-md',
          description: skillDescription(model),
          url: model.at(skillPath(SKILL_NAME)),
          digest: sha256Digest(skillBytes),
        },
      ],
    },
    null,
    2,
  )}\n`;
}
