/**
 * `forms:` in `_site.yaml`: the site's own forms (docs/forms.md). Without the key the site has the
 * seed's two forms (DEFAULT_FORMS). A mistake here stops start-up with the file, the line and a
 * fix: a form that silently lost a field would collect the wrong data. More than 500 lines on
 * purpose: one reader walks the grammar top-down (forms, fields, choices, bounds), each rule next
 * to the line and fix it reports; split, every part would carry the same document and line counter.
 */

import { isMap, isSeq, LineCounter, type Document, type Node } from 'yaml';
import {
  DEFAULT_FORMS,
  DELIVERY_ROUTES,
  FIELD_TYPES,
  HONEYPOT_FIELD,
  type Choice,
  type DeliveryRoute,
  type FieldDefinition,
  type FieldType,
  type FieldTranslation,
  type FormDefinition,
  type FormTranslation,
} from '../contract/index.js';
import { languageTag, messagesFor, primaryLanguage } from '../language/index.js';
import { readSiteInfoBytes, SITE_INFO_FILE } from './read.js';
import type { ContentProblem, Page } from './types.js';
import { parseContentYaml } from './yaml-bounds.js';

export class FormsConfigError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${file}${line === null ? '' : `:${line}`}: ${problem}. Fix: ${fix}`);
    this.name = 'FormsConfigError';
  }
}

const IDENTIFIER = /^[a-z][A-Za-z0-9]*$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const API_PATH = /^\/api\/[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The form types a configuration may name (`path` is the page's own sourcePage, added to every form). */
const CONFIGURABLE_TYPES: readonly FieldType[] = FIELD_TYPES.filter((type) => type !== 'path');
/** A form's own words; its translations (`translations:`) give the same keys in another language. */
const WORD_KEYS = ['title', 'intro', 'button', 'note', 'confirmation', 'confirmationHeading'] as const;
const FORM_KEYS = new Set([
  'id',
  'key',
  'path',
  'delivery',
  'summary',
  'description',
  ...WORD_KEYS,
  'fields',
  'translations',
]);
/** What a form's translation into one language may give: its words, and its fields' by name. */
const TRANSLATION_KEYS = new Set([...WORD_KEYS, 'fields']);
const FIELD_TRANSLATION_KEYS = new Set(['label', 'help', 'choices']);
const FIELD_KEYS = new Set([
  'name',
  'type',
  'label',
  'help',
  'required',
  'minLength',
  'maxLength',
  'choices',
  'dependsOn',
  'autocomplete',
  'wide',
]);
/**
 * Bounds of a configuration: far above any real site's forms (the seed has 2 forms of at most 8
 * fields; the longest choice list in use, countries, is about 250), and low enough that no
 * configuration makes /openapi.json, the pages or validation grow without end.
 */
export const MAX_FORMS = 50;
export const MAX_FIELDS = 100;
export const MAX_CHOICES = 500;
/** Languages one form may be translated into (far above the 24 official languages of the EU). */
export const MAX_TRANSLATIONS = 50;
/**
 * Field names a configuration may not give: `sourcePage` is added to every form with its own rule
 * (a path on this site, or a webhook would carry an open redirect), `website` is the spam trap,
 * and the names of Object.prototype would shadow what the server's own code reads from a body.
 */
const RESERVED_FIELD_NAMES: ReadonlyMap<string, string> = new Map([
  ['sourcePage', 'every form has it already, with its own rule (a path on this site)'],
  [HONEYPOT_FIELD, "it is the forms' spam trap"],
  ...[
    'constructor',
    'hasOwnProperty',
    'isPrototypeOf',
    'propertyIsEnumerable',
    'toLocaleString',
    'toString',
    'valueOf',
  ].map((name) => [name, 'it is a name every JavaScript object already has'] as [string, string]),
]);
/** Longest maxLength a configuration may give (the request body limit bounds the total anyway). */
const MAX_FIELD_LENGTH = 10_000;
/** Nouns for the operation's verb, so `requestQuote` is served at /api/quote-requests like requestDemo's leads. */
const VERB_NOUNS: Record<string, string> = {
  request: 'requests',
  suggest: 'suggestions',
  book: 'bookings',
  register: 'registrations',
  subscribe: 'subscriptions',
  apply: 'applications',
  report: 'reports',
};

const kebab = (words: string) => words.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** `requestQuote` → `/api/quote-requests`; an id without a known verb → `/api/<id in kebab case>`. */
export function defaultApiPath(id: string): string {
  const verb = /^[a-z]+/.exec(id)![0];
  const object = id.slice(verb.length);
  const noun = VERB_NOUNS[verb];
  return noun && object !== '' ? `/api/${kebab(object).replace(/^-/, '')}-${noun}` : `/api/${kebab(id)}`;
}

/** `requestQuote` → `quote`: the word pages use (`form: quote`). */
export function defaultKey(id: string): string {
  const verb = /^[a-z]+/.exec(id)![0];
  const object = id.slice(verb.length);
  return object === '' ? kebab(id) : kebab(object).replace(/^-/, '');
}

/** Reads the forms of the content folder's `_site.yaml`: DEFAULT_FORMS when it declares none. */
export function readFormsFile(contentDir: string): readonly FormDefinition[] {
  let bytes: Buffer | null;
  try {
    // The rules of every content file: inside the folder, a regular file, and not too large.
    bytes = readSiteInfoBytes(contentDir);
  } catch (error) {
    // The file may declare forms: serving the seed's forms in their place would collect the wrong data.
    throw new FormsConfigError(
      SITE_INFO_FILE,
      null,
      (error as Error).message,
      `correct ${SITE_INFO_FILE}, or move it out of the content folder to use the seed's forms`,
    );
  }
  return bytes === null ? DEFAULT_FORMS : readFormsConfig(bytes.toString('utf8'), SITE_INFO_FILE);
}

