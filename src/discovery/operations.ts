import { ERROR_CODES, MAX_QUERY_LENGTH, type ErrorCode } from '../contract/index.js';
import type { FieldRow, OperationDoc } from './api-reference.js';
import { codeBlock, json, shellQuote, table } from './markdown.js';
import type { DiscoveryModel } from './model.js';
import { DISCOVERY_PATHS } from './paths.js';

/**
 * The status and the meaning of every error code (the spec leaves the mapping open; the contract's
 * description fixes it). Typed by ErrorCode, so a new code cannot be added without documenting it.
 */
export const ERROR_CODE_GUIDE: Record<ErrorCode, { status: string; meaning: string; whatToDo: string }> = {
  INVALID_JSON: {
    status: '400',
    meaning: 'The body is not valid JSON (or is empty).',
    whatToDo: 'Send one JSON object encoded as UTF-8 with `Content-Type: application/json`.',
  },
  VALIDATION_ERROR: {
    status: '400',
    meaning: 'A field fails validation, or the content type is not accepted. `message` names every field.',
    whatToDo:
      'Read `message` and `resolution`, correct the named fields, and show the corrected data to the user ' +
      'for approval again before resending.',
  },
  PAYLOAD_TOO_LARGE: {
    status: '413',
    meaning: 'The body is larger than the limit.',
    whatToDo: 'Shorten the longest fields; every field limit is in the tables above.',
  },
  ENDPOINT_NOT_FOUND: {
    status: '404 (unknown path) or 405 (known path, other method; see `Allow`)',
    meaning: 'There is no such operation.',
    whatToDo: `Check the path and method against ${DISCOVERY_PATHS.openApi}.`,
  },
  INTERNAL_ERROR: {
    status: '500',
    meaning: 'The submission could not be stored; nothing was kept.',
    whatToDo:
      'Retry later with the same approved data; if it keeps failing, tell the user and offer the contact address.',
  },
  RATE_LIMITED: {
    status: '429 (with `Retry-After`, `RateLimit` and `RateLimit-Policy`)',
    meaning:
      'Too many submissions from this client address (IPv6: its /64) within the window; nothing was stored.',
    whatToDo:
      'Wait the seconds given in `Retry-After`, then resend the same approved data once; do not retry in a loop.',
  },
};

export function errorCodeTable(): string {
  return table(
    ['code', 'status', 'meaning', 'what to do'],
    ERROR_CODES.map((code) => {
      const guide = ERROR_CODE_GUIDE[code];
      return [`\`${code}\``, guide.status, guide.meaning, guide.whatToDo];
    }),
  );
}

export function fieldTable(rows: readonly FieldRow[]): string {
  return table(
    ['field', 'type', 'required', 'bounds / format', 'meaning'],
    rows.map((row) => [`\`${row.name}\``, row.type, row.required, row.constraints, row.description]),
  );
}

function parameterTable(operation: OperationDoc): string {
  return table(
    ['name', 'in', 'type', 'required', 'bounds / format', 'meaning'],
    operation.parameters.map((p) => [
      `\`${p.name}\``,
      p.location,
      p.type,
      p.required,
      p.constraints,
      p.description,
    ]),
  );
}

const APPROVAL_LINE =
  '**Side effect:** creates a real submission. Call it only after the user has explicitly approved the ' +
  'exact data shown to them.';
const READ_ONLY_LINE = '**Read-only:** no side effects; call it freely.';

/** The example request of an operation: its body example, or for /ask the example question. */
export function exampleRequest(
  model: DiscoveryModel,
  operation: OperationDoc,
): { curl: string; body: unknown } {
  const url = model.at(operation.path);
  const { query, maxResults } = model.askExample;
  if (operation.method === 'GET') {
    const names = new Set(operation.parameters.map((p) => p.name));
    const search = new URLSearchParams();
    if (names.has('query')) search.set('query', query);
    // The example answers are cut to a few results; ask for exactly that many where the contract allows it.
    if (names.has('max_results')) search.set('max_results', String(maxResults));
    const queryString = search.size > 0 ? `?${search.toString()}` : '';
    return { curl: `curl -sS ${shellQuote(url + queryString)}`, body: undefined };
  }
  const fields = new Set(operation.requestBody?.fields.map((field) => field.name) ?? []);
  const body =
    operation.requestBody?.example !== undefined
      ? operation.requestBody.example
      : operation.path === DISCOVERY_PATHS.ask
        ? {
            query: { text: query },
            ...(fields.has('prefer.max_results') ? { prefer: { max_results: maxResults } } : {}),
          }
        : undefined;
  const data =
    body === undefined
      ? ''
      : ` \\\n  -H 'Content-Type: application/json' \\\n  --data ${shellQuote(JSON.stringify(body))}`;
  return { curl: `curl -sS -X ${operation.method} ${shellQuote(url)}${data}`, body };
}

