/**
 * YAML front matter: split it from the body, parse it with `yaml` (never evaluated as code), and
 * read the keys the site understands. Every problem carries the line in the file.
 */

import { isMap, isNode, isScalar, LineCounter } from 'yaml';
import { collapseWhitespace } from './markdown.js';
import { parseContentYaml } from './yaml-bounds.js';
import type { PageMetadata } from './types.js';

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
  const parsed = parseMapping(yamlText, 2);
  // One broken value must not take the page off the site: read the keys one by one instead, and
  // drop (and report) only the ones that do not parse.
  const result = parsed.broken ? parseKeyByKey(yamlText, 2) : parsed;
  return {
    data: result.data,
    body: text.slice(bodyStart),
    bodyStartLine: lineIndex + 2,
    keyLines: result.keyLines,
    problems: result.problems,
  };
}

interface ParsedMapping {
  data: Record<string, unknown> | null;
  keyLines: Map<string, number>;
  problems: LineProblem[];
  /** The text has YAML syntax errors (as opposed to being valid YAML that is not a mapping). */
  broken: boolean;
}

/** Parses YAML that should be a mapping; `firstLine` is the file line where the text starts. */
function parseMapping(yamlText: string, firstLine: number): ParsedMapping {
  const parsed: ParsedMapping = { data: null, keyLines: new Map(), problems: [], broken: false };
  const lineCounter = new LineCounter();
  const fileLine = (position: number) => lineCounter.linePos(position).line + firstLine - 1;
  // Bounded in depth, repeated keys found in linear time (yaml-bounds.ts).
  const document = parseContentYaml(yamlText, lineCounter);
  const errorPosition = errorPositions(document.contents);
  for (const error of document.errors)
    parsed.problems.push({
      line: fileLine(errorPosition(error.pos[0])),
      message: `front matter is not valid YAML: ${firstSentence(error.message)}`,
      severity: 'error',
    });
  for (const warning of document.warnings)
    parsed.problems.push({
      line: fileLine(warning.pos[0]),
      message: `front matter: ${firstSentence(warning.message)}`,
      severity: 'warning',
    });
  if (document.errors.length > 0) {
    parsed.broken = true;
    return parsed;
  }

  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    parsed.problems.push({
      line: firstLine,
      message: `front matter cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      severity: 'error',
    });
    return parsed;
  }
  if (value === null || value === undefined) {
    parsed.data = {};
    return parsed;
  }
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date) {
    parsed.problems.push({
      line: firstLine,
      message: 'front matter must be a mapping of keys to values, one "key: value" per line',
      severity: 'error',
    });
    return parsed;
  }
  if (isMap(document.contents)) {
    for (const pair of document.contents.items) {
      if (isScalar(pair.key) && pair.key.range)
        parsed.keyLines.set(String(pair.key.value), fileLine(pair.key.range[0]));
    }
  }
  parsed.data = value as Record<string, unknown>;
  return parsed;
}

/** A top-level key starts at column 0 with anything but a space, tab, comment, list dash or document marker. */
const TOP_LEVEL_KEY = /^(?![ \t#]|-( |$)|---|\.\.\.)\S/;

/**
 * Recovery for front matter with a syntax error: each top-level key (with its indented or `- `
 * continuation lines) is parsed on its own, so the keys that are fine are kept and each broken one
 * is reported at its line and left out. A key repeated later is reported and the first one kept.
 */
function parseKeyByKey(yamlText: string, firstLine: number): ParsedMapping {
  const lines = yamlText.split('\n');
  const entries: { start: number; text: string }[] = [];
  let current: { start: number; lines: string[] } | null = null;
  const flush = () => {
    if (current) entries.push({ start: current.start, text: current.lines.join('\n') });
  };
  lines.forEach((line, index) => {
    if (TOP_LEVEL_KEY.test(line.replace(/\r$/, '')) || current === null) {
      flush();
      current = { start: index, lines: [line] };
    } else current.lines.push(line);
  });
  flush();

  const result: ParsedMapping = { data: {}, keyLines: new Map(), problems: [], broken: false };
  for (const entry of entries) {
    const entryLine = firstLine + entry.start;
    const keyName = /^("[^"]*"|'[^']*'|[^:#]+?)[ \t]*:/.exec(entry.text)?.[1]?.replace(/^["']|["']$/g, '');
    const ignored = keyName === undefined ? 'the line is ignored' : `\`${keyName}\` is ignored`;
    const parsed = parseMapping(entry.text, entryLine);
    if (parsed.data === null) {
      // The first error says what is wrong; the parser's follow-up errors on the same value add noise.
      const firstError = parsed.problems.find((problem) => problem.severity === 'error')!;
      result.problems.push({ ...firstError, message: `${firstError.message}; ${ignored}` });
      result.problems.push(...parsed.problems.filter((problem) => problem.severity === 'warning'));
      continue;
    }
    result.problems.push(...parsed.problems);
    for (const [key, value] of Object.entries(parsed.data)) {
      const line = parsed.keyLines.get(key) ?? entryLine;
      if (Object.hasOwn(result.data!, key)) {
        result.problems.push({
          line,
          message: `front matter is not valid YAML: Map keys must be unique; this second \`${key}\` is ignored`,
          severity: 'error',
        });
        continue;
      }
      result.data![key] = value;
      result.keyLines.set(key, line);
    }
  }
  return result;
}

/**
 * Where to point for a YAML error. The parser notices an unclosed quote or bracket only where the
 * value ends, often lines later; the mistake is on the line of the key whose value never closed.
 * Gives the function that maps an error's position, made once per document (a lookup, not a
 * search of every key per error: thousands of errors must not take quadratic time).
 */
function errorPositions(contents: unknown): (position: number) => number {
  const keyStartByValueEnd = new Map<number, number>();
  if (isMap(contents))
    for (const pair of contents.items) {
      const keyStart = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      const valueEnd = isNode(pair.value) ? pair.value.range?.[1] : undefined;
      if (keyStart !== undefined && valueEnd !== undefined && !keyStartByValueEnd.has(valueEnd))
        keyStartByValueEnd.set(valueEnd, keyStart);
    }
  return (position) => {
    const keyStart = keyStartByValueEnd.get(position);
    return keyStart !== undefined && keyStart < position ? keyStart : position;
  };
}

function firstSentence(message: string): string {
  return message.split('\n')[0]!.replace(/\s+at line \d+, column \d+:?$/, '');
}

/** The front-matter keys the site understands, validated. */
export interface PageFields extends PageMetadata {
  title: string | null;
  description: string | null;
  /** First publication: the first valid key of PUBLISHED_KEYS. */
  date: string | null;
  /** Last change: the first valid key of MODIFIED_KEYS (`date` is not one of them). */
  updated: string | null;
}

/**
 * Date keys in precedence order, as the common site generators write them: Hugo (`date`,
 * `publishDate`, `lastmod`), Jekyll (`last_modified_at`), Astro (`pubDate`, `updatedDate`),
 * Microsoft Learn (`ms.date`, the day the article was last reviewed) and schema.org names.
 */
export const PUBLISHED_KEYS = [
  'date',
  'published',
  'publishDate',
  'pubDate',
  'datePublished',
  'created',
] as const;
export const MODIFIED_KEYS = [
  'updated',
  'lastmod',
  'lastModified',
  'last_modified',
  'last_modified_at',
  'updatedDate',
  'dateModified',
  'modified',
  'last_updated',
  'ms.date',
] as const;

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

  /** The first key of `keys` holding a valid day, and its name; invalid ones are reported. */
  const firstDay = (keys: readonly string[]): { key: string; day: string } | null => {
    let found: { key: string; day: string } | null = null;
    for (const key of keys) {
      const value = data[key];
      if (value === undefined || value === null) continue;
      const parsed = parseDay(value);
      if (parsed === null)
        warn(key, `\`${key}\` must be a date written YYYY-MM-DD (or MM/DD/YYYY); it is ignored`);
      else found ??= { key, day: parsed };
    }
    return found;
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

  /** A list of words; a text value is split at commas (`keywords: a, b`), as many generators write it. */
  const words = (key: string, example: string): string[] => {
    const value = data[key];
    let items: string[] = [];
    if (Array.isArray(value)) {
      const valid = value.filter((item) => typeof item === 'string' || typeof item === 'number');
      if (valid.length !== value.length)
        warn(key, `\`${key}\` must be a list of words; non-text items are ignored`);
      items = valid.map(String);
    } else if (typeof value === 'string' || typeof value === 'number') items = String(value).split(',');
    else if (value !== undefined && value !== null)
      warn(key, `\`${key}\` must be a list, e.g. ${example}; it is ignored`);
    return [
      ...new Set(
        items.map((item) => collapseWhitespace(item.normalize('NFC'))).filter((item) => item !== ''),
      ),
    ];
  };

  let form: PageFields['form'] = null;
  if (data.form !== undefined && data.form !== null) {
    // Which forms exist is the site's configuration (forms: in _site.yaml); a key naming none is shown as no form.
    if (typeof data.form === 'string' && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(data.form)) form = data.form;
    else warn('form', '`form` must be the key of one of the site’s forms, such as demo; it is ignored');
  }

  const published = firstDay(PUBLISHED_KEYS);
  const modified = firstDay(MODIFIED_KEYS);
  const fields: PageFields = {
    title: text('title'),
    description: text('description'),
    date: published?.day ?? null,
    updated: modified?.day ?? null,
    tags: words('tags', '[security, hosting]'),
    keywords: words('keywords', '[audit trail, e-signature]'),
    aliases: words('aliases', '[/old/path]'),
    nav: number('nav'),
    order: number('order'),
    form,
  };
  if (published && modified && modified.day < published.day)
    warn(
      modified.key,
      `\`${modified.key}\` (${modified.day}) is before \`${published.key}\` (${published.day})`,
    );
  return { fields, problems };
}

const ISO_DAY =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?: ?(?:Z|[+-]\d{2}:?\d{2}))?)?$/;
const US_DAY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * `2025-03-03`, `2025-03-03T10:00:00+02:00` (the day as written), `03/03/2025` (month first, as
 * `ms.date` is written) or a YAML 1.1 timestamp → `2025-03-03`; anything else, or an impossible
 * day → null.
 */
export function parseDay(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  let year: number, month: number, dayOfMonth: number;
  const iso = ISO_DAY.exec(trimmed);
  const us = iso ? null : US_DAY.exec(trimmed);
  if (iso) [year, month, dayOfMonth] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [year, month, dayOfMonth] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return null;
  const date = new Date(Date.UTC(year, month - 1, dayOfMonth));
  const valid =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === dayOfMonth;
  return valid ? date.toISOString().slice(0, 10) : null;
}