/**
 * The forms of a content folder as `frontdoor check` reports them: the mistake that would stop
 * start-up (FormsConfigError) as an error with its file, line and fix, and then, as start-up warns,
 * each page whose front matter names a form the site does not have.
 */
export function checkFormsFile(
  contentDir: string,
  pages: readonly Pick<Page, 'form' | 'sourcePath' | 'lang'>[],
  siteLanguage: string | null = null,
): ContentProblem[] {
  let forms: readonly FormDefinition[];
  try {
    forms = readFormsFile(contentDir);
  } catch (error) {
    if (!(error instanceof FormsConfigError)) throw error;
    return [
      {
        file: error.file,
        line: error.line,
        message: `${error.problem} (the server will not start). Fix: ${error.fix}`,
        severity: 'error',
      },
    ];
  }
  return [...unknownFormProblems(pages, forms), ...untranslatedFormProblems(pages, forms, siteLanguage)];
}

/** A page asking for a form the site does not have shows none: a warning naming its file and the keys there are. */
export function unknownFormProblems(
  pages: readonly Pick<Page, 'form' | 'sourcePath'>[],
  forms: readonly FormDefinition[],
): ContentProblem[] {
  const keys = new Set(forms.map((form) => form.key));
  return pages
    .filter((page) => page.form !== null && !keys.has(page.form))
    .map((page) => ({
      file: page.sourcePath,
      line: null,
      message: `front matter \`form: ${page.form!}\` names no form of this site, so the page shows none: use one of ${[...keys].join(', ')}`,
      severity: 'warning',
    }));
}

/**
 * A configured form on pages in a language it has no words in shows its own words there: a warning
 * per form and language, naming a page and the `translations:` to add. The site's language (else
 * the language most of its pages are in) is the form's own; the default forms speak every language
 * of Frontdoor's catalogue and are not checked.
 */
