import { escapeHtml } from '../text/index.js';
import { reportLabelOf, type FormDefinition } from '../contract/index.js';
import { headerText, multiLine, singleLine } from './safe-text.js';
import type { SubmissionKind, SubmissionRecord } from './types.js';

/** Field order and labels in e-mails: the contact first, the free text last. */
const FIELD_LABELS: Record<SubmissionKind, [string, string][]> = {
  lead: [
    ['name', 'Name'],
    ['firstName', 'First name'],
    ['lastName', 'Last name'],
    ['email', 'E-mail'],
    ['company', 'Company'],
    ['role', 'Role'],
    ['companyType', 'Company type'],
    ['persona', 'Persona'],
    ['teamSize', 'Team size'],
    ['timeline', 'Timeline'],
    ['sourcePage', 'Source page'],
    ['message', 'Message'],
  ],
  suggestion: [
    ['companyType', 'Company type'],
    ['persona', 'Persona'],
    ['email', 'E-mail'],
    ['sourcePage', 'Source page'],
    ['suggestion', 'Suggestion'],
  ],
};

const EVENT_TYPES: Record<SubmissionKind, string> = {
  lead: 'lead.created',
  suggestion: 'suggestion.created',
};

/** The free-text fields, which keep their line breaks; every other field is one line everywhere. */
const MULTI_LINE_FIELDS = new Set(['message', 'suggestion']);

export { singleLine };

/**
 * The fields in e-mail order, made safe to show: a line break in a name or company cannot start a
 * forged `Bcc:` line, and bidi controls cannot reorder what the reader sees.
 */
export function labelledFields(submission: SubmissionRecord, form?: FormDefinition): [string, string][] {
  const labels: [string, string][] = form
    ? form.fields.map((field) => [field.name, reportLabelOf(field)])
    : FIELD_LABELS[submission.kind];
  const multiLineFields = form
    ? new Set(form.fields.filter((field) => field.type === 'textarea').map((field) => field.name))
    : MULTI_LINE_FIELDS;
  return labels
    .filter(([key]) => submission.fields[key] !== undefined)
    .map(([key, label]) => {
      const value = submission.fields[key]!;
      return [label, multiLineFields.has(key) ? multiLine(value) : singleLine(value)];
    });
}

/** The contact's display name: `name`, else first and last name. */
export function contactName(submission: SubmissionRecord): string {
  const { name, firstName, lastName } = submission.fields;
  if (name && name.trim() !== '') return singleLine(name);
  return singleLine([firstName, lastName].filter(Boolean).join(' '));
}

/** The contact's name for the Reply-To header (encoded words neutralised, see `headerText`). */
export function replyToName(submission: SubmissionRecord): string {
  return headerText(contactName(submission));
}

/** The Subject: made of submitted text, so made safe by `headerText` as a whole. */
export function emailSubject(submission: SubmissionRecord, form?: FormDefinition): string {
  if (form) {
    // The field the form fills with the person's name (autocomplete "name"), else the seed's name fields.
    const nameField = form.fields.find((field) => field.autocomplete === 'name')?.name;
    const named = nameField ? singleLine(submission.fields[nameField] ?? '') : '';
    const who = named || contactName(submission) || singleLine(submission.fields.email ?? '');
    return headerText(who ? `${form.words.heading}: ${who}` : form.words.heading);
  }
  if (submission.kind === 'lead') {
    const company = submission.fields.company ? ` (${submission.fields.company})` : '';
    return headerText(`Demo request: ${contactName(submission)}${company}`);
  }
  return headerText(
    `Document suggestion from a ${submission.fields.companyType} (${submission.fields.persona})`,
  );
}

/** The e-mail's title: the configured form's words, else the seed form's of its kind. */
function titleOf(submission: SubmissionRecord, form?: FormDefinition): string {
  if (form) return form.words.emailTitle;
  return submission.kind === 'lead' ? 'New demo request' : 'New document suggestion';
}

export function emailText(submission: SubmissionRecord, form?: FormDefinition): string {
  const title = titleOf(submission, form);
  const lines = labelledFields(submission, form).map(([label, value]) =>
    // Free text is indented under its label, so a line in it cannot pass for a field of its own.
    value.includes('\n') ? `${label}:\n${value.replace(/^/gm, '  ')}` : `${label}: ${value}`,
  );
  return [
    `${title} (submission ${submission.id})`,
    '',
    ...lines,
    '',
    `Received: ${new Date(submission.receivedAtMs).toISOString()}`,
    '',
  ].join('\n');
}

/** Every value is escaped; nothing the visitor sent becomes markup. */
export function emailHtml(submission: SubmissionRecord, form?: FormDefinition): string {
  const title = titleOf(submission, form);
  const rows = labelledFields(submission, form)
    .map(
      ([label, value]) =>
        `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td style="white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    )
    .join('\n');
  return [
    '<!doctype html>',
    '<html><body>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<table cellpadding="4">\n${rows}\n</table>`,
    `<p>Received ${escapeHtml(new Date(submission.receivedAtMs).toISOString())}, submission ${escapeHtml(submission.id)}.</p>`,
    '</body></html>',
    '',
  ].join('\n');
}

/**
 * The webhook body. `timestamp` is the time the submission was received, so every retry sends the
 * same bytes; the signature's own timestamp says when this attempt was made.
 */
export function webhookPayload(submission: SubmissionRecord, form?: FormDefinition): string {
  const receivedAt = new Date(submission.receivedAtMs).toISOString();
  return JSON.stringify({
    // A configured form's event names its key (`quote.created`) and its data its operation.
    type: form ? `${form.key}.created` : EVENT_TYPES[submission.kind],
    timestamp: receivedAt,
    data: {
      id: submission.id,
      ...(form ? { form: form.id } : {}),
      ...submission.fields,
      sourcePage: submission.fields.sourcePage ?? null,
      receivedAt,
    },
  });
}
