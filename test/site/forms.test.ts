import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HONEYPOT_FIELD,
  COMPANY_TYPE_LABELS,
  LeadRequestSchema,
  PERSONA_LABELS,
  PERSONAS_BY_COMPANY_TYPE,
  SOLUTION_PAGE_BY_COMPANY_TYPE,
  SUGGESTION_COMPANY_TYPES,
  SuggestionRequestSchema,
  type CompanyType,
} from '../../src/contract/index.js';
import { escapeHtml } from '../../src/text/index.js';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../support/servers.js';

let site: TestApp;

beforeAll(async () => {
  site = await buildTestApp();
});

afterAll(async () => {
  await site?.close();
});

const html = async (url: string) => {
  const response = await site.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
  expect(response.statusCode, url).toBe(200);
  return response.body;
};

const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  site.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: TEST_BASE_URL,
      accept: 'text/html',
      ...headers,
    },
    payload: new URLSearchParams(fields).toString(),
  });

/** The opening tag of the control named `name` inside the given form HTML. */
function control(formHtml: string, name: string): string {
  const match = new RegExp(`<(?:input|textarea|select)[^>]*\\bname="${name}"[^>]*>`).exec(formHtml);
  if (!match) throw new Error(`no control named ${name}`);
  return match[0];
}

function formOf(page: string, kind: 'demo' | 'suggestion'): string {
  const match = new RegExp(`<form [^>]*data-enhance-form="${kind}"[\\s\\S]*?</form>`).exec(page);
  if (!match) throw new Error(`no ${kind} form`);
  return match[0];
}

/** Persona groups of a persona select: company type → persona values, in order. */
function personaGroups(formHtml: string): Record<string, string[]> {
  const select = /<select[^>]*name="persona"[\s\S]*?<\/select>/.exec(formHtml)![0];
  const groups: Record<string, string[]> = {};
  for (const group of select.matchAll(
    /<optgroup label="([^"]*)" data-company-type="([^"]+)">([\s\S]*?)<\/optgroup>/g,
  )) {
    groups[group[2]!] = [...group[3]!.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]!);
    expect(group[1]).toBe(escapeHtml(COMPANY_TYPE_LABELS[group[2] as CompanyType]));
  }
  return groups;
}

