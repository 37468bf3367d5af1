// The demo request and document suggestion forms, enhanced: persona choices follow the company
// type, fields are checked as the server checks them, and the form posts JSON to the API with the
// server's validation errors shown at the field they concern. Shared by the site's own forms
// (forms.js; without script they post to the site's HTML routes) and the embeddable
// <frontdoor-form> (frontdoor.js). Its own words are the page's (words.js).
import { say } from './words.js';

const INVALID_PREFIX = 'Invalid request: ';
const PERSONA_MISMATCH = 'is not a persona of companyType';

function labelOf(form, field) {
  if (field === 'name') return say('nameField');
  const control = form.elements.namedItem(field);
  // A label written as a question has a short name for messages (FieldSpec.shortName).
  if (control && control.dataset && control.dataset.shortLabel) return control.dataset.shortLabel;
  const label = control && control.id ? form.querySelector(`label[for="${control.id}"]`) : null;
  if (!label) return field;
  // The label without its "(optional)" note.
  const clone = label.cloneNode(true);
  for (const note of clone.querySelectorAll('.optional')) note.remove();
  return clone.textContent.trim();
}

/** The persona select shows only the roles of the chosen company type (all groups when none). */
function followCompanyType(companyType, persona) {
  const placeholder = persona.querySelector('option[value=""]');
  const groups = [...persona.querySelectorAll('optgroup')].map((group) => ({
    type: group.dataset.companyType,
    label: group.label,
    options: [...group.querySelectorAll('option')].map((option) => ({
      value: option.value,
      text: option.textContent,
    })),
  }));

  const update = () => {
    const type = companyType.value;
    const current = persona.value;
    const shown = type ? groups.filter((group) => group.type === type) : groups;
    const children = placeholder ? [placeholder] : [];
    for (const group of shown) {
      const options = group.options.map((entry) => {
        const option = document.createElement('option');
        option.value = entry.value;
        option.textContent = entry.text;
        return option;
      });
      if (type) children.push(...options);
      else {
        const optgroup = document.createElement('optgroup');
        optgroup.label = group.label;
        optgroup.dataset.companyType = group.type;
        optgroup.append(...options);
        children.push(optgroup);
      }
    }
    persona.replaceChildren(...children);
    const stillOffered = shown.some((group) => group.options.some((option) => option.value === current));
    persona.value = stillOffered ? current : '';
  };
  companyType.addEventListener('change', update);
  update();
}

/**
 * A validator's message as the rest of a sentence that starts with the field's name and a colon:
 * the same words as visitorPhrase in src/site/forms.ts, which renders the no-JavaScript page.
 */
function visitorPhrase(message) {
  const shorter = /^is shorter than (\d+) characters$/.exec(message);
  if (shorter) return say('fieldTooShort', { count: shorter[1] });
  const longer = /^is longer than (\d+) characters$/.exec(message);
  if (longer) return say('fieldTooLong', { count: longer[1] });
  if (message === 'is required') return say('fieldRequired');
  if (message === 'is not a valid e-mail address') return say('fieldNotEmail');
  return message;
}

/** A field's problem in a sentence of its own: "Document type: must be at least 2 characters." */
function sentence(form, field, message) {
  return say('fieldProblem', { field: labelOf(form, field), problem: visitorPhrase(message) });
}

/** The browser's check of one field, in the words the server uses. */
function problemOf(form, control) {
  if (!control.name || control.type === 'hidden' || control.disabled) return '';
  const { validity } = control;
  const value = control.value;
  const problem = (message) => sentence(form, control.name, message);
  if (validity.valueMissing || (control.required && value.trim() === '')) return problem('is required');
  if (validity.typeMismatch && control.type === 'email') return problem('is not a valid e-mail address');
  if (control.maxLength > 0 && value.length > control.maxLength)
    return problem(`is longer than ${control.maxLength} characters`);
  if (control.minLength > 0 && value !== '' && [...value].length < control.minLength)
    return problem(`is shorter than ${control.minLength} characters`);
  return '';
}

/** Where a field's message goes: the either-or name rule is shown at the first name. */
function controlFor(form, field) {
  const name = field === 'name' ? 'firstName' : field;
  const control = form.elements.namedItem(name);
  return control && control.type !== 'hidden' ? control : null;
}

function setFieldError(form, field, message) {
  const control = controlFor(form, field);
  if (!control) return false;
  const slot = form.querySelector(`[data-error-for="${control.name}"]`);
  if (slot) slot.textContent = message;
  if (message) control.setAttribute('aria-invalid', 'true');
  else control.removeAttribute('aria-invalid');
  return true;
}