/**
 * The example answer for one status. A search answer is a real answer of this server over the
 * current content (to the example request shown with it); other answers are the contract's own.
 */
export function exampleAnswer(model: DiscoveryModel, operation: OperationDoc, status: string): unknown {
  if (operation.path === DISCOVERY_PATHS.ask && status === '200') return model.askExample.answer;
  return operation.responses.find((r) => r.status === status)?.example;
}

/** One operation as a Markdown section (heading level given), for /api.md and the skill. */
export function operationMarkdown(model: DiscoveryModel, operation: OperationDoc, level: number): string {
  const h = '#'.repeat(level);
  const blocks: string[] = [
    `${h} ${operation.method} ${operation.path} — ${operation.summary}`,
    `Operation \`${operation.operationId}\`${operation.tags.length ? ` (tag ${operation.tags.join(', ')})` : ''}. ${
      operation.effect === 'side-effecting' ? APPROVAL_LINE : READ_ONLY_LINE
    }`,
    operation.description,
  ];
  if (operation.parameters.length > 0) blocks.push('Query parameters:', parameterTable(operation));
  if (operation.requestBody) {
    const body = operation.requestBody;
    blocks.push(
      `Request body (${body.required ? 'required' : 'optional'}; ${body.contentTypes
        .map((type) => `\`${type}\``)
        .join(' or ')}${body.schemaName ? `; schema \`${body.schemaName}\`` : ''}):`,
      fieldTable(body.fields),
    );
  }
  const request = exampleRequest(model, operation);
  blocks.push('Example request:', codeBlock('sh', request.curl));
  blocks.push(
    'Answers:',
    table(
      ['status', 'meaning', 'content type', 'body'],
      operation.responses.map((r) => [
        r.status,
        r.description,
        r.contentTypes.map((type) => `\`${type}\``).join(', '),
        r.schemaName ? `\`${r.schemaName}\`` : '',
      ]),
    ),
  );
  for (const response of operation.responses) {
    const example = exampleAnswer(model, operation, response.status);
    if (example === undefined) continue;
    blocks.push(`Example answer (${response.status}):`, codeBlock('json', json(example)));
  }
  return blocks.join('\n\n');
}

export const SEARCH_LIMIT_NOTE = `A search query is at most ${MAX_QUERY_LENGTH} characters.`;

/** The operations that create something, as the OpenAPI document marks them (api-reference.ts). */
export function sideEffectingOperations(model: DiscoveryModel): OperationDoc[] {
  return model.reference.operations.filter((op) => op.effect === 'side-effecting');
}

const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** "two", "three": how many operations a sentence speaks of, in words while that reads well. */
export function countWord(count: number): string {
  return COUNT_WORDS[count] ?? String(count);
}

/** "a, b and c". */
export function listInWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The approval rule, worded once and repeated wherever an agent may read first. */
export function approvalRule(model: DiscoveryModel): string {
  const writes = sideEffectingOperations(model);
  if (writes.length === 0) return 'No operation changes anything: none needs the user’s approval.';
  const list = listInWords(writes.map((op) => `\`${op.method} ${op.path}\` (${op.summary.toLowerCase()})`));
  return (
    `${list} ${writes.length === 1 ? 'creates' : 'create'} a real follow-up request or an internal submission ` +
    `that people at ${model.siteName} act on. ` +
    `Before calling ${writes.length === 1 ? 'it' : writes.length === 2 ? 'either' : 'any of them'}, show the user ` +
    'the exact data you will send, field by field, and send it only after ' +
    'the user has explicitly approved that exact data. If you change anything afterwards (a correction after a ' +
    '400, a different persona), ask again. Never invent contact details: ask the user for them.'
  );
}