describe('the demo request form', () => {
  it('is on the page whose front matter says form: demo, posting to the no-JS route', async () => {
    const demoPage = site.context.site.pages.find((page) => page.form === 'demo')!;
    const form = formOf(await html(demoPage.url), 'demo');
    expect(form).toMatch(/method="post" action="\/forms\/demo-request#demo-form"/);
    expect(form).toContain('data-endpoint="/api/leads"');
    expect(form).toContain(`<input type="hidden" name="sourcePage" value="${demoPage.url}">`);
  });

  it('takes its bounds and required fields from the contract schema', async () => {
    const form = formOf(await html('/demo'), 'demo');
    const properties = LeadRequestSchema.properties as Record<string, { maxLength?: number }>;
    for (const name of [
      'firstName',
      'lastName',
      'email',
      'company',
      'role',
      'teamSize',
      'timeline',
      'message',
    ]) {
      expect(control(form, name), name).toContain(`maxlength="${properties[name]!.maxLength}"`);
    }
    expect(control(form, 'email')).toMatch(/type="email"[^>]*required/);
    // The either-or name rule: the form asks for both first and last name.
    expect(control(form, 'firstName')).toContain(' required');
    expect(control(form, 'lastName')).toContain(' required');
    expect(control(form, 'company')).not.toContain(' required');
    // Every field the form sends is one the contract knows, apart from the honeypot, which the
    // enhanced form moves to a header and the HTML route removes before validation.
    const names = [...form.matchAll(/\bname="([^"]+)"/g)].map((m) => m[1]!);
    expect(names).toContain(HONEYPOT_FIELD);
    for (const name of names.filter((name) => name !== HONEYPOT_FIELD))
      expect(Object.keys(LeadRequestSchema.properties)).toContain(name);
    // The honeypot is off screen, out of the tab order and hidden from assistive technology.
    const trap = /<div class="form-trap" aria-hidden="true">[\s\S]*?<\/div>/.exec(form)![0];
    expect(control(trap, HONEYPOT_FIELD)).toMatch(/tabindex="-1"[^>]*autocomplete="off"/);
  });

  it('offers every company type and exactly the personas the contract gives each', async () => {
    const form = formOf(await html('/demo'), 'demo');
    const companyTypes = [
      .../<select[^>]*name="companyType"[\s\S]*?<\/select>/
        .exec(form)![0]
        .matchAll(/<option value="([^"]+)"/g),
    ].map((m) => m[1]);
    expect(companyTypes).toEqual(Object.keys(PERSONAS_BY_COMPANY_TYPE));
    expect(personaGroups(form)).toEqual(PERSONAS_BY_COMPANY_TYPE);
    expect(form).toContain(`>${escapeHtml(PERSONA_LABELS['site-director-owner'])}</option>`);
  });

  it('re-renders the form with the problems next to their fields and the values kept', async () => {
    const response = await post('/forms/demo-request', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example',
      company: 'Analytical <Engines> "Ltd"',
      companyType: 'sponsor',
      persona: 'site-director-owner',
      sourcePage: '/demo',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const form = formOf(response.body, 'demo');
    expect(control(form, 'email')).toContain('aria-invalid="true"');
    expect(control(form, 'email')).toContain('value="ada@example"');
    expect(form).toContain(
      '<p class="field-error" id="demo-email-error" data-error-for="email">Work email: enter an e-mail address such as name@company.com.</p>',
    );
    expect(control(form, 'persona')).toContain('aria-invalid="true"');
    expect(form).toMatch(
      /data-error-for="persona">Choose an area listed under “Sponsor[^<]*”, or change the organization type\.</,
    );
    expect(control(form, 'company')).toContain('value="Analytical &lt;Engines&gt; &quot;Ltd&quot;"');
    expect(control(form, 'company')).not.toContain('aria-invalid');
    expect(form).toMatch(/<option value="sponsor" selected>/);
    // The error summary links to the fields.
    expect(form).toContain(
      '<a href="#demo-email">Work email: enter an e-mail address such as name@company.com.</a>',
    );
    expect(await site.context.submissions.store.list({ limit: 10, kind: 'lead' })).toEqual([]);
  });

  it('shows the either-or name rule at the first name', async () => {
    const response = await post('/forms/demo-request', { firstName: 'Ada', email: 'ada@example.com' });
    expect(response.statusCode).toBe(400);
    const form = formOf(response.body, 'demo');
    expect(form).toContain('data-error-for="firstName">Enter your first and last name.</p>');
    expect(control(form, 'lastName')).toContain('aria-invalid="true"');
  });

  it('stores a valid request and redirects to the confirmation (POST-redirect-GET)', async () => {
    const response = await post('/forms/demo-request', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.example.com',
      companyType: 'cro',
      persona: 'regulatory-affairs',
      message: 'Show me amendments.',
      sourcePage: '/demo',
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/forms/demo-request/sent?from=%2Fdemo');
    const [stored] = await site.context.submissions.store.list({ limit: 10, kind: 'lead' });
    expect(stored?.fields).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.example.com',
      companyType: 'cro',
      persona: 'regulatory-affairs',
      message: 'Show me amendments.',
      sourcePage: '/demo',
    });
    const confirmation = await html(response.headers.location as string);
    expect(confirmation).toContain('Thank you: your demo request has been received');
    expect(confirmation).toContain('<meta name="robots" content="noindex">');
    expect(confirmation).toMatch(/<a href="\/demo">Back to /);
  });

  it('refuses a post from another site', async () => {
    const response = await post(
      '/forms/demo-request',
      { firstName: 'Eve', lastName: 'Mallory', email: 'eve@evil.example.com' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(await site.context.submissions.store.list({ limit: 10, kind: 'lead' })).toHaveLength(1);
  });

  it('answers a body that is not a form with an HTML error page', async () => {
    const response = await site.app.inject({
      method: 'POST',
      url: '/forms/demo-request',
      headers: { 'content-type': 'text/plain', origin: TEST_BASE_URL },
      payload: 'hello',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('sends a GET on the form address to the page with the form', async () => {
    const response = await site.app.inject({ method: 'GET', url: '/forms/demo-request' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/demo#demo-form');
  });
});

describe('the document suggestion form', () => {
  it('is on the CRO and research-site pages with their company type preselected', async () => {
    for (const companyType of SUGGESTION_COMPANY_TYPES) {
      const path = SOLUTION_PAGE_BY_COMPANY_TYPE[companyType];
      expect(site.context.site.byUrl.get(path)?.form).toBe('suggestion');
      const form = formOf(await html(path), 'suggestion');
      const options = [
        .../<select[^>]*name="companyType"[\s\S]*?<\/select>/
          .exec(form)![0]
          .matchAll(/<option value="([^"]*)"( selected)?>/g),
      ];
      expect(options.map((m) => m[1]).filter((value) => value !== '')).toEqual([...SUGGESTION_COMPANY_TYPES]);
      expect(options.filter((m) => m[2]).map((m) => m[1])).toEqual([companyType]);
      expect(personaGroups(form)).toEqual(
        Object.fromEntries(
          SUGGESTION_COMPANY_TYPES.map((type) => [type, [...PERSONAS_BY_COMPANY_TYPE[type]]]),
        ),
      );
      expect(form).toContain(`<input type="hidden" name="sourcePage" value="${path}">`);
      expect(form).toMatch(/action="\/forms\/document-suggestion#suggestion-form"/);
      expect(form).toContain('data-endpoint="/api/document-suggestions"');
      const properties = SuggestionRequestSchema.properties as Record<
        string,
        { maxLength?: number; minLength?: number }
      >;
      expect(control(form, 'suggestion')).toContain(`maxlength="${properties.suggestion!.maxLength}"`);
      expect(control(form, 'suggestion')).toContain(`minlength="${properties.suggestion!.minLength}"`);
      expect(control(form, 'suggestion')).toContain(' required');
      expect(control(form, 'email')).toContain(`maxlength="${properties.email!.maxLength}"`);
      expect(control(form, 'email')).not.toContain(' required');
    }
  });

  it('re-renders the page it came from with the problems, then accepts the corrected suggestion', async () => {
    const invalid = await post('/forms/document-suggestion', {
      companyType: 'research-site',
      persona: 'study-start-up',
      suggestion: 'x',
      sourcePage: '/solutions/research-sites',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain(
      '<link rel="canonical" href="https://www.example.test/solutions/research-sites">',
    );
    const form = formOf(invalid.body, 'suggestion');
    expect(control(form, 'suggestion')).toContain('aria-invalid="true"');
    expect(form).toContain('data-error-for="suggestion">Document type: must be at least 2 characters.</p>');
    expect(control(form, 'persona')).toContain('aria-invalid="true"');

    const valid = await post('/forms/document-suggestion', {
      companyType: 'research-site',
      persona: 'principal-investigator',
      suggestion: 'A visit-by-visit pharmacy manual',
      sourcePage: '/solutions/research-sites',
    });
    expect(valid.statusCode).toBe(303);
    expect(valid.headers.location).toMatch(/^\/forms\/document-suggestion\/sent\?/);
    const [stored] = await site.context.submissions.store.list({ limit: 10, kind: 'suggestion' });
    expect(stored?.fields).toMatchObject({
      persona: 'principal-investigator',
      sourcePage: '/solutions/research-sites',
    });
    expect(await html(valid.headers.location as string)).toContain(
      'Thank you: your suggestion has been received',
    );
  });
});
