import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPANY_TYPES,
  LEAD_PERSONAS,
  PERSONAS_BY_COMPANY_TYPE,
  SOLUTION_PAGE_BY_COMPANY_TYPE,
  SUGGESTION_COMPANY_TYPES,
  SUGGESTION_PERSONAS,
} from '../../../src/contract/index.js';
import type { PublishedContract } from '../../support/openapi.js';
import {
  BODY_TYPES,
  expectContract,
  expectValidationError,
  post,
  uniqueEmail,
  type Answer,
} from '../../support/client.js';
import { startTestServer, type TestServer } from '../../support/servers.js';

const LEADS = '/api/leads';
const SUGGESTIONS = '/api/document-suggestions';

let server: TestServer;
let contract: PublishedContract;

beforeAll(async () => {
  server = await startTestServer();
  contract = await server.contract();
});
afterAll(() => server.close());

/** An e-mail address of exactly `length` characters (local part 64, labels of at most 63). */
function emailOfLength(length: number): string {
  const local = 'a'.repeat(64);
  const fixed = `${local}@${'b'.repeat(63)}.${'c'.repeat(63)}.`;
  return `${fixed}${'d'.repeat(length - fixed.length)}`;
}

const baseLead = () => ({ name: 'Dana Reyes', email: uniqueEmail() });
const baseSuggestion = () => ({
  companyType: 'cro',
  persona: 'study-start-up',
  suggestion: `A site activation checklist ${uniqueEmail()}`,
});

