import { Type, type TSchema } from '@sinclair/typebox';

/**
 * A form as data: its operation, its fields and their rules, its words and where it is delivered.
 * The site's configuration (`forms:` in `_site.yaml`) gives a list of these; without one the site
 * has the seed's two forms (default-forms.ts). Everything a form is made of is derived from this
 * one description: the request schema (Ajv validation and /openapi.json), the API path, the HTML
 * form, the e-mail and webhook payloads and the agent documents.
 */

export const FIELD_TYPES = ['text', 'email', 'textarea', 'select', 'checkbox', 'tel', 'url', 'path'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Where a form's submissions go: the delivery route configured by LEAD_… or SUGGESTION_… settings. */
export const DELIVERY_ROUTES = ['leads', 'suggestions'] as const;
export type DeliveryRoute = (typeof DELIVERY_ROUTES)[number];

export interface Choice {
  value: string;
  label: string;
}

export interface FieldDefinition {
  /** The JSON property and form field name. */
  name: string;
  type: FieldType;
  /** What a visitor sees beside the control. */
  label: string;
  /** What messages call the field when the label is a question; default: the label. */
  shortName?: string;
  /** Help text under the label. */
  help?: string;
  /** What /openapi.json says of the field; default: the help text, else the label. */
  description?: string;
  /** What e-mails and the CLI call the field; default: the short name or label. */
  reportLabel?: string;
  required: boolean;
  /** The HTML form asks for it even though the API does not (the seed's first and last name). */
  requiredOnPage?: boolean;
  minLength?: number;
  maxLength?: number;
  /** `select`: every value the field accepts, in the order shown. */
  choices?: readonly Choice[];
  /** `select`: the values allowed for each value of another field (persona by company type). */
  dependsOn?: { field: string; choices: Readonly<Record<string, readonly string[]>> };
  /** `path`: the prefix the value must start with, and whether `//host` and `/\host` are refused. */
  prefix?: string;
  sameSiteOnly?: boolean;
  /** Shown on the HTML form (false: API only, or filled in by the page). */
  onPage: boolean;
  autocomplete?: string;
  /** Spans both columns of the form grid. */
  wide?: boolean;
}

export interface FormDefinition {
  /** The operationId, e.g. `requestDemo`. */
  id: string;
  /** The word pages use (front matter `form: demo`), in element ids and the embed's `kind`. */
  key: string;
  /** The API operation's path, e.g. `/api/leads`. */
  path: string;
  /** The no-JavaScript post's address; `${action}/sent` is its confirmation page. */
  action: string;
  /** Component schema names: `${schemaName}Request` (and, for the seed forms, `${schemaName}Success`). */
  schemaName: string;
  delivery: DeliveryRoute;
  fields: readonly FieldDefinition[];
  /** Either-or groups: one of the groups must be supplied in full (the seed's name rule). */
  requireOneOf?: readonly (readonly string[])[];
  /** /openapi.json words. */
  summary: string;
  /** "A demo request": the info description lists operations with it. */
  singular: string;
  /** "Demo requests": the tag description and the agent documents. */
  plural: string;
  /** The request schema's description (the dependent-choice rule and its table are appended). */
  requestDescription: string;
  /** What the operation does, before the approval note. */
  operationDescription: string;
  successDescription: string;
  example: Readonly<Record<string, string>>;
  /** Words of the HTML form and its confirmation. */
  words: {
    heading: string;
    intro: string;
    button: string;
    note: string;
    thanksHeading: string;
    thanksText: string;
    /** E-mail title and the start of the subject. */
    emailTitle: string;
  };
  /**
   * The form's words in other languages, by BCP 47 tag (`de`, `pt-br`): a page in one of them shows
   * the form in it, a word left out in its own words. What the contract says (schemas, /openapi.json,
   * e-mails to the operator) keeps the form's own words.
   */
  translations?: Readonly<Record<string, FormTranslation>>;
}

/** A form's visitor-facing words in one language; each word left out stays the form's own. */
export interface FormTranslation {
  words?: Partial<Pick<FormDefinition['words'], TranslatedFormWord>>;
  /** By field name. */
  fields?: Readonly<Record<string, FieldTranslation>>;
  /**
   * Fields shown first, in this order, where the language orders them otherwise (family name
   * before given name in Japanese and Chinese); the others follow in the form's order.
   */
  firstFields?: readonly string[];
  /**
   * The seed forms' own pages (the built-in /demo page, the confirmation page); a configured form's
   * pages are titled by its heading and confirmation heading.
   */
  pages?: Partial<FormPageWords>;
}

export const TRANSLATED_FORM_WORDS = [
  'heading',
  'intro',
  'button',
  'note',
  'thanksHeading',
  'thanksText',
] as const;
export type TranslatedFormWord = (typeof TRANSLATED_FORM_WORDS)[number];

export interface FieldTranslation {
  label?: string;
  shortName?: string;
  help?: string;
  /** Choice labels by value. */
  choices?: Readonly<Record<string, string>>;
}

/** Words of a seed form's pages; `{site}` is the site's name. */
export interface FormPageWords {
  /** The built-in page's title, lead and description (the demo request's /demo). */
  pageTitle: string;
  pageLead: string;
  pageDescription: string;
  /** The confirmation page's title and description. */
  confirmationTitle: string;
  confirmationDescription: string;
  /** The stand-alone page a no-JS post is shown on when no page carries the form. */
  standaloneTitle: string;
  standaloneDescription: string;
}

/** A string enum as a plain `{type: string, enum: [...]}` (clearer in OpenAPI than anyOf-of-const). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * At least one letter or digit that shows: a value of only spaces, punctuation or invisible
 * characters (zero-width spaces, bidi marks, and the Hangul fillers U+3164, U+115F, U+1160 and
 * U+FFA0, which are letters that render as nothing) does not count as supplied. Unicode's
 * Default_Ignorable_Code_Point property names every character a renderer may show as nothing.
 */
export const VISIBLE = '(?!\\p{Default_Ignorable_Code_Point})[\\p{L}\\p{N}]';

/**
 * The one rule for every single-line and path-like text field: no control characters (C0 with
 * NUL, tab, CR and LF; DEL; C1 with NEL and CSI) and no line or paragraph separators. A tab or a
 * line break in a path is dropped by URL parsers (`/\t/evil.example` becomes `//evil.example`,
 * another site), and in a name it could start a forged header or log line.
 */
export const SINGLE_LINE = '^[^\\p{Cc}\\u2028\\u2029]*$';

/** Protocol-relative (`//host`) and backslash (`/\\host`) forms, which start with a slash but leave the site. */
export const NOT_A_PATH = '^/[/\\\\]';

/** A telephone number as people write one: digits, spaces, `+ ( ) . -`, at least five digits. */
export const PHONE = '^\\+?[0-9 ().-]*[0-9][0-9 ().-]*$';

/** What every single-line field's description says, so /openapi.json states the rule in words too. */
const ONE_LINE_NOTE = 'One line: control characters (tab, line breaks, NUL) are refused.';

/** Longest value of a field whose configuration gives no maxLength (a line, or a textarea). */
export const DEFAULT_MAX_LENGTH = { line: 200, text: 4000 } as const;

/**
 * A single-line text field: the SINGLE_LINE rule, plus `shape` (a pattern of its own, such as a
 * path prefix) when given. JSON Schema allows one `pattern` per schema, so the shape goes in `allOf`.
 */
export function OneLineString(
  options: { maxLength: number; description: string; shape?: string } & Record<string, unknown>,
) {
  const { shape, description, ...rest } = options;
  return Type.String({
    ...rest,
    pattern: SINGLE_LINE,
    ...(shape === undefined ? {} : { allOf: [{ pattern: shape }] }),
    description: `${description} ${ONE_LINE_NOTE}`,
  });
}

function descriptionOf(field: FieldDefinition): string {
  return field.description ?? field.help ?? field.label;
}

/** Every value a select accepts: its own choices, or those of every group of its parent, each once. */
export function choiceValues(field: FieldDefinition): string[] {
  return (field.choices ?? []).map((choice) => choice.value);
}

function fieldSchema(field: FieldDefinition): TSchema {
  const description = descriptionOf(field);
  const bounds = {
    ...(field.minLength === undefined ? {} : { minLength: field.minLength }),
    maxLength:
      field.maxLength ?? (field.type === 'textarea' ? DEFAULT_MAX_LENGTH.text : DEFAULT_MAX_LENGTH.line),
  };
  switch (field.type) {
    case 'text':
      return OneLineString({ ...bounds, description, ...(field.required ? { shape: VISIBLE } : {}) });
    case 'tel':
      return OneLineString({ ...bounds, description, shape: PHONE });
    case 'path':
      return OneLineString({
        ...bounds,
        shape: field.prefix ?? '^/',
        ...(field.sameSiteOnly ? { not: { pattern: NOT_A_PATH } } : {}),
        description,
      });
    case 'email':
      return Type.String({ format: 'email', ...bounds, description });
    case 'url':
      return Type.String({ format: 'uri', ...bounds, pattern: '^https?://', description });
    case 'textarea':
      return Type.String({ ...bounds, ...(field.required ? { pattern: VISIBLE } : {}), description });
    case 'select':
      return StringEnum(choiceValues(field), { description });
    case 'checkbox':
      return StringEnum(['yes'], {
        description: `${description} Ticked: \`yes\`; not ticked: leave it out.`,
      });
  }
}

/** The dependent-choice rules of a form: for each field whose choices follow another one. */
export function dependentFields(form: FormDefinition): { field: FieldDefinition; parent: FieldDefinition }[] {
  return form.fields.flatMap((field) => {
    if (!field.dependsOn) return [];
    const parent = form.fields.find((candidate) => candidate.name === field.dependsOn!.field);
    return parent ? [{ field, parent }] : [];
  });
}

/** The parent's values that have their own list of the dependent field's choices, in the parent's order. */
function groupedValues(field: FieldDefinition, parent: FieldDefinition): string[] {
  return choiceValues(parent).filter((value) => Object.hasOwn(field.dependsOn!.choices, value));
}

/** The mapping as a Markdown table, for the OpenAPI descriptions and the docs. */
export function dependencyTableMarkdown(field: FieldDefinition, parent: FieldDefinition): string {
  const rows = groupedValues(field, parent).map(
    (value) =>
      `| \`${value}\` | ${(field.dependsOn!.choices[value] ?? []).map((v) => `\`${v}\``).join(', ')} |`,
  );
  return [`| ${parent.name} | ${field.name}s that belong to it |`, '|---|---|', ...rows].join('\n');
}

/** `persona` must belong to `companyType`:\n\n| table | */
function dependencyRules(form: FormDefinition): string {
  return dependentFields(form)
    .map(
      ({ field, parent }) =>
        ` \`${field.name}\` must belong to \`${parent.name}\`:\n\n${dependencyTableMarkdown(field, parent)}`,
    )
    .join('\n\n');
}

