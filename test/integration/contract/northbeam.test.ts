import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFormsFile } from '../../../src/content/index.js';
import type { FormDefinition } from '../../../src/contract/index.js';
import { emailSubject, emailText, webhookPayload } from '../../../src/submissions/message.js';
import { PublishedContract, redoclyLint } from '../../support/openapi.js';
import { REPO_ROOT } from '../../support/files.js';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../../support/servers.js';

/** A second company's site: its own pages and one configured form, served by the same build. */
const NORTHBEAM = join(REPO_ROOT, 'test', 'fixtures', 'northbeam');

let served: TestApp;
let document: Record<string, unknown> & { paths: Record<string, Record<string, { operationId?: string }>> };
let quoteForm: FormDefinition;

const quote = {
  fullName: 'Morag Lindsay',
  email: 'morag.lindsay@tayside-bio.example',
  organisation: 'Tayside Bio',
  service: 'analysis-plan',
  studyPhase: 'device-pivotal',
  projectDetails: 'A pivotal study of a wound dressing, two arms, primary endpoint time to closure.',
  consent: 'yes',
};

beforeAll(async () => {
  served = await buildTestApp({ CONTENT_DIR: NORTHBEAM });
  const response = await served.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = response.json();
  quoteForm = readFormsFile(NORTHBEAM)[0]!;
}, 60_000);

afterAll(async () => {
  await served.close();
});

describe('Northbeam Biostat: a site whose forms come from its _site.yaml', () => {
  it('publishes its own form as the only submission operation, at the path the seed’s naming gives', () => {
    expect(quoteForm.id).toBe('requestQuote');
    expect(quoteForm.path).toBe('/api/quote-requests');
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(operations).toContain('requestQuote');
    expect(operations).not.toContain('requestDemo');
    expect(operations).not.toContain('suggestDocument');
    expect(document.paths['/api/quote-requests']?.post?.operationId).toBe('requestQuote');
    const text = JSON.stringify(document);
    expect(text).not.toContain('Suggest a protocol-derived document type');
    expect(text).toContain('Which studyPhase belongs to which service');
    const schemas = (document.components as { schemas: Record<string, { properties?: object }> }).schemas;
    expect(Object.keys(schemas.RequestQuoteRequest?.properties ?? {})).toEqual([
      'fullName',
      'email',
      'phone',
      'organisation',
      'service',
      'studyPhase',
      'projectDetails',
      'consent',
      'sourcePage',
    ]);
    expect(schemas.LeadRequest).toBeUndefined();
  });

  it('is a valid OpenAPI 3.1 document: the meta-schema and `redocly lint` without warnings', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    const scratch = mkdtempSync(join(tmpdir(), 'frontdoor-northbeam-'));
    try {
      const file = join(scratch, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const report = await redoclyLint(file, scratch);
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);

  it('stores a JSON submission and delivers it; the answer is what /openapi.json promises', async () => {
    const response = await served.app.inject({
      method: 'POST',
      url: '/api/quote-requests',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(quote),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, provider: 'log', delivered: true });
    new PublishedContract(document as never).expectResponse(
      'POST',
      '/api/quote-requests',
      200,
      response.headers['content-type'] as string,
      response.json(),
    );
    const [stored] = await served.context.submissions.store.list({ limit: 5 });
    expect(stored).toMatchObject({ kind: 'lead', form: 'requestQuote', fields: quote });
    expect(stored?.delivery?.state).toBe('delivered');
    // The e-mail and the webhook speak of the quote form, with its labels.
    expect(emailSubject(stored!, quoteForm)).toBe('Request a quote: Morag Lindsay');
    expect(emailText(stored!, quoteForm)).toContain('Study phase: device-pivotal');
    const payload = JSON.parse(webhookPayload(stored!, quoteForm)) as { type: string; data: object };
    expect(payload.type).toBe('quote.created');
    expect(payload.data).toMatchObject({ form: 'requestQuote', ...quote });
  });

  it('refuses a dependent choice that does not belong, and a missing consent, in the error envelope', async () => {
    const response = await served.app.inject({
      method: 'POST',
      url: '/api/quote-requests',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        ...quote,
        service: 'interim-analysis',
        studyPhase: 'pilot',
        consent: undefined,
      }),
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; message: string }>();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.message).toContain('studyPhase "pilot" is not a studyPhase of service "interim-analysis"');
    expect(body.message).toContain('consent is required');
  });

  it('serves the form on its contact page and takes a post without JavaScript', async () => {
    const page = await served.app.inject({ method: 'GET', url: '/contact' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('action="/forms/quote#quote-form"');
    expect(page.body).toContain('data-endpoint="/api/quote-requests"');
    expect(page.body).toContain(
      '<optgroup label="Statistical analysis plan" data-company-type="analysis-plan">',
    );
    expect(page.body).toContain('name="consent" type="checkbox" value="yes" required');
    expect(page.body).not.toContain('Request a demo</button>');

    const form = new URLSearchParams({
      ...quote,
      fullName: 'Ewan Baird',
      sourcePage: '/contact',
      website: '',
    });
    const posted = await served.app.inject({
      method: 'POST',
      url: '/forms/quote',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_BASE_URL },
      payload: form.toString(),
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe('/forms/quote/sent?from=%2Fcontact');
    const stored = await served.context.submissions.store.list({ limit: 5 });
    expect(stored.find((record) => record.fields.fullName === 'Ewan Baird')).toMatchObject({
      form: 'requestQuote',
      fields: { sourcePage: '/contact', consent: 'yes' },
    });
    const thanks = await served.app.inject({ method: 'GET', url: posted.headers.location as string });
    expect(thanks.body).toContain('A statistician will reply within two working days.');

    const invalid = await served.app.inject({
      method: 'POST',
      url: '/forms/quote',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_BASE_URL },
      payload: new URLSearchParams({
        email: 'no',
        projectDetails: 'short',
        service: 'interim-analysis',
        studyPhase: 'pilot',
        sourcePage: '/contact',
      }).toString(),
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('About the project: must be at least 20 characters.');
    // A phase of another service, in the words of the form rather than the contract's slugs.
    expect(invalid.body).toContain(
      'Study phase: choose one listed under “Interim analysis and DMC support”, or change “Service”.',
    );
  });

  it('has no demo request or document suggestion of the seed', async () => {
    for (const url of ['/api/leads', '/api/document-suggestions'])
      expect(
        (
          await served.app.inject({
            method: 'POST',
            url,
            headers: { 'content-type': 'application/json' },
            payload: '{}',
          })
        ).statusCode,
      ).toBe(404);
    expect((await served.app.inject({ method: 'GET', url: '/demo' })).statusCode).toBe(404);
  });

  it('names its operation in the agent documents', async () => {
    for (const url of ['/agents.md', '/api.md', '/.well-known/agent-skills/search-and-contact/SKILL.md']) {
      const response = await served.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('requestQuote');
      expect(response.body, url).not.toContain('requestDemo');
      expect(response.body, url).not.toContain('suggestDocument');
    }
    const skill = await served.app.inject({
      method: 'GET',
      url: '/.well-known/agent-skills/search-and-contact/SKILL.md',
    });
    expect(skill.body).toContain('request a quote for a statistics project through its POST operation');
    expect(skill.body).not.toContain('request a demo');
    const api = await served.app.inject({ method: 'GET', url: '/api.md' });
    expect(api.body).toContain('## Which studyPhase belongs to which service');
    expect(api.body).not.toContain('Which persona belongs to which companyType');
  });
});
