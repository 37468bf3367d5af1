import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeProblemForVisitor, formCatalog, visitorPhrase } from '../../src/site/forms.js';
import { MESSAGE_LANGUAGES, messagesFor } from '../../src/language/index.js';
import {
  DEFAULT_FORMS,
  REQUEST_DEMO,
  SUGGEST_DOCUMENT,
  type FormDefinition,
} from '../../src/contract/index.js';
import { escapeHtml } from '../../src/text/index.js';
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

/** The demo request form posted without JavaScript, as a browser on this site sends it. */
const postDemoForm = (app: TestApp, fields: Record<string, string>) =>
  app.app.inject({
    method: 'POST',
    url: '/forms/demo-request',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: TEST_BASE_URL,
      accept: 'text/html',
    },
    payload: new URLSearchParams(fields).toString(),
  });

const postDemo = (sourcePage: string) => postDemoForm(site, { sourcePage, email: 'not-an-address' });

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

/** What a page shows of a seed form: the labels, help and choices a visitor reads. */
function shownWords(form: FormDefinition, lang: string): string[] {
  const translation = form.translations![lang]!;
  const words: string[] = [translation.words!.heading!, translation.words!.button!];
  for (const field of form.fields.filter((candidate) => candidate.onPage)) {
    const translated = translation.fields![field.name]!;
    words.push(translated.label!);
    if (field.help !== undefined) words.push(translated.help!);
    for (const choice of field.choices ?? []) words.push(translated.choices![choice.value]!);
  }
  return words;
}

function englishWords(form: FormDefinition): string[] {
  return form.fields
    .filter((field) => field.onPage)
    .flatMap((field) => [
      field.label,
      ...(field.help ? [field.help] : []),
      ...(field.choices ?? []).map((c) => c.label),
    ]);
}

describe('the seed forms in every catalogue language', () => {
  let multilingual: TestApp;
  const languages = MESSAGE_LANGUAGES.filter((code) => code !== 'en');

  beforeAll(async () => {
    const files: Record<string, string> = {
      '_site.yaml': 'name: Example\nlanguage: en\n',
      'contact.md': '---\nform: demo\n---\n# Contact\n\nTalk to us.\n',
      'ideas.md': '---\nform: suggestion\n---\n# Ideas\n\nTell us.\n',
    };
    for (const code of languages) {
      files[`${code}/contact.md`] = `---\nform: demo\n---\n# Contact ${code}\n\nText.\n`;
      files[`${code}/ideas.md`] = `---\nform: suggestion\n---\n# Ideas ${code}\n\nText.\n`;
    }
    multilingual = await buildTestApp({ CONTENT_DIR: contentFolder(files) });
  });

  afterAll(async () => {
    await multilingual?.close();
  });

  const html = async (url: string) => {
    const response = await multilingual.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(response.statusCode, url).toBe(200);
    return response.body;
  };

  it('shows each form’s heading, labels, help and every choice in the page’s language, and none in English', async () => {
    for (const code of languages)
      for (const [form, page] of [
        [REQUEST_DEMO, 'contact'],
        [SUGGEST_DOCUMENT, 'ideas'],
      ] as const) {
        const body = await html(`/${code}/${page}`);
        for (const words of shownWords(form, code))
          expect(body, `${code} ${form.id}`).toContain(escapeHtml(words));
        // German writes "(optional)" as English does; every other word differs.
        const chrome = ['Choose…', 'Leave this field empty', '(optional)'].filter(
          (english) => english !== messagesFor(code).optionalField,
        );
        for (const english of [...englishWords(form), ...chrome])
          expect(body, `${code} ${form.id}: ${english}`).not.toContain(`>${escapeHtml(english)}<`);
        expect(body).toContain(escapeHtml(messagesFor(code).chooseOne));
      }
  });

  it('keeps the English pages’ forms in English', async () => {
    const body = await html('/contact');
    for (const words of englishWords(REQUEST_DEMO)) expect(body).toContain(escapeHtml(words));
  });

  it('names the field and the organization type by their German words in a German page’s errors', async () => {
    const response = await postDemoForm(multilingual, {
      sourcePage: '/de/contact',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'kein-name',
      companyType: 'cro',
      persona: 'principal-investigator',
    });
    expect(response.statusCode).toBe(400);
    const german = REQUEST_DEMO.translations!.de!.fields!;
    expect(response.body).toContain(
      escapeHtml(`${german.email!.label!}: geben Sie eine E-Mail-Adresse wie name@firma.de ein.`),
    );
    expect(response.body).toContain(
      escapeHtml(`Wählen Sie einen Bereich unter „${german.companyType!.choices!.cro!}“`),
    );
  });

  it('confirms in the language of the page the form was sent from', async () => {
    const cases: [string, string][] = [
      ['ja', REQUEST_DEMO.translations!.ja!.pages!.confirmationTitle!],
      ['en', 'Demo request received'],
    ];
    for (const [code, title] of cases) {
      const from = code === 'en' ? '/contact' : `/${code}/contact`;
      const body = await html(`/forms/demo-request/sent?from=${encodeURIComponent(from)}`);
      expect(body).toContain(`<html lang="${code}">`);
      expect(body).toContain(`<title>${escapeHtml(title)} | Example</title>`);
    }
  });
});

