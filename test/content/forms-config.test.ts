import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormsConfigError, readFormsConfig } from '../../src/content/index.js';
import { DEFAULT_FORMS, requestSchemaOf } from '../../src/contract/index.js';
import { REPO_ROOT, tempDir } from '../support/files.js';
import { buildTestApp } from '../support/servers.js';

const NORTHBEAM_SITE = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'northbeam', '_site.yaml'), 'utf8');

/** A small valid configuration; each case below breaks one thing in it. */
const VALID = [
  'name: Example Ltd', //                       1
  'forms:', //                                  2
  '  - id: requestQuote', //                    3
  '    title: Request a quote', //              4
  '    fields:', //                             5
  '      - name: email', //                     6
  '        type: email', //                     7
  '        label: Work email', //               8
  '        required: true', //                  9
  '      - name: service', //                   10
  '        type: select', //                    11
  '        label: Service', //                  12
  '        choices: [sample-size, analysis-plan]', // 13
  '      - name: phase', //                     14
  '        type: select', //                    15
  '        label: Phase', //                    16
  '        dependsOn: service', //              17
  '        choices:', //                        18
  '          sample-size: [pilot, phase-2]', // 19
  '      - name: details', //                   20
  '        type: textarea', //                  21
  '        label: Details', //                  22
  '        minLength: 10', //                   23
  '        maxLength: 2000', //                 24
  '',
].join('\n');

