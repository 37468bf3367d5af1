import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeProblemForVisitor, formCatalog, visitorPhrase } from '../../src/site/forms.js';
import { MESSAGE_LANGUAGES, messagesFor } from '../../src/language/index.js';
import { DEFAULT_FORMS } from '../../src/contract/index.js';
import { contentFolder } from '../support/files.js';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../support/servers.js';

let site: TestApp;

beforeAll(async () => {
  site = await buildTestApp({
    CONTENT_DIR: contentFolder({
      '_site.yaml': 'name: Example\nlanguage: en\n',
      'contact.md': '---\nform: demo\n---\n# Contact\n\nTalk to us.\n',
      'de/kontakt.md': '---\nform: demo\n---\n# Kontakt\n\nSprechen Sie mit uns.\n',
    }),
  });
});

afterAll(async () => {
  await site?.close();
});

const postDemo = (sourcePage: string) =>
  site.app.inject({
    method: 'POST',
    url: '/forms/demo-request',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: TEST_BASE_URL,
      accept: 'text/html',
    },
    payload: new URLSearchParams({ sourcePage, email: 'not-an-address' }).toString(),
  });

describe('a form’s error sentences in the page’s language', () => {
  it('shows a German page’s no-JS post errors in German, the field named in a sentence of its own', async () => {
    const response = await postDemo('/de/kontakt');
    expect(response.statusCode).toBe(400);
    const body = response.body;
    expect(body).toContain('<html lang="de">');
    expect(body).toContain('<h3>Bitte prüfen Sie das Formular</h3>');
    expect(body).toContain('Geben Sie Ihren Vor- und Nachnamen ein.');
    expect(body).toMatch(/>[^<>]+: geben Sie eine E-Mail-Adresse wie name@firma\.de ein\.</);
    expect(body).not.toContain('Please check the form');
    expect(body).not.toContain('enter an e-mail address such as');
  });

  it('keeps the English page’s sentences in English', async () => {
    const response = await postDemo('/contact');
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('<h3>Please check the form</h3>');
    expect(response.body).toContain('Enter your first and last name.');
    expect(response.body).toMatch(/>[^<>]+: enter an e-mail address such as name@company\.com\.</);
  });

  it('renders a German page’s form with the German words the script shows for its own checks', async () => {
    const response = await site.app.inject({
      method: 'GET',
      url: '/de/kontakt',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('data-enhance-form="demo"');
    expect(response.body).toContain('bitte ausfüllen');
  });

  it('leaves the JSON API’s error envelope in English for agents', async () => {
    const response = await site.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { 'content-type': 'application/json', 'accept-language': 'de' },
      payload: { email: 'not-an-address', sourcePage: '/de/kontakt' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain('is not a valid e-mail address');
  });
});

describe('visitor sentences from the catalogue', () => {
  const demo = formCatalog(DEFAULT_FORMS).get('demo')!;

  it('says each validator message in every language, with its numbers filled in', () => {
    for (const code of MESSAGE_LANGUAGES) {
      const words = messagesFor(code);
      expect(visitorPhrase('is shorter than 2 characters', words), code).toContain('2');
      expect(visitorPhrase('is shorter than 2 characters', words), code).not.toMatch(/[{}]/);
      expect(visitorPhrase('is longer than 200 characters', words), code).toContain('200');
      expect(visitorPhrase('is required', words), code).toBe(words.fieldRequired);
      expect(visitorPhrase('is not a valid e-mail address', words), code).toBe(words.fieldNotEmail);
      const sentence = describeProblemForVisitor(
        demo,
        { field: 'email', message: 'is required', fix: 'Send email.' },
        {},
        words,
      );
      expect(sentence, code).toContain(words.fieldRequired);
      expect(sentence, code).not.toMatch(/[{}]/);
    }
    expect(visitorPhrase('is shorter than 2 characters', messagesFor('ja'))).toBe(
      '2 文字以上で入力してください',
    );
  });

  it('explains the persona rule in the page’s language, and falls back to English for a language without a catalogue', () => {
    const problem = {
      field: 'persona',
      message: '"x" is not a persona of companyType "cro"',
      fix: 'Choose a persona of the company type.',
    };
    const german = describeProblemForVisitor(demo, problem, { companyType: 'cro' }, messagesFor('de'));
    expect(german).toMatch(
      /^Wählen Sie einen Bereich unter „[^“]+“ oder ändern Sie die Art der Organisation\.$/,
    );
    const korean = describeProblemForVisitor(demo, problem, {}, messagesFor('ko'));
    expect(korean).toBe('Choose an area that belongs to your organization type.');
  });
});
