import type { Choice, FieldDefinition, FormDefinition } from './form-definition.js';
import {
  COMPANY_TYPE_LABELS,
  COMPANY_TYPES,
  LEAD_PERSONAS,
  PERSONA_LABELS,
  PERSONAS_BY_COMPANY_TYPE,
  SUGGESTION_COMPANY_TYPES,
  SUGGESTION_PERSONAS,
  type CompanyType,
} from './personas.js';
import { SUBMISSION_PATHS } from './paths.js';
import { REQUEST_DEMO_TRANSLATIONS, SUGGEST_DOCUMENT_TRANSLATIONS } from './default-form-translations.js';

/**
 * The seed's two forms, written as the same data a site's `forms:` configuration gives: a site
 * without one has exactly these, and its published contract is the seed's.
 */

const companyTypeChoices = (types: readonly CompanyType[]): Choice[] =>
  types.map((value) => ({ value, label: COMPANY_TYPE_LABELS[value] }));

const personaChoices = (personas: readonly (keyof typeof PERSONA_LABELS)[]): Choice[] =>
  personas.map((value) => ({ value, label: PERSONA_LABELS[value] }));

const personasOf = (types: readonly CompanyType[]) =>
  Object.fromEntries(types.map((type) => [type, PERSONAS_BY_COMPANY_TYPE[type]]));

const line = (name: string, maxLength: number, description: string, page: Partial<FieldDefinition> = {}) =>
  ({
    name,
    type: 'text',
    label: name,
    description,
    required: false,
    maxLength,
    onPage: false,
    ...page,
  }) satisfies FieldDefinition;

export const REQUEST_DEMO: FormDefinition = {
  id: 'requestDemo',
  key: 'demo',
  path: SUBMISSION_PATHS.lead,
  action: '/forms/demo-request',
  schemaName: 'Lead',
  delivery: 'leads',
  fields: [
    line('name', 200, 'Full contact name. Required unless both firstName and lastName are supplied.', {
      label: 'Name',
    }),
    // The contract accepts `name` or `firstName` + `lastName`; the form asks for the pair.
    line('firstName', 100, 'Supply together with lastName when name is omitted.', {
      label: 'First name',
      onPage: true,
      requiredOnPage: true,
      autocomplete: 'given-name',
    }),
    line('lastName', 100, 'Supply together with firstName when name is omitted.', {
      label: 'Last name',
      onPage: true,
      requiredOnPage: true,
      autocomplete: 'family-name',
    }),
    {
      name: 'email',
      type: 'email',
      label: 'Work email',
      reportLabel: 'E-mail',
      description: 'Work email for the reply.',
      required: true,
      maxLength: 200,
      onPage: true,
      autocomplete: 'email',
      wide: true,
    },
    line('company', 200, 'Company or organization name.', {
      label: 'Company',
      onPage: true,
      autocomplete: 'organization',
    }),
    line('role', 100, 'Job role or title.', {
      label: 'Job title',
      reportLabel: 'Role',
      onPage: true,
      autocomplete: 'organization-title',
    }),
    {
      name: 'message',
      type: 'textarea',
      label: 'What would you like to see?',
      shortName: 'Message',
      description: 'What the contact wants to evaluate or solve.',
      required: false,
      maxLength: 4000,
      onPage: true,
      wide: true,
    },
    line('teamSize', 50, 'Approximate team size.', {
      label: 'Team size',
      help: 'For example 10–50.',
      onPage: true,
    }),
    line('timeline', 100, 'Expected evaluation or buying timeline.', {
      label: 'Timeline',
      help: 'For example “this quarter”.',
      onPage: true,
    }),
    {
      name: 'companyType',
      type: 'select',
      label: 'Organization type',
      reportLabel: 'Company type',
      description: 'Audience category used to tailor the demo.',
      required: false,
      choices: companyTypeChoices(COMPANY_TYPES),
      onPage: true,
      wide: true,
    },
    {
      name: 'persona',
      type: 'select',
      label: 'Your area',
      reportLabel: 'Persona',
      help: 'The choices follow the organization type.',
      description:
        'Role slug; must belong to the supplied companyType (table in the operation description). ' +
        'Without a companyType any listed persona is accepted.',
      required: false,
      choices: personaChoices(LEAD_PERSONAS),
      dependsOn: { field: 'companyType', choices: personasOf(COMPANY_TYPES) },
      onPage: true,
      wide: true,
    },
    {
      name: 'sourcePage',
      type: 'path',
      label: 'Source page',
      description:
        'Same-site path where the request originated (starts with a slash). A second slash or a ' +
        'backslash after the first (`//host/x`, `/\\host`) is refused: browsers read those as another site.',
      required: false,
      maxLength: 300,
      prefix: '^/',
      // Browsers read `//host/x` and `/\\host` as another site: a path, not an address.
      sameSiteOnly: true,
      onPage: false,
    },
  ],
  requireOneOf: [['name'], ['firstName', 'lastName']],
  summary: 'Request a demo',
  singular: 'a demo request',
  plural: 'Demo requests',
  requestDescription:
    'A demo request. `name` is required unless both `firstName` and `lastName` are supplied; a value ' +
    'of only white space does not count as supplied.',
  operationDescription: 'Validates the contact data, stores it durably and sends it for follow-up.',
  successDescription: 'Demo request accepted for delivery.',
  example: {
    name: 'Dana Reyes',
    email: 'dana.reyes@sponsor.example',
    company: 'Example Therapeutics',
    companyType: 'sponsor',
    persona: 'medical-writing',
    message: 'We want to generate ICF drafts from structured protocols.',
    sourcePage: '/demo',
  },
  words: {
    heading: 'Request a demo',
    intro: 'Tell us a little about your team and we will arrange a demo around the way you work.',
    button: 'Request a demo',
    note: 'We use these details only to arrange and follow up on your demo.',
    thanksHeading: 'Thank you: your demo request has been received',
    thanksText: 'Our team will contact you at the e-mail address you gave to arrange a time.',
    emailTitle: 'New demo request',
  },
  translations: REQUEST_DEMO_TRANSLATIONS,
};