function errorOf(text: string): FormsConfigError {
  try {
    readFormsConfig(text, '_site.yaml');
  } catch (error) {
    if (error instanceof FormsConfigError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

const replaceLine = (line: number, text: string) =>
  VALID.split('\n')
    .map((old, index) => (index === line - 1 ? text : old))
    .join('\n');

describe('forms: in _site.yaml', () => {
  it('without the key, the site has the seed’s two forms', () => {
    expect(readFormsConfig('name: Example Ltd\n', '_site.yaml')).toBe(DEFAULT_FORMS);
  });

  it('reads a valid configuration: path, key and sourcePage follow the seed’s patterns', () => {
    const [form] = readFormsConfig(VALID, '_site.yaml');
    expect(form).toMatchObject({
      id: 'requestQuote',
      key: 'quote',
      path: '/api/quote-requests',
      action: '/forms/quote',
    });
    expect(form!.fields.map((field) => field.name)).toEqual([
      'email',
      'service',
      'phase',
      'details',
      'sourcePage',
    ]);
    const schema = requestSchemaOf(form!) as { required?: string[]; allOf?: unknown[] };
    expect(schema.required).toEqual(['email']);
    expect(schema.allOf).toEqual([
      {
        if: { properties: { service: { const: 'sample-size' } }, required: ['service'] },
        then: { properties: { phase: { enum: ['pilot', 'phase-2'] } } },
      },
    ]);
  });

  it('reads the Northbeam fixture', () => {
    expect(readFormsConfig(NORTHBEAM_SITE, '_site.yaml').map((form) => form.id)).toEqual(['requestQuote']);
  });

  it('a mistake stops start-up, naming the file, the line and the fix', async () => {
    const content = tempDir('frontdoor-forms-');
    writeFileSync(join(content, '_site.yaml'), replaceLine(7, '        type: date'));
    writeFileSync(join(content, 'index.md'), '---\ntitle: Home\n---\n\nHello.\n');
    await expect(buildTestApp({ CONTENT_DIR: content })).rejects.toThrow(
      '_site.yaml:7: unknown field type "date". Fix: use one of: text, email, textarea, select, checkbox, tel, url',
    );
  });

  it.each([
    [
      'an unknown field type',
      replaceLine(7, '        type: date'),
      7,
      'unknown field type "date"',
      'use one of: text, email',
    ],
    [
      'a dependent choice naming an unknown field',
      replaceLine(17, '        dependsOn: serviec'),
      17,
      'dependsOn names "serviec", which is not another select field of requestQuote',
      'name one of: service',
    ],
    [
      'a dependent choice under a value its field does not have',
      replaceLine(19, '          sample-sise: [pilot]'),
      19,
      '"sample-sise" is not a choice of service',
      'use the choices of service: sample-size, analysis-plan',
    ],
    [
      'minLength greater than maxLength',
      replaceLine(23, '        minLength: 3000'),
      23,
      'minLength 3000 is greater than maxLength 2000',
      'lower minLength to at most 2000',
    ],
    [
      'a duplicate form id',
      `${VALID}${VALID.split('\n').slice(2).join('\n').replace('title: Request a quote', 'title: Again')}`,
      25,
      'two forms have the id "requestQuote"',
      'give each form its own id',
    ],
    [
      'a duplicate field name',
      replaceLine(20, '      - name: email'),
      20,
      'two fields of requestQuote are named "email"',
      'rename one of them',
    ],
    [
      'a field without a label',
      replaceLine(22, '        labl: Details'),
      22,
      'unknown key `labl` in a field',
      'use one of: name, type, label',
    ],
    [
      'a form without a title',
      replaceLine(4, '    titel: Request a quote'),
      4,
      'unknown key `titel` in a form',
      'use one of: id, key',
    ],
    [
      'an id that is not an operation name',
      replaceLine(3, '  - id: Request Quote'),
      3,
      'is not an operation name',
      'camelCase',
    ],
    [
      'choices on a text field',
      replaceLine(21, '        type: text\n        choices: [a]'),
      22,
      'a text field has no choices',
      'type: select',
    ],
    [
      'an unknown delivery',
      replaceLine(4, '    title: Request a quote\n    delivery: crm'),
      5,
      'unknown delivery "crm"',
      'delivery: leads',
    ],
    [
      'YAML that does not parse',
      replaceLine(12, '        label: Service: main'),
      12,
      'not valid YAML',
      'double quotes',
    ],
    [
      'the spam trap’s name',
      replaceLine(20, '      - name: website'),
      20,
      "is the forms' spam trap",
      'camelCase',
    ],
  ])('refuses %s with the file, the line and a fix', (_case, text, line, problem, fix) => {
    const error = errorOf(text);
    expect(error.file).toBe('_site.yaml');
    expect(error.problem).toContain(problem);
    expect(error.fix).toContain(fix);
    expect(error.line).toBe(line);
    expect(error.message).toBe(`_site.yaml:${line}: ${error.problem}. Fix: ${error.fix}`);
  });
});

describe('translations: a form’s words in other languages', () => {
  const TRANSLATED = `${VALID}    translations:
      de:
        title: Angebot anfordern
        intro: Sagen Sie uns, was Sie brauchen.
        fields:
          email:
            label: Geschäftliche E-Mail
            help: Wir antworten an diese Adresse.
          service:
            label: Leistung
            choices:
              sample-size: Fallzahlberechnung
      FR-ca:
        title: Demander un devis
        confirmation: Merci, nous vous répondrons sous 48 heures.
`;

  it('reads each language’s words, field labels, help and choice labels under its lower-case tag', () => {
    const [form] = readFormsConfig(TRANSLATED, '_site.yaml');
    expect(Object.keys(form!.translations!)).toEqual(['de', 'fr-ca']);
    expect(form!.translations!.de).toEqual({
      words: {
        heading: 'Angebot anfordern',
        intro: 'Sagen Sie uns, was Sie brauchen.',
        // The form's own button is its title: so is the translation's.
        button: 'Angebot anfordern',
        // The form left its confirmation to Frontdoor: the German catalogue's words.
        thanksText: 'Vielen Dank. Wir melden uns bald bei Ihnen.',
        thanksHeading: 'Vielen Dank: Ihre Angaben sind eingegangen',
      },
      fields: {
        email: { label: 'Geschäftliche E-Mail', help: 'Wir antworten an diese Adresse.' },
        service: { label: 'Leistung', choices: { 'sample-size': 'Fallzahlberechnung' } },
      },
    });
    expect(form!.translations!['fr-ca']!.words!.thanksText).toBe(
      'Merci, nous vous répondrons sous 48 heures.',
    );
    // What the contract says stays in the form's own words.
    const schema = JSON.stringify(requestSchemaOf(form!));
    expect(schema).not.toContain('Leistung');
    expect(schema).not.toContain('Geschäftliche');
  });

  it('takes a default confirmation from the site’s language when the form is written in it', () => {
    const [form] = readFormsConfig(`language: de\n${VALID.replace('name: Example Ltd\n', '')}`, '_site.yaml');
    expect(form!.words.thanksHeading).toBe('Vielen Dank: Ihre Angaben sind eingegangen');
    const [english] = readFormsConfig(VALID, '_site.yaml');
    expect(english!.words.thanksText).toBe('Thank you. We will reply to you soon.');
  });

  it('keeps the form’s own button and confirmation when it wrote them and the translation does not', () => {
    const text = TRANSLATED.replace(
      '    fields:\n      - name: email',
      '    button: Send\n    fields:\n      - name: email',
    );
    const [form] = readFormsConfig(text, '_site.yaml');
    expect(form!.translations!.de!.words!.button).toBeUndefined();
  });

  it.each([
    [
      'a tag that is not one',
      '      de:',
      '      not a tag!:',
      /"not a tag!" is not a language tag/,
      /BCP 47/,
    ],
    [
      'a field the form does not have',
      '          service:',
      '          budget:',
      /"budget" is not a field of this form/,
      /email, service, phase, details/,
    ],
    [
      'a choice the field does not have',
      '              sample-size: Fallzahlberechnung',
      '              pilot: Pilot',
      /"pilot" is not a choice of service/,
      /sample-size, analysis-plan/,
    ],
    [
      'an unknown key',
      '        intro: Sagen Sie uns, was Sie brauchen.',
      '        subtitle: Sagen Sie uns',
      /unknown key `subtitle` in a translation/,
      /title, intro, button/,
    ],
    [
      'an unknown field key',
      '            help: Wir antworten an diese Adresse.',
      '            placeholder: name@firma.de',
      /unknown key `placeholder` in a field translation/,
      /label, help, choices/,
    ],
    ['the same language twice', '      FR-ca:', '      DE:', /translated into de twice/, /keep one/],
  ])('refuses %s, naming the line and the fix', (_what, line, replacement, problem, fix) => {
    const lines = TRANSLATED.split('\n');
    const index = lines.indexOf(line);
    expect(index).toBeGreaterThan(0);
    lines[index] = replacement;
    const error = errorOf(lines.join('\n'));
    expect(error.problem).toMatch(problem);
    expect(error.fix).toMatch(fix);
    expect(error.line).toBe(index + 1);
  });

  it('refuses choices on a field that has none', () => {
    const text = TRANSLATED.replace(
      '            help: Wir antworten an diese Adresse.',
      '            choices:\n              a: b',
    );
    expect(errorOf(text).problem).toMatch(/email is a email field and has no choices/);
  });
});
