/**
 * The HTML of the forms: every control and its states (with and without JavaScript, errors,
 * choices that depend on another field) for the seed forms and configured ones. More than 500
 * lines on purpose: both renderings must stay the same markup, so they live together.
 */
import {
  createValidator,
  HONEYPOT_FIELD,
  PERSONAS_BY_COMPANY_TYPE,
  SOLUTION_PAGE_BY_COMPANY_TYPE,
  type CompanyType,
  type FieldProblem,
  type LeadPersona,
} from '../contract/index.js';
import { encodePagePath } from '../content/index.js';
import { formatMessage, messagesFor, type Messages } from '../language/index.js';
import { escapeHtml } from '../text/index.js';
import { formInLanguage, type FieldSpec, type FormDescriptor, type FormKind } from './form-descriptors.js';

export {
  DEFAULT_FORM_CATALOG,
  descriptorOf,
  formCatalog,
  formInLanguage,
  FORMS,
  type FormCatalog,
  type FormDescriptor,
  type FormKind,
  type SeedFormKind,
} from './form-descriptors.js';

/** What a re-rendered form shows: the values sent and the problems found with them. */
export interface FormState {
  values: Readonly<Record<string, string>>;
  problems: readonly FieldProblem[];
  /** A problem with the submission as a whole (delivery failure, refused origin). */
  formError?: string;
}

/** Field bounds as the contract schema states them. */
function boundsOf(form: FormDescriptor, field: string): { maxLength?: number; minLength?: number } {
  const schema = form.schema.properties[field];
  if (!schema) throw new Error(`the ${form.kind} contract schema has no field ${field}`);
  const bounds: { maxLength?: number; minLength?: number } = {};
  if (typeof schema.maxLength === 'number') bounds.maxLength = schema.maxLength;
  if (typeof schema.minLength === 'number') bounds.minLength = schema.minLength;
  return bounds;
}

/** The company type a suggestion form preselects on an audience page (e.g. /solutions/cros → cro). */
export function companyTypeForPage(path: string): CompanyType | null {
  for (const [type, page] of Object.entries(SOLUTION_PAGE_BY_COMPANY_TYPE))
    if (page === path) return type as CompanyType;
  return null;
}

/** What messages call a contract field: its short name, else the label a visitor sees. */
export function fieldLabel(
  form: FormDescriptor,
  field: string,
  words: Messages = messagesFor(null),
): string | null {
  if (field === 'name' && form.nameRule) return words.nameField;
  const spec = form.fields.find((candidate) => candidate.name === field);
  return spec ? (spec.shortName ?? spec.label) : null;
}

/**
 * A validator's message ("is shorter than 2 characters", the API's English, kept for agents) as the
 * rest of a visitor's sentence that starts with the field's name and a colon, in the page's
 * language: "must be at least 2 characters". form-enhance.js says the same for the browser's own
 * checks and the API's answers (same rules and catalogue keys, written in both).
 */
export function visitorPhrase(message: string, words: Messages = messagesFor(null)): string {
  const shorter = /^is shorter than (\d+) characters$/.exec(message);
  if (shorter) return formatMessage(words.fieldTooShort, { count: shorter[1]! });
  const longer = /^is longer than (\d+) characters$/.exec(message);
  if (longer) return formatMessage(words.fieldTooLong, { count: longer[1]! });
  if (message === 'is required') return words.fieldRequired;
  if (message === 'is not a valid e-mail address') return words.fieldNotEmail;
  return message;
}

/** Where a problem is shown: `name` (either-or rule) belongs to the field the rule names. */
function fieldShowingProblem(form: FormDescriptor, field: string): string | null {
  if (field === 'name' && form.nameRule) return form.nameRule.shownOn;
  return form.fields.some((spec) => spec.name === field) ? field : null;
}

/**
 * A contract problem in words for a visitor, in the page's language (`words`): the field named in
 * a sentence of its own with the validator's message, and the persona rule explained in terms of
 * the form's choices rather than slugs.
 */