export const SUGGEST_DOCUMENT: FormDefinition = {
  id: 'suggestDocument',
  key: 'suggestion',
  path: SUBMISSION_PATHS.suggestion,
  action: '/forms/document-suggestion',
  schemaName: 'Suggestion',
  delivery: 'suggestions',
  fields: [
    {
      name: 'companyType',
      type: 'select',
      label: 'Organization type',
      reportLabel: 'Company type',
      description: 'Audience category eligible to suggest.',
      required: true,
      choices: companyTypeChoices(SUGGESTION_COMPANY_TYPES),
      onPage: true,
      wide: true,
    },
    {
      name: 'persona',
      type: 'select',
      label: 'Your area',
      reportLabel: 'Persona',
      help: 'The choices follow the organization type.',
      description: 'Role slug belonging to the supplied companyType (table in the operation description).',
      required: true,
      choices: personaChoices(SUGGESTION_PERSONAS),
      dependsOn: { field: 'companyType', choices: personasOf(SUGGESTION_COMPANY_TYPES) },
      onPage: true,
      wide: true,
    },
    {
      name: 'suggestion',
      type: 'textarea',
      label: 'Which document would you like generated from the protocol?',
      shortName: 'Document type',
      reportLabel: 'Suggestion',
      help: 'Describe the protocol-derived document or workflow output you need.',
      description:
        'The protocol-derived document or workflow output requested (2 to 1000 characters, with at least one letter or digit).',
      required: true,
      minLength: 2,
      maxLength: 1000,
      onPage: true,
      wide: true,
    },
    {
      name: 'email',
      type: 'email',
      label: 'Work email',
      reportLabel: 'E-mail',
      help: 'If you would like us to follow up.',
      description: 'Work email for follow-up.',
      required: false,
      maxLength: 200,
      onPage: true,
      autocomplete: 'email',
      wide: true,
    },
    {
      name: 'sourcePage',
      type: 'path',
      label: 'Source page',
      description: 'Solution page where the suggestion originated.',
      required: false,
      maxLength: 300,
      prefix: '^/solutions/',
      onPage: false,
    },
  ],
  summary: 'Suggest a protocol-derived document type',
  singular: 'a document suggestion',
  plural: 'Document suggestions',
  requestDescription: 'A document suggestion from a CRO or a research site.',
  operationDescription: 'Stores the suggestion durably and submits it for product review.',
  successDescription: 'Suggestion accepted for review.',
  example: {
    companyType: 'cro',
    persona: 'study-start-up',
    suggestion: 'A site activation checklist generated from the protocol.',
    sourcePage: '/solutions/cros',
  },
  words: {
    heading: 'Suggest a document',
    intro: 'Missing a document you derive from the protocol? Tell our product team which one would help.',
    button: 'Send suggestion',
    note: 'Your suggestion goes to our product team for review.',
    thanksHeading: 'Thank you: your suggestion has been received',
    thanksText: 'Our product team reviews every suggestion when planning new document types.',
    emailTitle: 'New document suggestion',
  },
  translations: SUGGEST_DOCUMENT_TRANSLATIONS,
};

/** The forms of a site whose configuration declares none: the seed's. */
export const DEFAULT_FORMS: readonly FormDefinition[] = [REQUEST_DEMO, SUGGEST_DOCUMENT];
