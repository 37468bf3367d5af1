import type { FastifyInstance, FastifyRequest } from 'fastify';
import { echoed, MAX_FORM_FIELDS, quoted, type FieldProblem } from '../contract/index.js';

export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';

export { MAX_FORM_FIELDS };

/** Marks a JSON syntax error so the error handler answers INVALID_JSON. */
export class InvalidJsonError extends Error {
  readonly statusCode = 400;
  constructor(detail: string) {
    super(detail);
    this.name = 'InvalidJsonError';
  }
}

/** A body refused before validation (repeated or too many form fields, a charset other than UTF-8). */
export class BodyRefusedError extends Error {
  readonly statusCode = 400;
  constructor(readonly problem: FieldProblem) {
    super(`${problem.field} ${problem.message}`);
    this.name = 'BodyRefusedError';
  }
}

export type FormParseResult =
  { ok: true; fields: Record<string, string> } | { ok: false; problem: FieldProblem };

/**
 * Body parsers for the two accepted content types. JSON.parse creates `__proto__` as a plain own
 * property (it never sets the prototype), so such keys reach the schema and are refused there as
 * unknown fields. Both refuse a declared charset other than UTF-8 rather than misread the bytes.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (request, body, done) => {
    const charset = charsetProblem(request);
    if (charset) {
      done(new BodyRefusedError(charset), undefined);
      return;
    }
    const text = body as string;
    if (text.trim() === '') {
      done(new InvalidJsonError('the body is empty'), undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(new InvalidJsonError((error as Error).message), undefined);
    }
  });
  app.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (request, body, done) => {
    const charset = charsetProblem(request);
    if (charset) {
      done(new BodyRefusedError(charset), undefined);
      return;
    }
    const parsed = parseFormBody(body as string);
    if (parsed.ok) done(null, parsed.fields);
    else done(new BodyRefusedError(parsed.problem), undefined);
  });
}

/** One `; name=value` parameter of a media type; the value a token or a quoted string (RFC 9110 5.6.6). */
const MEDIA_TYPE_PARAMETER = /;\s*([^\s=;]*)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^;]*))?/g;

const CHARSET_FIX = 'encode the body as UTF-8 and send charset=utf-8 once (or no charset)';

/**
 * What is wrong with the body's declared charset, or null. The parameters are read one by one, so
 * no reading of the header can find another charset than this one: a charset other than UTF-8
 * (`utf-7` or `utf-16` bytes must not be read as UTF-8), `charset` given twice
 * (`charset=utf-8; charset=utf-16`: readers disagree on which one counts) and the RFC 2231 form
 * `charset*=` (which HTTP does not define for media types) are refused.
 */
export function charsetProblemOf(contentType: string): FieldProblem | null {
  const semicolon = contentType.indexOf(';');
  if (semicolon === -1) return null;
  const charsets: string[] = [];
  for (const [, name, rawValue] of contentType.slice(semicolon).matchAll(MEDIA_TYPE_PARAMETER)) {
    const key = name!.toLowerCase();
    if (key.startsWith('charset*'))
      return {
        field: 'Content-Type',
        message: 'declares its charset in the extended form charset*=, which is not accepted',
        fix: CHARSET_FIX,
      };
    if (key !== 'charset') continue;
    const value = (rawValue ?? '').trim();
    charsets.push(value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value);
  }
  if (charsets.length > 1)
    return { field: 'Content-Type', message: 'declares charset more than once', fix: CHARSET_FIX };
  const charset = charsets[0]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return null;
  return {
    field: 'Content-Type',
    message: `declares charset ${quoted(charset)}, which is not accepted`,
    fix: CHARSET_FIX,
  };
}

function charsetProblem(request: FastifyRequest): FieldProblem | null {
  return charsetProblemOf(request.headers['content-type'] ?? '');
}

/**
 * Parses `a=1&b=2` in one pass over the text: each field is cut out with indexOf and decoded once,
 * so the work is linear in the body size. More than `maxFields` fields, or a field sent twice, is
 * refused at once (no form here sends a key twice), before the rest of the body is decoded. Empty
 * values are dropped, because a blank form input means "not supplied".
 */
export function parseFormBody(text: string, maxFields = MAX_FORM_FIELDS): FormParseResult {
  // A null-prototype object: a "__proto__" key stays data and never sets a prototype.
  const fields = Object.create(null) as Record<string, string>;
  let count = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start) {
      count += 1;
      if (count > maxFields)
        return {
          ok: false,
          problem: {
            field: 'body',
            message: `has more than ${maxFields} form fields`,
            fix: 'send only the fields listed in /openapi.json, each once',
          },
        };
      const pair = text.slice(start, end);
      const equals = pair.indexOf('=');
      const key = decodeFormComponent(equals === -1 ? pair : pair.slice(0, equals));
      const value = equals === -1 ? '' : decodeFormComponent(pair.slice(equals + 1));
      if (Object.hasOwn(fields, key))
        return {
          ok: false,
          problem: {
            field: echoed(key),
            message: 'was sent more than once',
            fix: 'send the field once',
          },
        };
      // An empty value still claims its key, so `a=&a=x` is a repeat too.
      fields[key] = value;
    }
    start = end + 1;
  }
  // fromEntries defines own properties, so "__proto__" stays data here too.
  return { ok: true, fields: Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== '')) };
}

/** Form decoding as browsers do it: `+` is a space; a malformed escape is kept as written (as URLSearchParams). */
function decodeFormComponent(raw: string): string {
  const spaced = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return new URLSearchParams(`x=${raw}`).get('x') ?? spaced;
  }
}