export function describeProblemForVisitor(
  form: FormDescriptor,
  problem: FieldProblem,
  values: Readonly<Record<string, string>>,
  words: Messages = messagesFor(null),
): string {
  if (problem.field === 'name' && form.nameRule) return words.enterFullName;
  if (problem.field === 'persona' && problem.message.includes('is not a persona of companyType')) {
    const label = values.companyType ? choiceLabel(form, 'companyType', values.companyType) : undefined;
    return label ? formatMessage(words.chooseAreaUnderType, { type: label }) : words.chooseMatchingArea;
  }
  const label = fieldLabel(form, problem.field, words) ?? problem.field;
  const dependent = dependentChoiceProblem(form, problem, values);
  const phrase = dependent
    ? formatMessage(words.chooseDependentChoice, {
        choice: dependent.parentChoice,
        parent: dependent.parentLabel,
      })
    : visitorPhrase(problem.message, words);
  return formatMessage(words.fieldProblem, { field: label, problem: phrase });
}

/**
 * A configured choice that depends on another field (a study phase by service), refused because it
 * belongs to another value of that field: the value chosen there, as the visitor saw it, instead
 * of the contract's slugs (`"pilot" is not a studyPhase of service "interim-analysis"`).
 */
function dependentChoiceProblem(
  form: FormDescriptor,
  problem: FieldProblem,
  values: Readonly<Record<string, string>>,
): { parentChoice: string; parentLabel: string } | null {
  const field = form.definition.fields.find((candidate) => candidate.name === problem.field);
  const parentName = field?.dependsOn?.field;
  if (parentName === undefined || !problem.message.includes(` is not a ${problem.field} of ${parentName} `))
    return null;
  const parent = form.definition.fields.find((candidate) => candidate.name === parentName);
  const parentChoice = parent?.choices?.find((choice) => choice.value === values[parentName]);
  return parent && parentChoice
    ? { parentChoice: parentChoice.label, parentLabel: fieldLabel(form, parentName) ?? parent.label }
    : null;
}

/** The label a select shows for one of its values (in the form's language); undefined: no such choice. */
function choiceLabel(form: FormDescriptor, field: string, value: string): string | undefined {
  const choices = form.definition.fields.find((candidate) => candidate.name === field)?.choices;
  return choices?.find((choice) => choice.value === value)?.label;
}

function idOf(form: FormDescriptor, field: string): string {
  return `${form.kind}-${field}`;
}

function renderCompanyTypeSelect(
  form: FormDescriptor,
  id: string,
  value: string,
  attrs: string,
  words: Messages,
): string {
  const options = form.companyTypes.map(
    (type) =>
      `<option value="${type}"${type === value ? ' selected' : ''}>${escapeHtml(
        choiceLabel(form, 'companyType', type) ?? type,
      )}</option>`,
  );
  return `<select id="${id}" name="companyType"${attrs} data-company-type-select><option value="">${escapeHtml(words.chooseOne)}</option>${options.join('')}</select>`;
}

function renderPersonaSelect(
  form: FormDescriptor,
  id: string,
  value: string,
  companyType: string,
  attrs: string,
  words: Messages,
): string {
  // A persona listed under two company types is selected once: in the chosen type's group if any.
  const selectedGroup = form.companyTypes.find(
    (type) =>
      (type === companyType || !form.companyTypes.includes(companyType as CompanyType)) &&
      (PERSONAS_BY_COMPANY_TYPE[type] as readonly string[]).includes(value),
  );
  const groups = form.companyTypes.map((type) => {
    const options = (PERSONAS_BY_COMPANY_TYPE[type] as readonly LeadPersona[]).map(
      (persona) =>
        `<option value="${persona}"${type === selectedGroup && persona === value ? ' selected' : ''}>${escapeHtml(
          choiceLabel(form, 'persona', persona) ?? persona,
        )}</option>`,
    );
    return `<optgroup label="${escapeHtml(choiceLabel(form, 'companyType', type) ?? type)}" data-company-type="${type}">${options.join('')}</optgroup>`;
  });
  return `<select id="${id}" name="persona"${attrs} data-persona-select><option value="">${escapeHtml(words.chooseOne)}</option>${groups.join('')}</select>`;
}

/**
 * A configured select. A field others depend on and a dependent one carry the data attributes the
 * seed's organization type and persona selects carry, so forms.js narrows the choices the same way.
 */
