/**
 * YAML front matter: split it from the body, parse it with `yaml` (never evaluated as code), and
 * read the keys the site understands. Every problem carries the line in the file.
 */

import { isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml';
import { collapseWhitespace } from './markdown.js';

export interface LineProblem {
  /** 1-based line in the file, or null when the problem concerns the whole file. */
  line: number | null;
  message: string;
  severity: 'error' | 'warning';
}

export interface SplitFile {
  /** The front matter as a mapping ({} when there is none), or null when it is unusable. */
  data: Record<string, unknown> | null;
  body: string;
  /** 1-based line in the file where `body` starts. */
  bodyStartLine: number;
  /** 1-based line of each top-level key, to point at the key a problem concerns. */
  keyLines: Map<string, number>;
  problems: LineProblem[];
}

const FENCE_OPEN = /^---[ \t]*$/;
const FENCE_CLOSE = /^(---|\.\.\.)[ \t]*$/;

/** Splits `---` front matter from the Markdown body and parses it. `text` has no BOM. */
export function splitFrontMatter(text: string): SplitFile {
  const firstNewline = text.indexOf('\n');
  const firstLine = (firstNewline === -1 ? text : text.slice(0, firstNewline)).replace(/\r$/, '');
  const noFrontMatter: SplitFile = {
    data: {},
    body: text,
    bodyStartLine: 1,
    keyLines: new Map(),
    problems: [],
  };
  if (!FENCE_OPEN.test(firstLine)) return noFrontMatter;

  // Find the closing fence line by line, remembering offsets so the body keeps its exact text.
  let offset = firstNewline + 1;
  let lineIndex = 1;
  let yamlEnd = -1;
  let bodyStart = -1;
  while (firstNewline !== -1 && offset <= text.length) {
    const next = text.indexOf('\n', offset);
    const line = (next === -1 ? text.slice(offset) : text.slice(offset, next)).replace(/\r$/, '');
    if (FENCE_CLOSE.test(line)) {
      yamlEnd = offset;
      bodyStart = next === -1 ? text.length : next + 1;
      break;
    }
    if (next === -1) break;
    offset = next + 1;
    lineIndex += 1;
  }
  if (yamlEnd === -1) {
    return {
      ...noFrontMatter,
      data: null,
      problems: [
        {
          line: 1,
          message: 'the front matter that starts here is never closed: end it with a line holding only ---',
          severity: 'error',
        },
      ],
    };
  }

  const yamlText = text.slice(firstNewline + 1, yamlEnd);
  const split: SplitFile = {
    data: null,
    body: text.slice(bodyStart),
    bodyStartLine: lineIndex + 2,
    keyLines: new Map(),
    problems: [],
  };
  // The YAML starts on the file's second line.
  const lineCounter = new LineCounter();
  const fileLine = (position: number) => lineCounter.linePos(position).line + 1;
  const document = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true });
  for (const error of document.errors)
    split.problems.push({
      line: fileLine(errorPosition(document.contents, error.pos[0])),
      message: `front matter is not valid YAML: ${firstSentence(error.message)}`,
      severity: 'error',
    });
  for (const warning of document.warnings)
    split.problems.push({
      line: fileLine(warning.pos[0]),
      message: `front matter: ${firstSentence(warning.message)}`,
      severity: 'warning',
    });
  if (document.errors.length > 0) return split;

  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    split.problems.push({
      line: 2,
      message: `front matter cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      severity: 'error',
    });
    return split;
  }
  if (value === null || value === undefined) {
    split.data = {};
    return split;
  }
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date) {
    split.problems.push({
      line: 2,
      message: 'front matter must be a mapping of keys to values, one "key: value" per line',
      severity: 'error',
    });
    return split;
  }
  if (isMap(document.contents)) {
    for (const pair of document.contents.items) {
      if (isScalar(pair.key) && pair.key.range)
        split.keyLines.set(String(pair.key.value), fileLine(pair.key.range[0]));
    }
  }
  split.data = value as Record<string, unknown>;
  return split;
}

/**
 * Where to point for a YAML error. The parser notices an unclosed quote or bracket only where the
 * value ends, often lines later; the mistake is on the line of the key whose value never closed.
 */
function errorPosition(contents: unknown, position: number): number {
  if (!isMap(contents)) return position;
  for (const pair of contents.items) {
    const keyStart = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
    const valueEnd = isNode(pair.value) ? pair.value.range?.[1] : undefined;
    if (keyStart !== undefined && valueEnd !== undefined && keyStart < position && position === valueEnd)
      return keyStart;
  }
  return position;
}

function firstSentence(message: string): string {
  return message.split('\n')[0]!.replace(/\s+at line \d+, column \d+:?$/, '');
}

/** The front-matter keys the site understands, validated. */
export interface PageFields {
  title: string | null;
  description: string | null;
  date: string | null;
  updated: string | null;
  tags: string[];
  nav: number | null;
  order: number | null;
  form: 'demo' | 'suggestion' | null;
}

/**
 * Reads the known keys. A value of the wrong type is reported as a warning and ignored, so a typo
 * in metadata does not take a page off the site; `frontdoor check --strict` fails on warnings.
 */
export function readPageFields(
  data: Record<string, unknown>,
  keyLines: Map<string, number>,
): { fields: PageFields; problems: LineProblem[] } {
  const problems: LineProblem[] = [];
  const warn = (key: string, message: string) =>
    problems.push({ line: keyLines.get(key) ?? 1, message, severity: 'warning' });

  const text = (key: string): string | null => {
    const value = data[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') {
      warn(key, `\`${key}\` must be text; it is ignored`);
      return null;
    }
    const collapsed = collapseWhitespace(value);
    return collapsed === '' ? null : collapsed;
  };

  const day = (key: string): string | null => {
    const value = data[key];
    if (value === undefined || value === null) return null;
    const parsed = parseDay(value);
    if (parsed === null) warn(key, `\`${key}\` must be a date written YYYY-MM-DD; it is ignored`);
    return parsed;
  };

  const number = (key: string): number | null => {
    const value = data[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      warn(key, `\`${key}\` must be a number; it is ignored`);
      return null;
    }
    return value;
  };

  let tags: string[] = [];
  const rawTags = data.tags;
  if (Array.isArray(rawTags)) {
    const valid = rawTags.filter((tag) => typeof tag === 'string' || typeof tag === 'number');
    if (valid.length !== rawTags.length) warn('tags', '`tags` must be a list of words; non-text items are ignored');
    tags = valid.map((tag) => collapseWhitespace(String(tag))).filter((tag) => tag !== '');
  } else if (typeof rawTags === 'string') {
    warn('tags', '`tags` must be a list, e.g. [security, hosting]; the text is used as one tag');
    tags = rawTags.trim() === '' ? [] : [collapseWhitespace(rawTags)];
  } else if (rawTags !== undefined && rawTags !== null) {
    warn('tags', '`tags` must be a list, e.g. [security, hosting]; it is ignored');
  }
  tags = [...new Set(tags)];

  let form: PageFields['form'] = null;
  if (data.form !== undefined && data.form !== null) {
    if (data.form === 'demo' || data.form === 'suggestion') form = data.form;
    else warn('form', '`form` must be demo or suggestion; it is ignored');
  }

  const fields: PageFields = {
    title: text('title'),
    description: text('description'),
    date: day('date'),
    updated: day('updated'),
    tags,
    nav: number('nav'),
    order: number('order'),
    form,
  };
  if (fields.date !== null && fields.updated !== null && fields.updated < fields.date)
    warn('updated', `\`updated\` (${fields.updated}) is before \`date\` (${fields.date})`);
  return { fields, problems };
}

/** `2025-03-03` (or a YAML 1.1 timestamp) → `2025-03-03`; anything else, or an impossible day → null. */
export function parseDay(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  if (typeof value !== 'string') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, dayOfMonth] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, dayOfMonth));
  const valid =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === dayOfMonth;
  return valid ? value.trim() : null;
}