describe.each(BODY_TYPES)('rules of POST /api/leads as %s', (type) => {
  const send = async (body: Record<string, unknown>): Promise<Answer> => {
    const answer = await post(server.url, LEADS, type, body);
    expectContract(contract, LEADS, answer);
    return answer;
  };
  const expectAccepted = (answer: Answer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ ok: true, provider: 'log', delivered: true });
  };

  const bounded: [field: string, max: number, value: (length: number) => string][] = [
    ['name', 200, (n) => 'N'.repeat(n)],
    ['company', 200, (n) => 'C'.repeat(n)],
    ['role', 100, (n) => 'R'.repeat(n)],
    ['message', 4000, (n) => 'M'.repeat(n)],
    ['teamSize', 50, (n) => '5'.repeat(n)],
    ['timeline', 100, (n) => 'T'.repeat(n)],
    ['sourcePage', 300, (n) => `/${'p'.repeat(n - 1)}`],
  ];
  it.each(bounded)(
    '%s accepts its maximum of %i characters and refuses one more',
    async (field, max, value) => {
      expectAccepted(await send({ ...baseLead(), [field]: value(max) }));
      expectValidationError(await send({ ...baseLead(), [field]: value(max + 1) }), [field]);
    },
  );

  it.each([
    ['firstName', 100],
    ['lastName', 100],
  ])('%s accepts %i characters and refuses one more (without name)', async (field, max) => {
    const names = { firstName: 'Dana', lastName: 'Reyes' };
    expectAccepted(await send({ ...names, email: uniqueEmail(), [field]: 'x'.repeat(max) }));
    expectValidationError(await send({ ...names, email: uniqueEmail(), [field]: 'x'.repeat(max + 1) }), [
      field,
    ]);
  });

  it('email accepts 200 characters and refuses 201', async () => {
    expect(emailOfLength(200)).toHaveLength(200);
    expectAccepted(await send({ name: 'Dana', email: emailOfLength(200) }));
    expectValidationError(await send({ name: 'Dana', email: emailOfLength(201) }), ['email']);
  });

  it.each(['not-an-address', 'a@b', 'a@@b.co', 'a b@c.co', 'a@b.co, c@d.co', 'a@b.co\r\nBcc: x@y.co'])(
    'email refuses %j',
    async (email) => expectValidationError(await send({ name: 'Dana', email }), ['email']),
  );

  it('email is required', async () => {
    expectValidationError(await send({ name: 'Dana' }), ['email']);
  });

  it('sourcePage must start with a slash', async () => {
    expectAccepted(await send({ ...baseLead(), sourcePage: '/' }));
    expectValidationError(await send({ ...baseLead(), sourcePage: 'demo' }), ['sourcePage']);
    expectValidationError(await send({ ...baseLead(), sourcePage: 'https://evil.example/' }), ['sourcePage']);
  });

  describe('the name rule', () => {
    it('accepts name alone, first and last name together, or all three', async () => {
      expectAccepted(await send({ name: 'Dana Reyes', email: uniqueEmail() }));
      expectAccepted(await send({ firstName: 'Dana', lastName: 'Reyes', email: uniqueEmail() }));
      expectAccepted(
        await send({ name: 'Dana Reyes', firstName: 'Dana', lastName: 'Reyes', email: uniqueEmail() }),
      );
      expectAccepted(await send({ name: 'Dana Reyes', firstName: 'Dana', email: uniqueEmail() }));
    });
    it.each([
      ['no name at all', {}],
      ['only firstName', { firstName: 'Dana' }],
      ['only lastName', { lastName: 'Reyes' }],
      ['a name of only spaces', { name: '   ' }],
      ['first and last name of only spaces', { firstName: ' ', lastName: ' ' }],
    ])('refuses %s, naming name', async (_label, names) => {
      expectValidationError(await send({ ...names, email: uniqueEmail() }), ['name']);
    });
  });

  it.each(COMPANY_TYPES)('companyType %s is accepted', async (companyType) => {
    expectAccepted(await send({ ...baseLead(), companyType }));
  });
  it('an unknown companyType is refused', async () => {
    expectValidationError(await send({ ...baseLead(), companyType: 'hospital' }), ['companyType']);
  });

  it.each(LEAD_PERSONAS)('persona %s alone (no companyType) is accepted', async (persona) => {
    expectAccepted(await send({ ...baseLead(), persona }));
  });
  it('an unknown persona is refused', async () => {
    expectValidationError(await send({ ...baseLead(), persona: 'astronaut' }), ['persona']);
  });

  const pairs = COMPANY_TYPES.flatMap((companyType) =>
    LEAD_PERSONAS.map(
      (persona) =>
        [
          companyType,
          persona,
          (PERSONAS_BY_COMPANY_TYPE[companyType] as readonly string[]).includes(persona),
        ] as const,
    ),
  );
  it.each(pairs)('companyType %s with persona %s: accepted = %s', async (companyType, persona, belongs) => {
    const answer = await send({ ...baseLead(), companyType, persona });
    if (belongs) expectAccepted(answer);
    else {
      expectValidationError(answer, ['persona']);
      expect(String(answer.body.message)).toContain(`is not a persona of companyType "${companyType}"`);
    }
  });

  it('unknown fields are refused, naming each', async () => {
    expectValidationError(await send({ ...baseLead(), phone: '555', fax: '1' }), ['phone', 'fax']);
  });

  it('names every failing field in one answer', async () => {
    const answer = await send({ email: 'nope', sourcePage: 'x', teamSize: 't'.repeat(51) });
    expectValidationError(answer, ['name', 'email', 'sourcePage', 'teamSize']);
  });
});

