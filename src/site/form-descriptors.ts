/**
 * What each form is to the site's pages: its fields as the HTML form shows them, its words (in the
 * page's language: formInLanguage), its addresses and where it sits. The demo request form and the
 * document suggestion form are each described once (FORMS below):
 * every place that renders or serves a form reads its descriptor instead of asking which form it
 * is. Bounds come from the contract schemas, the persona choices from the contract's persona
 * table. Without JavaScript they post (urlencoded) to the site's form routes; forms.js turns them
 * into JSON posts to the API.
 *
 * One word per form: "demo" is the contract's ("a demo request", `requestDemo`) and the content's
 * (front matter `form: demo`). "Lead" stays only where the contract fixes it: the operation's path
 * `/api/leads` and its schemas (`LeadRequest`, `LeadSuccess`).
 */
import {
  COMPANY_TYPES,
  LeadRequestSchema,
  REQUEST_DEMO,
  requestSchemaOf,
  SUBMISSION_PATHS,
  SUGGEST_DOCUMENT,
  SUGGESTION_COMPANY_TYPES,
  SuggestionRequestSchema,
  type CompanyType,
  type FieldDefinition,
  type FieldTranslation,
  type FormDefinition,
  type FormPageWords,
  type FormTranslation,
  type RequestSchema,
} from '../contract/index.js';
import { formatMessage, primaryLanguage, type MessageKey } from '../language/index.js';
import { DEFAULT_DEMO_PATH } from './paths.js';
import { escapeHtml } from '../text/index.js';

/** The seed forms' keys; a configured form's key is its own word (front matter `form: quote`). */
export type SeedFormKind = 'demo' | 'suggestion';
export type FormKind = string;

/** A field as the HTML form shows it. */
export interface FieldSpec {
  name: string;
  label: string;
  /**
   * What an error message calls the field when the label is a question ("Which document would
   * you like generated…?"): "Document type: must be at least 2 characters." Default: the label.
   */
  shortName?: string;
  control: 'input' | 'textarea' | 'company-type' | 'persona' | 'select' | 'checkbox';
  type?: 'text' | 'email' | 'tel' | 'url';
  autocomplete?: string;
  required: boolean;
  wide?: boolean;
  hint?: string;
}

/**
 * The seed forms' fields as their pages show them, from their definitions (default-forms.ts), in
 * the order the page asks for them: the organization type and area as the persona selects.
 */
function seedFields(definition: FormDefinition, order: readonly string[]): FieldSpec[] {
  return order.map((name) => {
    const spec = fieldSpecOf(definition.fields.find((field) => field.name === name)!);
    if (name === 'companyType') return { ...spec, control: 'company-type' };
    return name === 'persona' ? { ...spec, control: 'persona' } : spec;
  });
}

const DEMO_REQUEST_FIELDS = seedFields(REQUEST_DEMO, [
  // The contract accepts `name` or `firstName` + `lastName`; the form asks for the pair.
  'firstName',
  'lastName',
  'email',
  'company',
  'role',
  'companyType',
  'persona',
  'teamSize',
  'timeline',
  'message',
]);

const SUGGESTION_FIELDS = seedFields(SUGGEST_DOCUMENT, ['companyType', 'persona', 'suggestion', 'email']);

/** Everything that differs between the forms; the code around them reads these, never the kind. */
export interface FormDescriptor {
  kind: FormKind;
  /** The form's description as data (the seed's, or a configured one). */
  definition: FormDefinition;
  /** The no-JavaScript post's address; `${action}/sent` is its confirmation page. */
  action: string;
  /** The API operation forms.js posts to. */
  apiPath: string;
  /** Element id of the section holding the form; the no-JS post returns to it. */
  anchor: string;
  schema: RequestSchema;
  fields: readonly FieldSpec[];
  companyTypes: readonly CompanyType[];
  /**
   * The suggestion form follows the page's audience: on an audience page (e.g. /solutions/cros)
   * it preselects that company type, and a failed post is shown again on the audience page of the
   * company type sent.
   */
  followsAudience: boolean;
  /** The contract's either-or `name` rule, shown on first name (an empty last name is marked too). */
  nameRule: { shownOn: string; alsoMarks: string } | null;
  /** What a page carrying the form is (schema.org type); null: the page's own kind. */
  pageKind: 'ContactPage' | null;
  /** Beside the page text (with a link down to it on narrow screens), or after it. */
  placement: 'side' | 'after';
  /** A field a link may fill in (the insight report turns a search that found nothing into one). */
  prefillField: string | null;
  /**
   * The catalogue key of the form's heading when the heading is Frontdoor's own words (the seed's
   * demo request), so a link to the form is shown in the page's language; null: the site's words.
   */
  headingKey: MessageKey | null;
  /** The page the site serves when no content page carries the form; null: none. */
  builtInPage: {
    path: string;
    title: string;
    lead: string;
    description: (siteName: string) => string;
  } | null;
  /**
   * The words of the seed forms' own pages (built-in, confirmation and stand-alone page); null for
   * a configured form, whose pages are titled by its heading and confirmation heading.
   */
  pageWords: FormPageWords | null;
  /** The form's words as its HTML shows them (escaped), and its pages' titles and descriptions. */
  texts: Omit<FormDefinition['words'], 'emailTitle'> & {
    confirmationTitle: string;
    confirmationDescription: string;
    standaloneTitle: string;
    standaloneDescription: (siteName: string) => string;
  };
}