/** An object schema with its properties at hand (bounds for the HTML form, a field's own validator). */
export type RequestSchema = TSchema & { properties: Record<string, TSchema> };

/** The request body schema of a form: Ajv validates with it and /openapi.json publishes it. */
export function requestSchemaOf(form: FormDefinition): RequestSchema {
  const properties: Record<string, TSchema> = {};
  for (const field of form.fields) {
    const schema = fieldSchema(field);
    properties[field.name] = field.required ? schema : Type.Optional(schema);
  }
  // A value of the parent without its own list leaves the dependent field free (any of its choices).
  const rules = dependentFields(form).flatMap(({ field, parent }) =>
    groupedValues(field, parent).map((value) => ({
      if: { properties: { [parent.name]: { const: value } }, required: [parent.name] },
      then: { properties: { [field.name]: { enum: [...(field.dependsOn!.choices[value] ?? [])] } } },
    })),
  );
  return Type.Object(properties, {
    additionalProperties: false,
    title: `${form.schemaName}Request`,
    description: form.requestDescription + dependencyRules(form),
    ...(form.requireOneOf
      ? {
          anyOf: form.requireOneOf.map((group) => ({
            required: [...group],
            properties: Object.fromEntries(group.map((name) => [name, { pattern: VISIBLE }])),
          })),
        }
      : {}),
    ...(rules.length > 0 ? { allOf: rules } : {}),
  });
}

/** The success status of a form's operation: the seed's demo request answers 200, its suggestion 201. */
export function successStatusOf(form: Pick<FormDefinition, 'delivery'>): 200 | 201 {
  return form.delivery === 'leads' ? 200 : 201;
}

/** Field label for messages: the short name, else the label. */
export function reportLabelOf(field: FieldDefinition): string {
  return field.reportLabel ?? field.shortName ?? field.label;
}
