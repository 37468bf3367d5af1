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
