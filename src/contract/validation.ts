import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Static, TSchema } from '@sinclair/typebox';
import { echoed, quoted } from './echo.js';
import { PHONE, SINGLE_LINE, VISIBLE } from './form-definition.js';

/** One failing field, in words a person or an agent can act on. */
export interface FieldProblem {
  /** Dotted path of the field, e.g. `email` or `query.text`; `body` for the request as a whole. */
  field: string;
  /** What is wrong. */
  message: string;
  /** How to fix it. */
  fix: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/u;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;
const TOP_LABEL = /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/iu;

/**
 * A linear-time e-mail check (no backtracking regex over the whole address): one `@`, a dot-atom
 * local part, and a domain of at least two labels with an alphabetic top label. Quoted local parts
 * and address literals are refused: no work address needs them and they invite header injection.
 */
export function isEmailAddress(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.indexOf('@');
  if (at < 1 || at !== value.lastIndexOf('@')) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..'))
    return false;
  const labels = domain.split('.');
  if (labels.length < 2 || domain.length > 253) return false;
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return false;
  return TOP_LABEL.test(labels[labels.length - 1]!);
}

function isUri(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}

const ajv = new Ajv2020({
  allErrors: true,
  strict: false,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
});
ajv.addFormat('email', { type: 'string', validate: isEmailAddress });
ajv.addFormat('uri', { type: 'string', validate: isUri });

/** Words for the patterns the contract uses, so messages never show a raw regular expression. */
const PATTERN_WORDS: Record<string, { message: string; fix: string }> = {
  '^/': { message: 'must be a path on this site', fix: 'start it with "/", e.g. /demo' },
  '^/solutions/': {
    message: 'must be a solution page path',
    fix: 'start it with "/solutions/", e.g. /solutions/cros',
  },
  '\\S': { message: 'must not be empty or only white space', fix: 'enter some text' },
  [VISIBLE]: {
    message: 'must contain a letter or a digit (not only spaces or invisible characters)',
    fix: 'enter some text',
  },
  [PHONE]: {
    message: 'must be a telephone number (digits, spaces and + ( ) . -)',
    fix: 'write a number such as +44 20 7946 0000',
  },
  '^https?://': { message: 'must be a web address', fix: 'start it with https://' },
  [SINGLE_LINE]: {
    message: 'must be one line without control characters (line breaks, tabs, NUL)',
    fix: 'remove the line breaks and control characters',
  },
};

const SINGLE_LINE_RE = new RegExp(SINGLE_LINE, 'u');

/** The SINGLE_LINE rule for a value no schema checks (a query-string parameter): its problem, or null. */
export function singleLineProblem(field: string, value: string): FieldProblem | null {
  return SINGLE_LINE_RE.test(value) ? null : { field, ...PATTERN_WORDS[SINGLE_LINE]! };
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list of values';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function fieldOf(instancePath: string, prefix: string): string {
  const path = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  if (path === '') return prefix;
  return prefix === 'body' ? path : `${prefix}.${path}`;
}

/**
 * Turns Ajv's errors into one problem per field. Errors that only explain an enclosing `anyOf` /
 * `if` failure are folded into the clearer message of the rule itself.
 */
/** The field a dependent-choice rule (`allOf[i]`: if <parent> is <value> then <field> is one of …) looks at. */
function parentFieldOf(schema: TSchema, schemaPath: string): string {
  const index = /^#\/allOf\/(\d+)\/then\//.exec(schemaPath)?.[1];
  const rule = index === undefined ? undefined : (schema.allOf as TSchema[] | undefined)?.[Number(index)];
  const condition = rule?.if as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(condition?.properties ?? {})[0] ?? 'companyType';
}

function toProblems(
  errors: ErrorObject[],
  data: unknown,
  rootField: string,
  schema: TSchema,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  const add = (problem: FieldProblem) => {
    const key = `${problem.field}\u0000${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  };
  const nameRuleFailed = errors.some((e) => e.keyword === 'anyOf' && e.instancePath === '');
  // A value outside the field's own enum is reported once, not again by the persona rule.
  const plainEnumFields = new Set(
    errors.filter((e) => e.keyword === 'enum' && !e.schemaPath.includes('/then/')).map((e) => e.instancePath),
  );

  for (const error of errors) {
    const field = fieldOf(error.instancePath, rootField);
    const params = error.params as Record<string, unknown>;
    const inNameRule = error.schemaPath.startsWith('#/anyOf/');
    const inPersonaRule = error.schemaPath.includes('/then/');
    if (inNameRule || error.keyword === 'if') continue;

    switch (error.keyword) {
      case 'anyOf':
        if (error.instancePath === '' && nameRuleFailed) {
          add({
            field: 'name',
            message: 'is required unless both firstName and lastName are supplied',
            fix: 'send name, or send both firstName and lastName',
          });
        } else {
          add({ field, message: 'does not match any allowed form', fix: 'see the schema in /openapi.json' });
        }
        break;
      case 'required': {
        const missing = String(params.missingProperty);
        add({
          field: field === rootField ? missing : `${field}.${missing}`,
          message: 'is required',
          fix: 'supply this field',
        });
        break;
      }
      case 'additionalProperties': {
        const extra = echoed(params.additionalProperty);
        add({
          field: field === rootField ? extra : `${field}.${extra}`,
          message: 'is not a recognised field',
          fix: 'remove it; only the fields listed in /openapi.json are accepted',
        });
        break;
      }
      case 'type': {
        const expected = String(params.type);
        const actual = valueAt(data, error.instancePath);
        const repeated = expected === 'string' && Array.isArray(actual);
        add({
          field,
          message: repeated
            ? 'was sent more than once'
            : `must be ${expected === 'object' ? 'an object' : `a ${expected}`}, not ${describeValue(actual)}`,
          fix: repeated ? 'send the field once' : `send a ${expected}`,
        });
        break;
      }
      case 'maxLength':
        add({
          field,
          message: `is longer than ${String(params.limit)} characters`,
          fix: `shorten it to at most ${String(params.limit)} characters`,
        });
        break;
      case 'minLength':
        add({
          field,
          message: `is shorter than ${String(params.limit)} characters`,
          fix: `write at least ${String(params.limit)} characters`,
        });
        break;
      case 'format':
        add({
          field,
          message:
            params.format === 'email'
              ? 'is not a valid e-mail address'
              : `is not a valid ${String(params.format)}`,
          fix:
            params.format === 'email'
              ? 'give an address such as name@company.com'
              : `send a valid ${String(params.format)}`,
        });
        break;
      case 'pattern': {
        const words = PATTERN_WORDS[String(params.pattern)];
        add({
          field,
          message: words?.message ?? 'has an invalid form',
          fix: words?.fix ?? `match the pattern ${String(params.pattern)}`,
        });
        break;
      }
      case 'enum': {
        const allowed = (params.allowedValues as unknown[]).map(String);
        const value = valueAt(data, error.instancePath);
        if (inPersonaRule && plainEnumFields.has(error.instancePath)) break;
        if (inPersonaRule) {
          const parent = parentFieldOf(schema, error.schemaPath);
          const parentValue = String(valueAt(data, `/${parent}`));
          add({
            field,
            message: `${quoted(value)} is not a ${field} of ${parent} ${quoted(parentValue)}`,
            fix: `choose one of: ${allowed.join(', ')}`,
          });
        } else {
          add({
            field,
            message: `${quoted(value)} is not an allowed value`,
            fix: `choose one of: ${allowed.join(', ')}`,
          });
        }
        break;
      }
      case 'const':
        add({
          field,
          message: `must be ${JSON.stringify(params.allowedValue)}`,
          fix: 'send that exact value',
        });
        break;
      case 'not':
        // The contract's one `not` rule: sourcePage's protocol-relative and backslash forms.
        add({
          field,
          message: 'must be a path on this site, not another site (//host or /\\host)',
          fix: 'send a path such as /demo',
        });
        break;
      case 'minItems':
        add({ field, message: `needs at least ${String(params.limit)} items`, fix: 'add items' });
        break;
      default:
        add({ field, message: error.message ?? 'is invalid', fix: 'see the schema in /openapi.json' });
    }
  }
  return problems;
}

function valueAt(data: unknown, pointer: string): unknown {
  let current: unknown = data;
  for (const part of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined;
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Problems reported in one answer: a body of thousands of unknown fields gets a short answer. */
export const MAX_REPORTED_PROBLEMS = 10;

function boundProblems(problems: FieldProblem[], rootField: string): FieldProblem[] {
  if (problems.length <= MAX_REPORTED_PROBLEMS) return problems;
  const more = problems.length - MAX_REPORTED_PROBLEMS;
  return [
    ...problems.slice(0, MAX_REPORTED_PROBLEMS),
    {
      field: rootField,
      message: `has ${more} more problem${more === 1 ? '' : 's'} not listed here`,
      fix: 'correct the fields above and send again to see the rest',
    },
  ];
}

export interface Validator<S extends TSchema> {
  (data: unknown): ValidationResult<Static<S>>;
  readonly schema: S;
}

/**
 * Compiles a contract schema once, on its first use: compiling (and Ajv's meta-schema with the
 * first one) took ~0.4 s of every start-up for forms that are seldom sent. `rootField` names the
 * whole value in messages (`body` for a request body, `query` for a query string).
 */
export function createValidator<S extends TSchema>(schema: S, rootField = 'body'): Validator<S> {
  let compiled: ValidateFunction | null = null;
  const validate = (data: unknown): ValidationResult<Static<S>> => {
    compiled ??= ajv.compile(schema);
    if (compiled(data)) return { ok: true, value: data as Static<S> };
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      return {
        ok: false,
        problems: [
          {
            field: rootField,
            message: `must be a JSON object, not ${describeValue(data)}`,
            fix: 'send an object with the documented fields',
          },
        ],
      };
    }
    return {
      ok: false,
      problems: boundProblems(toProblems(compiled.errors ?? [], data, rootField, schema), rootField),
    };
  };
  return Object.assign(validate, { schema });
}

/** "email (is not a valid e-mail address); persona (…)" */
export function describeProblems(problems: FieldProblem[]): string {
  return problems.map((p) => `${p.field} ${p.message}`).join('; ');
}

export function describeFixes(problems: FieldProblem[]): string {
  return problems.map((p) => `${p.field}: ${p.fix}`).join('; ');
}
