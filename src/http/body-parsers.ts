import type { FastifyInstance } from 'fastify';

export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** Marks a JSON syntax error so the error handler answers INVALID_JSON. */
export class InvalidJsonError extends Error {
  readonly statusCode = 400;
  constructor(detail: string) {
    super(detail);
    this.name = 'InvalidJsonError';
  }
}

/**
 * Body parsers for the two accepted content types. JSON.parse creates `__proto__` as a plain own
 * property (it never sets the prototype), so such keys reach the schema and are refused there as
 * unknown fields. Form bodies keep repeated keys as arrays (refused by the schema as "sent more
 * than once") and drop empty fields, because a blank form input means "not supplied".
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (_request, body, done) => {
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
  app.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseFormBody(body as string));
  });
}

export function parseFormBody(text: string): Record<string, string | string[]> {
  const entries = new Map<string, string | string[]>();
  for (const [key, value] of new URLSearchParams(text)) {
    if (value === '') continue;
    const previous = entries.get(key);
    if (previous === undefined) entries.set(key, value);
    else entries.set(key, Array.isArray(previous) ? [...previous, value] : [previous, value]);
  }
  // fromEntries defines own properties, so a "__proto__" key stays data and never sets a prototype.
  return Object.fromEntries(entries);
}