describe('the built-in demo page of a site written in German', () => {
  it('speaks the site’s language', async () => {
    const german = await buildTestApp({
      CONTENT_DIR: contentFolder({
        '_site.yaml': 'name: Beispiel GmbH\nlanguage: de\n',
        'index.md': '# Beispiel GmbH\n\nSoftware für klinische Studien.\n',
      }),
    });
    try {
      const response = await german.app.inject({
        method: 'GET',
        url: '/demo',
        headers: { accept: 'text/html' },
      });
      expect(response.statusCode).toBe(200);
      const pages = REQUEST_DEMO.translations!.de!.pages!;
      expect(response.body).toContain(`<title>${escapeHtml(pages.pageTitle!)} | Beispiel GmbH</title>`);
      expect(response.body).toContain(escapeHtml(pages.pageLead!));
      expect(response.body).toContain(escapeHtml(REQUEST_DEMO.translations!.de!.fields!.firstName!.label!));
      expect(response.body).not.toContain('Work email');
    } finally {
      await german.close();
    }
  });
});

describe('a refused post told in the page’s language', () => {
  it('says too many forms were sent in German on a German page', async () => {
    const limited = await buildTestApp({
      RATE_LIMIT_LEADS: '1/600',
      FORM_MIN_FILL_MS: '0',
      CONTENT_DIR: contentFolder({
        '_site.yaml': 'name: Example\nlanguage: en\n',
        'de/kontakt.md': '---\nform: demo\n---\n# Kontakt\n\nSprechen Sie mit uns.\n',
      }),
    });
    try {
      const post = () =>
        postDemoForm(limited, {
          sourcePage: '/de/kontakt',
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.org',
        });
      expect((await post()).statusCode).toBe(303);
      const refused = await post();
      expect(refused.statusCode).toBe(429);
      expect(refused.body).toContain('<html lang="de">');
      expect(refused.body).toMatch(
        /Zu viele Formulare von Ihrer Adresse: höchstens 1 alle 600 Sekunden werden angenommen\. Warten Sie \d+ Sekunden/,
      );
    } finally {
      await limited.close();
    }
  });
});

describe('the order of a form’s fields in a language that orders them otherwise', () => {
  it('asks for the family name first in Japanese and Chinese, the given name first elsewhere', async () => {
    const app = await buildTestApp({
      CONTENT_DIR: contentFolder({
        '_site.yaml': 'name: Example\nlanguage: en\n',
        'contact.md': '---\nform: demo\n---\n# Contact\n\nTalk to us.\n',
        'ja/contact.md': '---\nform: demo\n---\n# お問い合わせ\n\nご連絡ください。\n',
        'zh/contact.md': '---\nform: demo\n---\n# 联系我们\n\n请联系我们。\n',
        'de/contact.md': '---\nform: demo\n---\n# Kontakt\n\nSprechen Sie mit uns.\n',
      }),
    });
    try {
      const order = async (url: string) => {
        const body = (await app.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body;
        return [...body.matchAll(/<label for="demo-(\w+)"/g)].map((match) => match[1]).slice(0, 3);
      };
      expect(await order('/ja/contact')).toEqual(['lastName', 'firstName', 'email']);
      expect(await order('/zh/contact')).toEqual(['lastName', 'firstName', 'email']);
      expect(await order('/de/contact')).toEqual(['firstName', 'lastName', 'email']);
      expect(await order('/contact')).toEqual(['firstName', 'lastName', 'email']);
    } finally {
      await app.close();
    }
  });
});
