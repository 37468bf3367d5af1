import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFolder } from '../support/files.js';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../support/servers.js';

/** A configured form written in English with a German translation, on a site in both languages. */
const SITE_YAML = `name: Northwind Statistics
language: en
forms:
  - id: requestQuote
    title: Request a quote
    intro: Tell us about your study.
    fields:
      - name: email
        type: email
        label: Work email
        required: true
      - name: service
        type: select
        label: Service
        required: true
        choices:
          - value: sample-size
            label: Sample size calculation
          - value: interim-analysis
            label: Interim analysis
      - name: details
        type: textarea
        label: What should we know?
        help: Phase, endpoints, timelines.
    translations:
      de:
        title: Angebot anfordern
        intro: Erzählen Sie uns von Ihrer Studie.
        fields:
          email:
            label: Geschäftliche E-Mail
          service:
            label: Leistung
            choices:
              sample-size: Fallzahlberechnung
              interim-analysis: Zwischenanalyse
          details:
            label: Was sollten wir wissen?
            help: Phase, Endpunkte, Zeitplan.
`;

let site: TestApp;

beforeAll(async () => {
  site = await buildTestApp({
    CONTENT_DIR: contentFolder({
      '_site.yaml': SITE_YAML,
      'index.md': '# Northwind Statistics\n\nBiostatistics for clinical trials.\n',
      'quote.md': '---\nform: quote\n---\n# Quote\n\nAsk us for a quote.\n',
      'de/index.md': '# Northwind Statistics\n\nBiostatistik für klinische Studien.\n',
      'de/quote.md': '---\nform: quote\n---\n# Angebot\n\nFragen Sie ein Angebot an.\n',
      'fr/quote.md': '---\nform: quote\n---\n# Devis\n\nDemandez un devis.\n',
    }),
  });
});

afterAll(async () => {
  await site?.close();
});

const page = async (url: string) => {
  const response = await site.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
  expect(response.statusCode, url).toBe(200);
  return response.body;
};

describe('a configured form in the page’s language (translations: in _site.yaml)', () => {
  it('shows a German page the German words, labels, help and choices, and Frontdoor’s own words in German', async () => {
    const html = await page('/de/quote');
    for (const words of [
      '>Angebot anfordern</h2>',
      'Erzählen Sie uns von Ihrer Studie.',
      '>Geschäftliche E-Mail</label>',
      '>Leistung</label>',
      '>Fallzahlberechnung</option>',
      '>Zwischenanalyse</option>',
      'Was sollten wir wissen? <span class="optional">(optional)</span>',
      'Phase, Endpunkte, Zeitplan.',
      '<option value="">Bitte wählen…</option>',
      '>Dieses Feld leer lassen</label>',
      // The button is the title (the form gave none), so the translation's is its title.
      '>Angebot anfordern</button>',
      // The confirmation the script shows: Frontdoor's own default, in German.
      'Vielen Dank: Ihre Angaben sind eingegangen',
    ])
      expect(html).toContain(words);
    for (const english of [
      'Work email',
      'Sample size calculation',
      'Choose…',
      'Leave this field empty',
      'Thank you',
    ])
      expect(html).not.toContain(english);
    // The values sent are the form's own, whatever the page's language.
    expect(html).toContain('<option value="sample-size">Fallzahlberechnung</option>');
  });

  it('names the header button by the translated title on German pages, and as written on English ones', async () => {
    expect(await page('/de/')).toMatch(
      /class="button button-primary header-cta" href="\/de\/quote"[^>]*>Angebot anfordern</,
    );
    expect(await page('/')).toMatch(
      /class="button button-primary header-cta" href="\/quote"[^>]*>Request a quote</,
    );
  });

  it('keeps the form as written on a page in a language it has no translation for', async () => {
    const html = await page('/fr/quote');
    expect(html).toContain('>Work email</label>');
    expect(html).toContain('>Sample size calculation</option>');
    // Frontdoor's own words follow the page: French.
    expect(html).toContain('<option value="">Choisir…</option>');
  });

  it('names the field by its German label in a German page’s error sentences', async () => {
    const response = await site.app.inject({
      method: 'POST',
      url: '/forms/quote',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: TEST_BASE_URL,
        accept: 'text/html',
      },
      payload: new URLSearchParams({
        sourcePage: '/de/quote',
        email: 'kein-name',
        service: 'sample-size',
      }).toString(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(
      'Geschäftliche E-Mail: geben Sie eine E-Mail-Adresse wie name@firma.de ein.',
    );
    expect(response.body).toContain('<option value="sample-size" selected>Fallzahlberechnung</option>');
  });

  it('confirms a German page’s submission in German, linking back to it', async () => {
    const response = await site.app.inject({
      method: 'GET',
      url: '/forms/quote/sent?from=%2Fde%2Fquote',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<html lang="de">');
    expect(response.body).toContain('<h1>Vielen Dank: Ihre Angaben sind eingegangen</h1>');
    expect(response.body).toContain('>Zurück zu Angebot</a>');
  });

  it('serves the embed’s form in its host page’s language', async () => {
    const response = await site.app.inject({
      method: 'GET',
      url: '/embed/forms/quote?page=%2Fpricing&lang=de-CH',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('>Leistung</label>');
    expect(response.body).toContain('<option value="">Bitte wählen…</option>');
  });

  it('keeps /openapi.json in the form’s own words', async () => {
    const response = await site.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.body).toContain('Request a quote');
    expect(response.body).not.toContain('Angebot');
    expect(response.body).not.toContain('Leistung');
  });
});