describe.each(BODY_TYPES)('rules of POST /api/document-suggestions as %s', (type) => {
  const send = async (body: Record<string, unknown>): Promise<Answer> => {
    const answer = await post(server.url, SUGGESTIONS, type, body);
    expectContract(contract, SUGGESTIONS, answer);
    return answer;
  };
  const expectAccepted = (answer: Answer, sourcePage: string) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toEqual({ ok: true, provider: 'log', delivered: true, sourcePage });
  };

  it('suggestion accepts 2 and 1000 characters and refuses 1 and 1001', async () => {
    const base = { companyType: 'cro', persona: 'study-start-up' };
    expectAccepted(await send({ ...base, suggestion: 'ab' }), '/solutions/cros');
    expectAccepted(await send({ ...base, suggestion: 'x'.repeat(1000) }), '/solutions/cros');
    expectValidationError(await send({ ...base, suggestion: 'a' }), ['suggestion']);
    expectValidationError(await send({ ...base, suggestion: 'x'.repeat(1001) }), ['suggestion']);
    expectValidationError(await send({ ...base, suggestion: '    ' }), ['suggestion']);
  });

  it('email accepts 200 characters and refuses 201 and a malformed address', async () => {
    expectAccepted(await send({ ...baseSuggestion(), email: emailOfLength(200) }), '/solutions/cros');
    expectValidationError(await send({ ...baseSuggestion(), email: emailOfLength(201) }), ['email']);
    expectValidationError(await send({ ...baseSuggestion(), email: 'a@b.co, c@d.co' }), ['email']);
  });

  it('sourcePage accepts 300 characters under /solutions/, refuses 301 and other paths', async () => {
    const at = (length: number) => `/solutions/${'s'.repeat(length - '/solutions/'.length)}`;
    expectAccepted(await send({ ...baseSuggestion(), sourcePage: at(300) }), at(300));
    expectValidationError(await send({ ...baseSuggestion(), sourcePage: at(301) }), ['sourcePage']);
    expectValidationError(await send({ ...baseSuggestion(), sourcePage: '/demo' }), ['sourcePage']);
    expectValidationError(await send({ ...baseSuggestion(), sourcePage: 'solutions/cros' }), ['sourcePage']);
  });

  it.each(SUGGESTION_COMPANY_TYPES)(
    'without sourcePage, companyType %s answers its solution page',
    async (companyType) => {
      const persona = PERSONAS_BY_COMPANY_TYPE[companyType][0];
      const answer = await send({ companyType, persona, suggestion: `Checklist ${uniqueEmail()}` });
      expectAccepted(answer, SOLUTION_PAGE_BY_COMPANY_TYPE[companyType]);
    },
  );

  it('companyType sponsor is refused (only CROs and sites suggest)', async () => {
    expectValidationError(
      await send({ ...baseSuggestion(), companyType: 'sponsor', persona: 'medical-writing' }),
      ['companyType', 'persona'],
    );
  });

  it.each(['companyType', 'persona', 'suggestion'])('%s is required', async (field) => {
    const body: Record<string, unknown> = baseSuggestion();
    delete body[field];
    expectValidationError(await send(body), [field]);
  });

  const pairs = SUGGESTION_COMPANY_TYPES.flatMap((companyType) =>
    SUGGESTION_PERSONAS.map(
      (persona) =>
        [
          companyType,
          persona,
          (PERSONAS_BY_COMPANY_TYPE[companyType] as readonly string[]).includes(persona),
        ] as const,
    ),
  );
  it.each(pairs)('companyType %s with persona %s: accepted = %s', async (companyType, persona, belongs) => {
    const answer = await send({ companyType, persona, suggestion: `Checklist ${uniqueEmail()}` });
    if (belongs) expectAccepted(answer, SOLUTION_PAGE_BY_COMPANY_TYPE[companyType]);
    else expectValidationError(answer, ['persona']);
  });

  it('unknown fields are refused', async () => {
    expectValidationError(await send({ ...baseSuggestion(), name: 'Dana' }), ['name']);
  });
});

describe('JSON-only shapes', () => {
  const sendJson = async (path: string, payload: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const result: Answer = {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    };
    expectContract(contract, path, result);
    return result;
  };

  it.each([LEADS, SUGGESTIONS])('%s refuses non-object bodies and non-string values', async (path) => {
    for (const payload of [[], ['a'], 'text', 42, null, true])
      expectValidationError(await sendJson(path, payload), ['body']);
    expectValidationError(await sendJson(path, { email: 42, name: ['a'], companyType: { x: 1 } }), [
      'email',
      'name',
      'companyType',
    ]);
  });
});