export function untranslatedFormProblems(
  pages: readonly Pick<Page, 'form' | 'sourcePath' | 'lang'>[],
  forms: readonly FormDefinition[],
  siteLanguage: string | null,
): ContentProblem[] {
  const own = primaryLanguage(siteLanguage ?? mostCommonLanguage(pages));
  const problems: ContentProblem[] = [];
  for (const form of forms) {
    if (DEFAULT_FORMS.includes(form)) continue;
    const translations = form.translations ?? {};
    const untranslated = new Map<string, Pick<Page, 'sourcePath'>[]>();
    for (const page of pages) {
      if (page.form !== form.key) continue;
      const tag = page.lang.toLowerCase();
      const primary = primaryLanguage(tag);
      if (primary === own || Object.hasOwn(translations, tag) || Object.hasOwn(translations, primary))
        continue;
      untranslated.set(tag, [...(untranslated.get(tag) ?? []), page]);
    }
    for (const [tag, shownOn] of untranslated)
      problems.push({
        file: shownOn[0]!.sourcePath,
        line: null,
        message:
          `the form ${form.id} is on ${shownOn.length} ${shownOn.length === 1 ? 'page' : 'pages'} in ${tag} ` +
          `but has no words in it, so it shows its own there: give them under \`translations:\` → \`${tag}:\` ` +
          `of the form in ${SITE_INFO_FILE} (docs/forms.md)`,
        severity: 'warning',
      });
  }
  return problems;
}

/** The language most pages are in (the first such in page order on a tie); `en` without pages. */
function mostCommonLanguage(pages: readonly Pick<Page, 'lang'>[]): string {
  const counts = new Map<string, number>();
  for (const page of pages) {
    const primary = primaryLanguage(page.lang);
    counts.set(primary, (counts.get(primary) ?? 0) + 1);
  }
  let best = 'en';
  let most = 0;
  for (const [language, count] of counts)
    if (count > most) {
      best = language;
      most = count;
    }
  return best;
}

export function readFormsConfig(text: string, file: string): readonly FormDefinition[] {
  const lineCounter = new LineCounter();
  const document = parseContentYaml(text.replace(/^\uFEFF/, ''), lineCounter);
  const [error] = document.errors;
  // A file that declares forms and is not YAML must not fall back to the seed's forms unnoticed.
  if (error && /^forms\s*:/m.test(text))
    throw new FormsConfigError(
      file,
      lineCounter.linePos(error.pos[0]).line,
      `not valid YAML: ${error.message.split('\n')[0]!}`,
      'correct the YAML there; put a value that contains ": " or starts with a quote in double quotes',
    );
  // Without forms, a file that is not YAML is reported by the site details (defaults are used there too).
  if (error || !isMap(document.contents)) return DEFAULT_FORMS;
  if (!document.has('forms')) return DEFAULT_FORMS;
  return new FormsReader(document, lineCounter, file).read();
}

type Path = (string | number)[];

class FormsReader {
  constructor(
    private readonly document: Document,
    private readonly lines: LineCounter,
    private readonly file: string,
  ) {}

  private lineOf(path: Path): number | null {
    // A key of a mapping is on its own line: its value (a nested mapping) may start on the next.
    const parent = this.document.getIn(path.slice(0, -1), true);
    if (isMap(parent)) {
      const pair = parent.items.find(
        (item) => String((item.key as { value?: unknown } | null)?.value ?? item.key) === String(path.at(-1)),
      );
      const range = (pair?.key as Node | null | undefined)?.range;
      if (range) return this.lines.linePos(range[0]).line;
    }
    for (let length = path.length; length > 0; length--) {
      const node = this.document.getIn(path.slice(0, length), true) as Node | undefined;
      if (node && typeof node === 'object' && 'range' in node && node.range)
        return this.lines.linePos(node.range[0]).line;
    }
    return null;
  }

  private fail(path: Path, problem: string, fix: string): never {
    throw new FormsConfigError(this.file, this.lineOf(path), problem, fix);
  }

  private value(path: Path): unknown {
    const node = this.document.getIn(path, true) as Node | undefined;
    return node === undefined || node === null ? undefined : (node as { toJSON(): unknown }).toJSON();
  }