function clearErrors(form) {
  for (const slot of form.querySelectorAll('[data-error-for]')) slot.textContent = '';
  for (const control of form.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
  form.querySelector('[data-form-errors]')?.replaceChildren();
}

function showSummary(form, messages) {
  const box = form.querySelector('[data-form-errors]');
  if (!box) return;
  const heading = document.createElement('h3');
  heading.textContent = say('checkTheForm');
  const list = document.createElement('ul');
  for (const message of messages) {
    const item = document.createElement('li');
    item.textContent = message;
    list.append(item);
  }
  box.replaceChildren(heading, list);
}

/**
 * The server's VALIDATION_ERROR message lists one problem per field:
 * "Invalid request: email is not a valid e-mail address; persona \"x\" is not a persona of …."
 */
function problemsOf(message) {
  if (typeof message !== 'string' || !message.startsWith(INVALID_PREFIX)) return [];
  const text = message.slice(INVALID_PREFIX.length).replace(/\.$/, '');
  return text
    .split('; ')
    .map((part) => /^(\S+) (.+)$/.exec(part))
    .filter(Boolean)
    .map((match) => ({ field: match[1], message: match[2] }));
}

function visitorMessage(form, problem) {
  if (problem.field === 'name') return say('enterFullName');
  if (problem.field === 'persona' && problem.message.includes(PERSONA_MISMATCH))
    return say('chooseMatchingArea');
  return sentence(form, problem.field, problem.message);
}

function showSuccess(form, answer) {
  const card = form.closest('.form-card') ?? form.parentElement;
  const panel = card.querySelector('[data-form-success]');
  const template = card.querySelector('template[data-success-template]');
  if (!panel || !template) return;
  const content = template.content.cloneNode(true);
  if (answer.provider !== 'mailto')
    for (const node of content.querySelectorAll('[data-if-mailto]')) node.remove();
  panel.replaceChildren(content);
  form.hidden = true;
  panel.focus();
}

// The spam traps (src/contract/form-traps.ts): the honeypot field is not part of the API body;
// whether it was filled, and how long the form was open, travel as two headers.
const HONEYPOT_HEADER = 'form-honeypot';
const FILL_TIME_HEADER = 'form-fill-ms';

/** Takes a rendered form over; its `data-endpoint` is resolved against `base` (the API's origin). */
export function enhance(form, { base = location.href } = {}) {
  if (!form.dataset.endpoint) return;
  const endpoint = new URL(form.dataset.endpoint, base).href;
  const shownAt = performance.now();
  const honeypot = form.querySelector('[data-honeypot]');
  form.noValidate = true;
  const companyType = form.querySelector('[data-company-type-select]');
  const persona = form.querySelector('[data-persona-select]');
  if (companyType && persona) followCompanyType(companyType, persona);
  const button = form.querySelector('button[type="submit"]');

  // A corrected field loses its message as soon as it is valid.
  form.addEventListener('input', (event) => {
    const control = event.target;
    if (
      control.getAttribute &&
      control.getAttribute('aria-invalid') === 'true' &&
      problemOf(form, control) === ''
    )
      setFieldError(form, control.name, '');
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const invalid = [];
    const messages = [];
    for (const control of form.elements) {
      const message = problemOf(form, control);
      if (!message) continue;
      setFieldError(form, control.name, message);
      invalid.push(control);
      messages.push(message);
    }
    if (invalid.length > 0) {
      showSummary(form, messages);
      invalid[0].focus();
      return;
    }

    const body = {};
    for (const [name, value] of new FormData(form))
      if (typeof value === 'string' && value !== '' && (!honeypot || name !== honeypot.name))
        body[name] = value;
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    headers[FILL_TIME_HEADER] = String(Math.round(performance.now() - shownAt));
    if (honeypot && honeypot.value !== '') headers[HONEYPOT_HEADER] = '1';
    if (button) button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    let response = null;
    let answer = null;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      answer = await response.json().catch(() => null);
    } catch {
      response = null;
    } finally {
      if (button) button.disabled = false;
      form.removeAttribute('aria-busy');
    }

    if (response && response.ok && answer && answer.ok === true) {
      showSuccess(form, answer);
      return;
    }
    if (!response) {
      showSummary(form, [say('formNotSent')]);
      return;
    }
    const problems = answer && answer.code === 'VALIDATION_ERROR' ? problemsOf(answer.message) : [];
    if (problems.length > 0) {
      const summary = [];
      let first = null;
      for (const problem of problems) {
        const message = visitorMessage(form, problem);
        summary.push(message);
        if (setFieldError(form, problem.field, message)) first ??= controlFor(form, problem.field);
      }
      showSummary(form, summary);
      if (first) first.focus();
      return;
    }
    const text =
      answer && typeof answer.message === 'string'
        ? answer.message
        : say('serverAnswered', { status: response.status });
    const resolution = answer && typeof answer.resolution === 'string' ? answer.resolution : say('tryAgain');
    showSummary(form, [text, resolution]);
  });
}