export const FORMS: Readonly<Record<SeedFormKind, FormDescriptor>> = {
  demo: {
    kind: 'demo',
    definition: REQUEST_DEMO,
    action: '/forms/demo-request',
    apiPath: SUBMISSION_PATHS.lead,
    anchor: 'demo-form',
    schema: LeadRequestSchema,
    fields: DEMO_REQUEST_FIELDS,
    companyTypes: COMPANY_TYPES,
    followsAudience: false,
    nameRule: { shownOn: 'firstName', alsoMarks: 'lastName' },
    pageKind: 'ContactPage',
    headingKey: 'requestDemo',
    placement: 'side',
    prefillField: null,
    ...pagesOf(REQUEST_DEMO.words, DEFAULT_DEMO_PATH, {
      pageTitle: 'Request a demo',
      pageLead:
        'Tell us who you are and what you would like to see, and we will be in touch to arrange a time.',
      pageDescription: 'See {site} in a demo tailored to your team.',
      confirmationTitle: 'Demo request received',
      confirmationDescription: 'Thank you for requesting a demo.',
      standaloneTitle: 'Request a demo',
      standaloneDescription: 'Request a demo of {site}.',
    }),
  },
  suggestion: {
    kind: 'suggestion',
    definition: SUGGEST_DOCUMENT,
    action: '/forms/document-suggestion',
    apiPath: SUBMISSION_PATHS.suggestion,
    anchor: 'suggestion-form',
    schema: SuggestionRequestSchema,
    fields: SUGGESTION_FIELDS,
    companyTypes: SUGGESTION_COMPANY_TYPES,
    followsAudience: true,
    nameRule: null,
    pageKind: null,
    headingKey: null,
    placement: 'after',
    prefillField: 'suggestion',
    ...pagesOf(SUGGEST_DOCUMENT.words, null, {
      pageTitle: 'Suggest a document',
      pageLead: SUGGEST_DOCUMENT.words.intro,
      pageDescription: 'Suggest a protocol-derived document for {site} to generate.',
      confirmationTitle: 'Suggestion received',
      confirmationDescription: 'Thank you for suggesting a document.',
      standaloneTitle: 'Suggest a document',
      standaloneDescription: 'Suggest a protocol-derived document for {site} to generate.',
    }),
  },
};

/** A configured form's field as the HTML form shows it. */
function fieldSpecOf(field: FieldDefinition): FieldSpec {
  const control: FieldSpec['control'] =
    field.type === 'textarea'
      ? 'textarea'
      : field.type === 'select'
        ? 'select'
        : field.type === 'checkbox'
          ? 'checkbox'
          : 'input';
  const type =
    field.type === 'email' || field.type === 'tel' || field.type === 'url' ? field.type : undefined;
  return {
    name: field.name,
    label: field.label,
    ...(field.shortName ? { shortName: field.shortName } : {}),
    control,
    ...(type ? { type } : {}),
    ...(field.autocomplete ? { autocomplete: field.autocomplete } : {}),
    required: field.requiredOnPage ?? field.required,
    ...(field.wide ? { wide: true } : {}),
    ...(field.help ? { hint: field.help } : {}),
  };
}

/** The HTML form of a configured form (`forms:` in _site.yaml): its fields, words and addresses. */
export function descriptorOf(definition: FormDefinition): FormDescriptor {
  const { words } = definition;
  return {
    kind: definition.key,
    definition,
    action: definition.action,
    apiPath: definition.path,
    anchor: `${definition.key}-form`,
    schema: requestSchemaOf(definition),
    fields: definition.fields.filter((field) => field.onPage).map(fieldSpecOf),
    companyTypes: [],
    followsAudience: false,
    nameRule: null,
    pageKind: null,
    headingKey: null,
    placement: 'after',
    prefillField: null,
    ...pagesOf(words, null, null),
  };
}

/**
 * A form's texts, built-in page and page words from its words and (seed forms) its pages' words;
 * a configured form's pages are titled by its heading and confirmation heading.
 */