function renderSelect(
  form: FormDescriptor,
  spec: FieldSpec,
  id: string,
  state: FormState,
  attrs: string,
  words: Messages,
): string {
  const field = form.definition.fields.find((candidate) => candidate.name === spec.name)!;
  const value = state.values[spec.name] ?? '';
  const option = (choice: { value: string; label: string }, selected: boolean) =>
    `<option value="${escapeHtml(choice.value)}"${selected ? ' selected' : ''}>${escapeHtml(choice.label)}</option>`;
  const isParent = form.definition.fields.some((other) => other.dependsOn?.field === field.name);
  let options: string;
  let marker = isParent ? ' data-company-type-select' : '';
  if (field.dependsOn) {
    marker = ' data-persona-select';
    const parent = form.definition.fields.find((candidate) => candidate.name === field.dependsOn!.field);
    const parentValue = state.values[field.dependsOn.field] ?? '';
    const labels = new Map((field.choices ?? []).map((choice) => [choice.value, choice.label]));
    const groups = Object.entries(field.dependsOn.choices);
    // A value listed under two groups is selected once: in the chosen group if any.
    const selectedGroup =
      groups.find(([group, values]) => group === parentValue && values.includes(value))?.[0] ??
      groups.find(([, values]) => values.includes(value))?.[0];
    options = groups
      .map(([group, values]) => {
        const groupLabel = parent?.choices?.find((choice) => choice.value === group)?.label ?? group;
        const inner = values
          .map((choiceValue) =>
            option(
              { value: choiceValue, label: labels.get(choiceValue) ?? choiceValue },
              group === selectedGroup && choiceValue === value,
            ),
          )
          .join('');
        return `<optgroup label="${escapeHtml(groupLabel)}" data-company-type="${escapeHtml(group)}">${inner}</optgroup>`;
      })
      .join('');
  } else options = (field.choices ?? []).map((choice) => option(choice, choice.value === value)).join('');
  return `<select id="${id}" name="${spec.name}"${attrs}${marker}><option value="">${escapeHtml(words.chooseOne)}</option>${options}</select>`;
}

function renderField(
  form: FormDescriptor,
  spec: FieldSpec,
  state: FormState,
  fieldErrors: Map<string, string[]>,
  words: Messages,
): string {
  const id = idOf(form, spec.name);
  const value = state.values[spec.name] ?? '';
  const errors = fieldErrors.get(spec.name);
  const described = [spec.hint ? `${id}-hint` : '', `${id}-error`].filter((part) => part !== '').join(' ');
  const bounds = spec.control === 'input' || spec.control === 'textarea' ? boundsOf(form, spec.name) : {};
  const attrs = [
    spec.required ? ' required' : '',
    bounds.maxLength !== undefined ? ` maxlength="${bounds.maxLength}"` : '',
    bounds.minLength !== undefined ? ` minlength="${bounds.minLength}"` : '',
    spec.autocomplete ? ` autocomplete="${spec.autocomplete}"` : '',
    spec.shortName ? ` data-short-label="${escapeHtml(spec.shortName)}"` : '',
    ` aria-describedby="${described}"`,
    errors !== undefined ? ' aria-invalid="true"' : '',
  ].join('');

  let control: string;
  switch (spec.control) {
    case 'input':
      control = `<input id="${id}" name="${spec.name}" type="${spec.type ?? 'text'}"${attrs} value="${escapeHtml(value)}">`;
      break;
    case 'textarea':
      control = `<textarea id="${id}" name="${spec.name}" rows="5"${attrs}>${escapeHtml(value)}</textarea>`;
      break;
    case 'company-type':
      control = renderCompanyTypeSelect(form, id, value, attrs, words);
      break;
    case 'persona':
      control = renderPersonaSelect(form, id, value, state.values.companyType ?? '', attrs, words);
      break;
    case 'select':
      control = renderSelect(form, spec, id, state, attrs, words);
      break;
    case 'checkbox':
      control = `<input id="${id}" name="${spec.name}" type="checkbox" value="yes"${attrs}${value === 'yes' ? ' checked' : ''}>`;
      break;
  }
  const optional = spec.required ? '' : ` <span class="optional">${escapeHtml(words.optionalField)}</span>`;
  return [
    `<div class="field${spec.wide ? ' field-wide' : ''}${spec.control === 'checkbox' ? ' field-check' : ''}">`,
    `<label for="${id}">${escapeHtml(spec.label)}${optional}</label>`,
    spec.hint ? `<p class="field-hint" id="${id}-hint">${escapeHtml(spec.hint)}</p>` : '',
    control,
    `<p class="field-error" id="${id}-error" data-error-for="${spec.name}">${escapeHtml((errors ?? []).join(' '))}</p>`,
    '</div>',
  ].join('');
}