  private text(path: Path, required: true): string;
  private text(path: Path, required: false): string | undefined;
  private text(path: Path, required: boolean): string | undefined {
    const value = this.value(path);
    const name = String(path[path.length - 1]);
    if (value === undefined || value === null) {
      if (required) this.fail(path.slice(0, -1), `\`${name}\` is missing`, `add \`${name}: …\``);
      return undefined;
    }
    if (typeof value !== 'string' || value.trim() === '')
      this.fail(path, `\`${name}\` must be text`, `write \`${name}: some words\``);
    return value.trim();
  }

  private length(path: Path): number | undefined {
    const value = this.value(path);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_FIELD_LENGTH)
      this.fail(
        path,
        `\`${String(path[path.length - 1])}\` must be a whole number from 0 to ${MAX_FIELD_LENGTH}`,
        'write a number of characters such as 200',
      );
    return value;
  }

  private flag(path: Path): boolean {
    const value = this.value(path);
    if (value === undefined || value === null) return false;
    if (typeof value !== 'boolean')
      this.fail(path, `\`${String(path[path.length - 1])}\` must be true or false`, 'write true or false');
    return value;
  }

  private unknownKeys(path: Path, known: ReadonlySet<string>, what: string): void {
    const node = this.document.getIn(path, true);
    if (!isMap(node))
      this.fail(path, `each ${what} must be a mapping of keys to values`, 'write `key: value` lines');
    for (const pair of node.items) {
      const key = String((pair.key as { value?: unknown } | null)?.value ?? pair.key);
      if (!known.has(key))
        this.fail(
          [...path, key],
          `unknown key \`${key}\` in a ${what}`,
          `use one of: ${[...known].join(', ')}`,
        );
    }
  }

  read(): FormDefinition[] {
    const node = this.document.get('forms', true);
    if (!isSeq(node) || node.items.length === 0)
      this.fail(
        ['forms'],
        '`forms` must be a list of forms',
        'write `forms:` followed by `  - id: requestQuote` entries',
      );
    if (node.items.length > MAX_FORMS)
      this.fail(
        ['forms', MAX_FORMS],
        `${node.items.length} forms are more than the ${MAX_FORMS} a site may have`,
        `keep at most ${MAX_FORMS}: a form that differs only in words can share one with a select field`,
      );
    const forms: FormDefinition[] = [];
    for (let index = 0; index < node.items.length; index++) {
      const form = this.form(['forms', index]);
      for (const [what, of] of [
        ['id', (f: FormDefinition) => f.id],
        ['key', (f: FormDefinition) => f.key],
        ['path', (f: FormDefinition) => f.path],
      ] as const) {
        const twin = forms.find((other) => of(other) === of(form));
        if (twin)
          this.fail(
            ['forms', index, 'id'],
            `two forms have the ${what} "${of(form)}"`,
            `give each form its own ${what}${what === 'id' ? '' : ` (set \`${what}:\` on one of them)`}`,
          );
      }
      forms.push(form);
    }
    return forms;
  }

  private form(at: Path): FormDefinition {
    this.unknownKeys(at, FORM_KEYS, 'form');
    const id = this.text([...at, 'id'], true);
    if (!IDENTIFIER.test(id))
      this.fail(
        [...at, 'id'],
        `the form id "${id}" is not an operation name`,
        'write a verb and an object in camelCase, e.g. requestQuote',
      );
    const key = this.text([...at, 'key'], false) ?? defaultKey(id);
    if (!SLUG.test(key))
      this.fail(
        [...at, 'key'],
        `the form key "${key}" is not a lower-case word`,
        'write words joined by hyphens, e.g. quote',
      );
    const path = this.text([...at, 'path'], false) ?? defaultApiPath(id);
    if (!API_PATH.test(path))
      this.fail(
        [...at, 'path'],
        `the path "${path}" is not under /api/`,
        'write /api/ and a plural noun, e.g. /api/quote-requests',
      );
    const delivery = (this.text([...at, 'delivery'], false) ?? 'leads') as DeliveryRoute;
    if (!DELIVERY_ROUTES.includes(delivery))
      this.fail(
        [...at, 'delivery'],
        `unknown delivery "${delivery}"`,
        'write `delivery: leads` (LEAD_DELIVERY decides where they go) or `delivery: suggestions` (SUGGESTION_DELIVERY)',
      );
    const title = this.text([...at, 'title'], true);
    const fieldsNode = this.document.getIn([...at, 'fields'], true);
    if (!isSeq(fieldsNode) || fieldsNode.items.length === 0)
      this.fail(
        [...at, 'fields'],
        `the form ${id} has no fields`,
        'add `fields:` with at least one `- name: email` entry',
      );
    if (fieldsNode.items.length > MAX_FIELDS)
      this.fail(
        [...at, 'fields', MAX_FIELDS],
        `the form ${id} has ${fieldsNode.items.length} fields, more than the ${MAX_FIELDS} a form may have`,
        `keep at most ${MAX_FIELDS} fields`,
      );
    const fields: FieldDefinition[] = [];
    for (let index = 0; index < fieldsNode.items.length; index++) {
      const field = this.field([...at, 'fields', index]);
      if (fields.some((other) => other.name === field.name))
        this.fail(
          [...at, 'fields', index, 'name'],
          `two fields of ${id} are named "${field.name}"`,
          'rename one of them',
        );
      fields.push(field);
    }
    for (const [index, field] of fields.entries()) {
      if (!field.dependsOn) continue;
      const where = [...at, 'fields', index, 'dependsOn'];
      const parent = fields.find((other) => other.name === field.dependsOn!.field);
      // One level only: a chain (a → b → c) is hard to fill in, and a loop (a → b → a) impossible.
      if (parent?.dependsOn && parent !== field)
        this.fail(
          where,
          `${field.name} depends on ${parent.name}, which itself depends on ${parent.dependsOn.field}`,
          `let ${field.name} depend on a select field whose choices are fixed (one without dependsOn)`,
        );
      if (!parent || parent.type !== 'select' || parent === field)
        this.fail(
          where,
          `dependsOn names "${field.dependsOn.field}", which is not another select field of ${id}`,
          `name one of: ${
            fields
              .filter((f) => f.type === 'select' && f !== field)
              .map((f) => f.name)
              .join(', ') || '(add a select field first)'
          }`,
        );
      const parentValues = new Set((parent.choices ?? []).map((choice) => choice.value));
      for (const value of Object.keys(field.dependsOn.choices))
        if (!parentValues.has(value))
          this.fail(
            [...at, 'fields', index, 'choices', value],
            `"${value}" is not a choice of ${parent.name}`,
            `use the choices of ${parent.name}: ${[...parentValues].join(', ')}`,
          );
    }
    if (!fields.some((field) => field.name === 'sourcePage'))
      fields.push({
        name: 'sourcePage',
        type: 'path',
        label: 'Source page',
        description: 'Same-site path of the page the form was sent from (starts with a slash).',
        required: false,
        maxLength: 300,
        prefix: '^/',
        sameSiteOnly: true,
        onPage: false,
      });
    const button = this.text([...at, 'button'], false) ?? title;
    // Frontdoor's own words when the site wrote none: in the site's language (`language`).
    const defaults = messagesFor(this.siteLanguage());
    const confirmation = this.text([...at, 'confirmation'], false) ?? defaults.formThanksText;
    const schemaName = id.charAt(0).toUpperCase() + id.slice(1);
    const translations = this.translations(at, fields, {
      button: this.value([...at, 'button']) !== undefined,
      confirmation: this.value([...at, 'confirmation']) !== undefined,
      confirmationHeading: this.value([...at, 'confirmationHeading']) !== undefined,
    });
    return {
      id,
      key,
      path,
      action: `/forms/${key}`,
      schemaName,
      delivery,
      fields,
      summary: this.text([...at, 'summary'], false) ?? title,
      singular: `a ${title.toLowerCase()} submission`,
      plural: `${title} submissions`,
      requestDescription: this.text([...at, 'description'], false) ?? `${title}.`,
      operationDescription: 'Validates the submission, stores it durably and sends it for follow-up.',
      successDescription: `${title}: accepted for delivery.`,
      example: exampleOf(fields),
      words: {
        heading: title,
        intro: this.text([...at, 'intro'], false) ?? '',
        button,
        note: this.text([...at, 'note'], false) ?? '',
        thanksHeading: this.text([...at, 'confirmationHeading'], false) ?? defaults.formThanksHeading,
        thanksText: confirmation,
        emailTitle: `New submission: ${title}`,
      },
      ...(translations ? { translations } : {}),
    };
  }

  /** `language` of the same `_site.yaml`, when it is a language tag (the site details warn otherwise). */
  private siteLanguage(): string | null {
    const value = this.value(['language']);
    return typeof value === 'string' ? languageTag(value) : null;
  }

  /**
   * `translations:` of a form: by language tag, its words and its fields' labels, help and choice
   * labels in that language. A word the form leaves to a default (the button is the title, the
   * confirmation Frontdoor's own) takes the translated title or the catalogue's words in that language.
   */
  private translations(
    at: Path,
    fields: readonly FieldDefinition[],
    given: { button: boolean; confirmation: boolean; confirmationHeading: boolean },
  ): Record<string, FormTranslation> | undefined {
    const node = this.document.getIn([...at, 'translations'], true);
    if (node === undefined || node === null) return undefined;
    if (!isMap(node) || node.items.length === 0)
      this.fail(
        [...at, 'translations'],
        "`translations` must map language tags to the form's words in that language",
        'write `translations:` followed by a `  de:` line and the words under it (title, intro, button, fields, …)',
      );
    if (node.items.length > MAX_TRANSLATIONS)
      this.fail(
        [...at, 'translations'],
        `${node.items.length} translations are more than the ${MAX_TRANSLATIONS} a form may have`,
        `keep at most ${MAX_TRANSLATIONS} languages`,
      );
    const translations: Record<string, FormTranslation> = {};
    for (const pair of node.items) {
      const written = String((pair.key as { value?: unknown } | null)?.value ?? pair.key);
      const where = [...at, 'translations', written];
      const tag = languageTag(written)?.toLowerCase();
      if (tag === undefined)
        this.fail(where, `"${written}" is not a language tag`, 'write a BCP 47 tag such as de, fr or pt-BR');
      if (Object.hasOwn(translations, tag))
        this.fail(where, `the form is translated into ${tag} twice`, 'keep one of the two');
      this.unknownKeys(where, TRANSLATION_KEYS, 'translation');
      const text = (key: string) => this.text([...where, key], false);
      const defaults = messagesFor(tag);
      const title = text('title');
      const words: NonNullable<FormTranslation['words']> = {};
      const put = (word: keyof typeof words, value: string | undefined) => {
        if (value !== undefined) words[word] = value;
      };
      put('heading', title);
      put('intro', text('intro'));
      put('button', text('button') ?? (given.button ? undefined : title));
      put('note', text('note'));
      put('thanksText', text('confirmation') ?? (given.confirmation ? undefined : defaults.formThanksText));
      put(
        'thanksHeading',
        text('confirmationHeading') ?? (given.confirmationHeading ? undefined : defaults.formThanksHeading),
      );
      const fieldWords = this.fieldTranslations([...where, 'fields'], fields);
      translations[tag] = { words, ...(fieldWords ? { fields: fieldWords } : {}) };
    }
    return translations;
  }

  /** `fields:` of a translation: by field name, its label, help and choice labels (by value). */
  private fieldTranslations(
    at: Path,
    fields: readonly FieldDefinition[],
  ): Record<string, FieldTranslation> | undefined {
    const node = this.document.getIn(at, true);
    if (node === undefined || node === null) return undefined;
    const names = fields.filter((field) => field.onPage).map((field) => field.name);
    if (!isMap(node))
      this.fail(
        at,
        "a translation's `fields` must map field names to their words",
        `write \`${names[0]}:\` and \`label: …\` under it`,
      );
    const translated: Record<string, FieldTranslation> = {};
    for (const pair of node.items) {
      const name = String((pair.key as { value?: unknown } | null)?.value ?? pair.key);
      const where = [...at, name];
      const field = fields.find((candidate) => candidate.onPage && candidate.name === name);
      if (field === undefined)
        this.fail(where, `"${name}" is not a field of this form`, `translate one of: ${names.join(', ')}`);
      this.unknownKeys(where, FIELD_TRANSLATION_KEYS, 'field translation');
      const words: FieldTranslation = {};
      const label = this.text([...where, 'label'], false);
      const help = this.text([...where, 'help'], false);
      if (label !== undefined) words.label = label;
      if (help !== undefined) words.help = help;
      const choicesNode = this.document.getIn([...where, 'choices'], true);
      if (choicesNode !== undefined && choicesNode !== null) {
        const values = new Set((field.choices ?? []).map((choice) => choice.value));
        if (field.type !== 'select' || !isMap(choicesNode))
          this.fail(
            [...where, 'choices'],
            field.type === 'select'
              ? 'translated choices map each value to its label'
              : `${name} is a ${field.type} field and has no choices`,
            field.type === 'select'
              ? `write \`${[...values][0]}: …\` lines under \`choices:\``
              : 'remove `choices` here',
          );
        const labels: Record<string, string> = {};
        for (const choice of choicesNode.items) {
          const value = String((choice.key as { value?: unknown } | null)?.value ?? choice.key);
          if (!values.has(value))
            this.fail(
              [...where, 'choices', value],
              `"${value}" is not a choice of ${name}`,
              `use the values of ${name}: ${[...values].join(', ')}`,
            );
          labels[value] = this.text([...where, 'choices', value], true);
        }
        words.choices = labels;
      }
      translated[name] = words;
    }
    return translated;
  }

  private field(at: Path): FieldDefinition {
    this.unknownKeys(at, FIELD_KEYS, 'field');
    const name = this.text([...at, 'name'], true);
    const reserved = RESERVED_FIELD_NAMES.get(name);
    if (!IDENTIFIER.test(name) || reserved !== undefined)
      this.fail(
        [...at, 'name'],
        reserved !== undefined
          ? `the field name "${name}" is reserved: ${reserved}`
          : `"${name}" is not a field name`,
        'write another camelCase name such as companySize',
      );
    const type = (this.text([...at, 'type'], false) ?? 'text') as FieldType;
    if (!CONFIGURABLE_TYPES.includes(type))
      this.fail(
        [...at, 'type'],
        `unknown field type "${type}"`,
        `use one of: ${CONFIGURABLE_TYPES.join(', ')}`,
      );
    const minLength = this.length([...at, 'minLength']);
    const maxLength = this.length([...at, 'maxLength']);
    if (minLength !== undefined && maxLength !== undefined && minLength > maxLength)
      this.fail(
        [...at, 'minLength'],
        `minLength ${minLength} is greater than maxLength ${maxLength}`,
        `lower minLength to at most ${maxLength}, or raise maxLength`,
      );
    if ((minLength !== undefined || maxLength !== undefined) && ['select', 'checkbox'].includes(type))
      this.fail(
        [...at, minLength !== undefined ? 'minLength' : 'maxLength'],
        `a ${type} field has no length`,
        'remove minLength and maxLength',
      );
    const dependsOn = this.text([...at, 'dependsOn'], false);
    let choices: Choice[] | undefined;
    let groups: Record<string, string[]> | undefined;
    const choicesNode = this.document.getIn([...at, 'choices'], true);
    if (type === 'select') {
      if (dependsOn !== undefined) {
        if (!isMap(choicesNode))
          this.fail(
            [...at, 'choices'],
            `the choices of ${name} depend on ${dependsOn}, so they are listed per value of ${dependsOn}`,
            `write \`choices:\` with one \`<value of ${dependsOn}>:\` line and its list under it`,
          );
        groups = {};
        const all = new Map<string, Choice>();
        for (const pair of choicesNode.items) {
          const parentValue = String((pair.key as { value?: unknown }).value);
          const list = this.choiceList([...at, 'choices', parentValue], name);
          groups[parentValue] = list.map((choice) => choice.value);
          for (const choice of list) if (!all.has(choice.value)) all.set(choice.value, choice);
          if (all.size > MAX_CHOICES) this.tooManyChoices([...at, 'choices', parentValue], name);
        }
        choices = [...all.values()];
      } else choices = this.choiceList([...at, 'choices'], name);
    } else if (choicesNode !== undefined || dependsOn !== undefined)
      this.fail(
        [...at, choicesNode !== undefined ? 'choices' : 'dependsOn'],
        `a ${type} field has no choices`,
        'write `type: select` or remove choices and dependsOn',
      );
    const help = this.text([...at, 'help'], false);
    const autocomplete = this.text([...at, 'autocomplete'], false);
    return {
      name,
      type,
      label: this.text([...at, 'label'], true),
      ...(help === undefined ? {} : { help }),
      required: this.flag([...at, 'required']),
      ...(minLength === undefined ? {} : { minLength }),
      ...(maxLength === undefined ? {} : { maxLength }),
      ...(choices ? { choices } : {}),
      ...(dependsOn !== undefined && groups ? { dependsOn: { field: dependsOn, choices: groups } } : {}),
      onPage: true,
      ...(autocomplete === undefined
        ? type === 'email'
          ? { autocomplete: 'email' }
          : {}
        : { autocomplete }),
      ...(this.flag([...at, 'wide']) || type === 'textarea' || type === 'checkbox' ? { wide: true } : {}),
    };
  }

  private tooManyChoices(at: Path, field: string): never {
    this.fail(
      at,
      `${field} has more than the ${MAX_CHOICES} choices a select field may have`,
      `keep at most ${MAX_CHOICES}; a longer list is better as a text field`,
    );
  }

  /** `- value: x` + `label: X`, or a plain word (its own label). */
  private choiceList(at: Path, field: string): Choice[] {
    const node = this.document.getIn(at, true);
    if (!isSeq(node) || node.items.length === 0)
      this.fail(
        at,
        'a select field needs a list of choices',
        'write `choices:` with `- value: …` and `label: …` entries',
      );
    if (node.items.length > MAX_CHOICES) this.tooManyChoices([...at, MAX_CHOICES], field);
    const choices: Choice[] = [];
    const values = new Set<string>();
    for (let index = 0; index < node.items.length; index++) {
      const raw = this.value([...at, index]);
      const choice =
        typeof raw === 'string'
          ? { value: raw, label: raw }
          : raw && typeof raw === 'object'
            ? (raw as Record<string, unknown>)
            : {};
      if (typeof choice.value !== 'string' || !SLUG.test(choice.value) || typeof choice.label !== 'string')
        this.fail(
          [...at, index],
          'a choice needs a value (lower-case words joined by hyphens) and a label',
          'write `- value: sample-size` and `label: Sample size calculation`',
        );
      if (values.has(choice.value))
        this.fail([...at, index], `the choice "${choice.value}" is listed twice`, 'remove one of them');
      values.add(choice.value);
      choices.push({ value: choice.value, label: choice.label });
    }
    return choices;
  }
}

/** An example body for /openapi.json: a plausible value for every required field. */
function exampleOf(fields: readonly FieldDefinition[]): Record<string, string> {
  const example: Record<string, string> = {};
  for (const field of fields) {
    if (!field.required && field.type !== 'email' && !field.dependsOn) continue;
    switch (field.type) {
      case 'email':
        example[field.name] = 'dana.reyes@company.example';
        break;
      case 'select': {
        const parent = field.dependsOn ? example[field.dependsOn.field] : undefined;
        const allowed = parent !== undefined ? field.dependsOn!.choices[parent] : undefined;
        const value = allowed?.[0] ?? field.choices?.[0]?.value;
        if (value !== undefined) example[field.name] = value;
        break;
      }
      case 'checkbox':
        example[field.name] = 'yes';
        break;
      case 'tel':
        example[field.name] = '+44 20 7946 0000';
        break;
      case 'url':
        example[field.name] = 'https://company.example/';
        break;
      default:
        example[field.name] = 'x'.repeat(Math.max(field.minLength ?? 0, 0)) || 'Example';
    }
  }
  return example;
}