function pagesOf(
  words: FormDefinition['words'],
  builtInPath: string | null,
  pageWords: FormPageWords | null,
): Pick<FormDescriptor, 'texts' | 'builtInPage' | 'pageWords'> {
  const shown = {
    heading: escapeHtml(words.heading),
    intro: escapeHtml(words.intro),
    button: escapeHtml(words.button),
    note: escapeHtml(words.note),
    thanksHeading: escapeHtml(words.thanksHeading),
    thanksText: escapeHtml(words.thanksText),
  };
  if (pageWords === null)
    return {
      texts: {
        ...shown,
        confirmationTitle: words.thanksHeading,
        confirmationDescription: words.thanksText,
        standaloneTitle: words.heading,
        standaloneDescription: () => words.intro || words.heading,
      },
      builtInPage: null,
      pageWords: null,
    };
  const withSite = (template: string) => (site: string) => formatMessage(template, { site });
  return {
    texts: {
      ...shown,
      confirmationTitle: pageWords.confirmationTitle,
      confirmationDescription: pageWords.confirmationDescription,
      standaloneTitle: pageWords.standaloneTitle,
      standaloneDescription: withSite(pageWords.standaloneDescription),
    },
    builtInPage:
      builtInPath === null
        ? null
        : {
            path: builtInPath,
            title: pageWords.pageTitle,
            lead: pageWords.pageLead,
            description: withSite(pageWords.pageDescription),
          },
    pageWords,
  };
}

/** The site's forms by key: the seed's own descriptors for the seed's definitions. */
export type FormCatalog = ReadonlyMap<FormKind, FormDescriptor>;

export function formCatalog(definitions: readonly FormDefinition[]): FormCatalog {
  const seed = Object.values(FORMS);
  return new Map(
    definitions.map((definition) => {
      const descriptor = seed.find((form) => form.definition === definition) ?? descriptorOf(definition);
      return [descriptor.kind, descriptor];
    }),
  );
}

/** The seed's forms: the catalog of a site whose configuration declares none. */
export const DEFAULT_FORM_CATALOG: FormCatalog = formCatalog([REQUEST_DEMO, SUGGEST_DOCUMENT]);

/** Each form in each language it is asked for, made once (a site has a few forms and languages). */
const formsInLanguages = new WeakMap<FormDescriptor, Map<string, FormDescriptor>>();

/**
 * The form as a page in `lang` shows it: its translation for that language (the tag, else its
 * primary subtag: `de-AT` reads `de`) over its own words; the form itself when it has none. The
 * contract side (schema, API path, `definition.id`) is the same object, so validation and
 * delivery do not depend on the page's language.
 */
export function formInLanguage(form: FormDescriptor, lang: string | null | undefined): FormDescriptor {
  const found = translationOf(form.definition, lang);
  if (found === null) return form;
  const [tag, translation] = found;
  let byTag = formsInLanguages.get(form);
  if (byTag === undefined) {
    byTag = new Map();
    formsInLanguages.set(form, byTag);
  }
  let translated = byTag.get(tag);
  if (translated === undefined) {
    translated = translateForm(form, translation);
    byTag.set(tag, translated);
  }
  return translated;
}

function translationOf(
  definition: FormDefinition,
  lang: string | null | undefined,
): [string, FormTranslation] | null {
  const { translations } = definition;
  if (!translations || !lang) return null;
  const tag = lang.toLowerCase();
  for (const candidate of [tag, primaryLanguage(tag)])
    if (Object.hasOwn(translations, candidate)) return [candidate, translations[candidate]!];
  return null;
}

/**
 * A field's words in a translation: a translated label without a short name of its own drops the
 * form's short name (it is in the other language), as a translated field without help keeps its own.
 */
function translateWords<T extends { label: string; shortName?: string }>(
  field: T,
  words: FieldTranslation | undefined,
  help: 'help' | 'hint',
): T {
  if (words === undefined) return field;
  const translated: T = { ...field };
  if (words.label !== undefined) {
    translated.label = words.label;
    if (words.shortName === undefined) delete translated.shortName;
  }
  if (words.shortName !== undefined) translated.shortName = words.shortName;
  if (words.help !== undefined) (translated as Record<string, unknown>)[help] = words.help;
  return translated;
}

/** The fields named in `first` first, in that order, then the others in theirs. */
function inOrder(fields: readonly FieldSpec[], first: readonly string[]): FieldSpec[] {
  const named = first.flatMap((name) => fields.filter((field) => field.name === name));
  return [...named, ...fields.filter((field) => !first.includes(field.name))];
}

function translateForm(form: FormDescriptor, translation: FormTranslation): FormDescriptor {
  const fieldWords = (name: string) =>
    translation.fields && Object.hasOwn(translation.fields, name) ? translation.fields[name] : undefined;
  const fields = form.definition.fields.map((field) => {
    const words = fieldWords(field.name);
    const translated = translateWords(field, words, 'help');
    const labels = words?.choices;
    return labels && translated.choices
      ? {
          ...translated,
          choices: translated.choices.map((choice) =>
            Object.hasOwn(labels, choice.value) ? { ...choice, label: labels[choice.value]! } : choice,
          ),
        }
      : translated;
  });
  const words = { ...form.definition.words, ...translation.words };
  const definition: FormDefinition = { ...form.definition, fields, words };
  const pageWords = form.pageWords && { ...form.pageWords, ...translation.pages };
  return {
    ...form,
    definition,
    fields: inOrder(
      form.fields.map((spec) => translateWords(spec, fieldWords(spec.name), 'hint')),
      translation.firstFields ?? [],
    ),
    ...pagesOf(words, form.builtInPage?.path ?? null, pageWords),
  };
}