export interface FormContext {
  /** Path of the page the form sits on: recorded as `sourcePage` when the contract allows it. */
  pagePath: string;
  /** Sales mailbox offered when the site has no delivery configured. */
  salesEmail: string;
  state?: FormState;
  /**
   * False for the embed (frontdoor.js): the form is only ever sent by script, to the API, from a
   * page on another site, where the no-JavaScript route (`action`) does not exist (default true).
   */
  noScriptPost?: boolean;
  /** The page's language: the error sentences come from its catalogue (English when unknown). */
  lang?: string | null;
}

const EMPTY_STATE: FormState = { values: {}, problems: [] };

const sourcePageValidators = new Map<FormKind, (value: unknown) => { ok: boolean }>();

/**
 * Whether a page path may be sent as the form's `sourcePage` (the suggestion schema is narrower),
 * judged by the contract's own validator: the embed is given any path (`//host/x` included).
 */
export function acceptsSourcePage(form: FormDescriptor, path: string): boolean {
  let validate = sourcePageValidators.get(form.kind);
  if (validate === undefined) {
    validate = createValidator(form.schema.properties.sourcePage!, 'sourcePage');
    sourcePageValidators.set(form.kind, validate);
  }
  return validate(path).ok;
}

export function renderForm(formAsDefined: FormDescriptor, context: FormContext): string {
  const form = formInLanguage(formAsDefined, context.lang);
  const state = context.state ?? EMPTY_STATE;
  const values = { ...state.values };
  if (form.followsAudience && values.companyType === undefined) {
    const preselected = companyTypeForPage(context.pagePath);
    if (preselected && form.companyTypes.includes(preselected)) values.companyType = preselected;
  }
  const shownState: FormState = { ...state, values };

  const fieldErrors = new Map<string, string[]>();
  const summary: string[] = [];
  const words = messagesFor(context.lang);
  for (const problem of state.problems) {
    const text = describeProblemForVisitor(form, problem, values, words);
    const field = fieldShowingProblem(form, problem.field);
    if (field) {
      fieldErrors.set(field, [...(fieldErrors.get(field) ?? []), text]);
      summary.push(`<li><a href="#${idOf(form, field)}">${escapeHtml(text)}</a></li>`);
    } else {
      summary.push(`<li>${escapeHtml(text)}</li>`);
    }
  }
  if (state.formError) summary.push(`<li>${escapeHtml(state.formError)}</li>`);
  // The either-or name rule also marks an empty last name as invalid (its message is on first name).
  const { nameRule, kind, texts } = form;
  if (nameRule && fieldErrors.has(nameRule.shownOn) && !values[nameRule.alsoMarks])
    fieldErrors.set(nameRule.alsoMarks, []);

  const fields = form.fields.map((spec) => renderField(form, spec, shownState, fieldErrors, words));
  const sourcePage = acceptsSourcePage(form, context.pagePath)
    ? `<input type="hidden" name="sourcePage" value="${escapeHtml(context.pagePath)}">`
    : '';
  const errorSummary =
    summary.length > 0 ? `<h3>${escapeHtml(words.checkTheForm)}</h3><ul>${summary.join('')}</ul>` : '';

  return [
    `<div class="form-card">`,
    `<h2 id="${kind}-form-title">${texts.heading}</h2>`,
    `<p class="form-intro">${texts.intro}</p>`,
    `<div class="form-success" data-form-success role="status" aria-live="polite" tabindex="-1"></div>`,
    // What forms.js shows after a successful post, written once here (no copy of the text in JS).
    `<template data-success-template>${confirmationHtml(form, {
      mailto: true,
      salesEmail: context.salesEmail,
      backPath: null,
      backTitle: null,
      lang: context.lang ?? null,
    })}</template>`,
    context.noScriptPost === false
      ? `<form class="site-form" `
      : `<form class="site-form" method="post" action="${form.action}#${form.anchor}" `,
    `aria-labelledby="${kind}-form-title" data-enhance-form="${kind}" data-endpoint="${form.apiPath}"`,
    ` data-sales-email="${escapeHtml(context.salesEmail)}">`,
    `<div class="form-errors" data-form-errors aria-live="assertive" tabindex="-1">${errorSummary}</div>`,
    `<div class="form-grid">${fields.join('')}</div>`,
    sourcePage,
    // The honeypot: off screen, out of the tab order and hidden from assistive technology, so only
    // a bot fills it (see contract/form-traps.ts).
    `<div class="form-trap" aria-hidden="true"><label for="${kind}-${HONEYPOT_FIELD}">${escapeHtml(words.leaveEmpty)}</label>`,
    `<input id="${kind}-${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" type="text" value="" tabindex="-1" autocomplete="off" data-honeypot></div>`,
    '<div class="form-actions">',
    `<button class="button button-primary" type="submit">${texts.button}</button>`,
    `<p class="form-note">${texts.note}</p>`,
    '</div>',
    '</form>',
    '</div>',
  ].join('');
}

/**
 * The form as the embed shows it (`<frontdoor-form kind="…">` on a page of another site): the same
 * fields, messages and confirmation as the site's own, sent by script only. `pagePath` is the path
 * of the page it sits on, recorded as `sourcePage` when the contract allows that path.
 */
export function renderEmbeddedForm(
  form: FormDescriptor,
  pagePath: string,
  salesEmail: string,
  lang: string | null = null,
): string {
  return renderForm(form, { pagePath, salesEmail, noScriptPost: false, lang });
}

/** The section around a form, with the anchor the no-JS post returns to. */
export function renderFormSection(form: FormDescriptor, context: FormContext): string {
  return `<section class="form-section" id="${form.anchor}" aria-labelledby="${form.kind}-form-title">${renderForm(
    form,
    context,
  )}</section>`;
}

export interface ConfirmationOptions {
  /** Offer the sales mailbox (the site has no delivery configured: provider `mailto`). */
  mailto: boolean;
  salesEmail: string;
  backPath: string | null;
  backTitle: string | null;
  /** h2 in the panel beside a form; h1 on the confirmation page. */
  headingLevel?: 1 | 2;
  /** The page's language: the form's words and the panel's own (English when unknown). */
  lang: string | null;
}

/** The inside of the "thank you" panel; the mailbox paragraph is marked so forms.js can drop it. */
export function confirmationHtml(formAsDefined: FormDescriptor, options: ConfirmationOptions): string {
  const form = formInLanguage(formAsDefined, options.lang);
  const words = messagesFor(options.lang);
  const h = `h${options.headingLevel ?? 2}`;
  const parts = [`<${h}>${form.texts.thanksHeading}</${h}>`, `<p>${form.texts.thanksText}</p>`];
  if (options.mailto && options.salesEmail) {
    const mailbox = escapeHtml(options.salesEmail);
    parts.push(
      `<p data-if-mailto>${formatMessage(escapeHtml(words.addAnythingWriteTo), {
        email: `<a href="mailto:${mailbox}">${mailbox}</a>`,
      })}</p>`,
    );
  }
  if (options.backPath && options.backTitle)
    parts.push(
      `<p><a href="${escapeHtml(encodePagePath(options.backPath))}">${formatMessage(
        escapeHtml(words.backTo),
        {
          page: escapeHtml(options.backTitle),
        },
      )}</a></p>`,
    );
  return parts.join('');
}

/** The "thank you" panel on the confirmation page a successful no-JS post is redirected to. */
export function renderConfirmation(form: FormDescriptor, options: ConfirmationOptions): string {
  return `<div class="form-success" role="status">${confirmationHtml(form, options)}</div>`;
}
