import { describe, expect, it } from 'vitest';
import {
  createValidator,
  isEmailAddress,
  LeadRequestSchema,
  PERSONAS_BY_COMPANY_TYPE,
  SuggestionRequestSchema,
} from '../../src/contract/index.js';

const validateLead = createValidator(LeadRequestSchema);
const validateSuggestion = createValidator(SuggestionRequestSchema);

describe('e-mail format', () => {
  it.each([
    'a@b.co',
    'first.last+tag@sub.example.com',
    'x@xn--bcher-kva.example',
    'ü@münchen.de'.replace('ü', 'u'),
  ])('accepts %s', (address) => expect(isEmailAddress(address)).toBe(true));
  it.each([
    '',
    'a',
    'a@',
    '@b.co',
    'a@b',
    'a@@b.co',
    'a b@c.co',
    'a@b.c',
    '.a@b.co',
    'a..b@c.co',
    'a@-b.co',
    'a@b.co\r\nBcc: x@y.co',
    'a@b.co, c@d.co',
    '"q"@b.co',
  ])('refuses %j', (address) => expect(isEmailAddress(address)).toBe(false));
  it('answers in linear time on a hostile input', () => {
    const hostile = `${'a'.repeat(50_000)}@${'b-'.repeat(50_000)}`;
    const started = performance.now();
    expect(isEmailAddress(hostile)).toBe(false);
    expect(isEmailAddress(`a@${'b.'.repeat(100_000)}`)).toBe(false);
    // Not a timing target: a catastrophic backtracking regex would take minutes here.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('lead request rules', () => {
  it('accepts a minimal request with a name', () => {
    expect(validateLead({ name: 'Ada', email: 'ada@example.com' }).ok).toBe(true);
  });
  it('accepts firstName and lastName instead of name', () => {
    expect(validateLead({ firstName: 'Ada', lastName: 'L', email: 'ada@example.com' }).ok).toBe(true);
  });
  it.each([
    [{ email: 'ada@example.com' }],
    [{ firstName: 'Ada', email: 'ada@example.com' }],
    [{ lastName: 'L', email: 'ada@example.com' }],
    [{ name: '   ', email: 'ada@example.com' }],
  ])('requires name unless firstName and lastName: %j', (body) => {
    const result = validateLead(body);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((p) => p.field)).toEqual(['name']);
  });
  it('names every failing field at once', () => {
    const result = validateLead({ name: 'x'.repeat(201), email: 'nope', extra: 1, companyType: 'pharma' });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems.map((p) => p.field).sort()).toEqual(['companyType', 'email', 'extra', 'name']);
  });
  for (const [companyType, personas] of Object.entries(PERSONAS_BY_COMPANY_TYPE)) {
    it(`accepts each persona of ${companyType} and refuses the others`, () => {
      for (const [otherType, otherPersonas] of Object.entries(PERSONAS_BY_COMPANY_TYPE)) {
        for (const persona of otherPersonas) {
          const result = validateLead({ name: 'A', email: 'a@b.co', companyType, persona });
          const belongs = (personas as readonly string[]).includes(persona);
          expect(result.ok, `${companyType}/${persona} (from ${otherType})`).toBe(belongs);
          if (!result.ok) {
            expect(result.problems).toHaveLength(1);
            expect(result.problems[0]!.field).toBe('persona');
            expect(result.problems[0]!.message).toContain(companyType);
          }
        }
      }
    });
  }
  it('refuses a persona outside the enum once, not twice', () => {
    const result = validateLead({ name: 'A', email: 'a@b.co', companyType: 'cro', persona: 'astronaut' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toHaveLength(1);
  });
  it('refuses a __proto__ key as an unknown field', () => {
    const result = validateLead(JSON.parse('{"name":"A","email":"a@b.co","__proto__":{"admin":true}}'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]!.field).toBe('__proto__');
  });
  it('refuses non-object bodies', () => {
    for (const body of [null, [], 'x', 3]) {
      const result = validateLead(body);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems[0]!.field).toBe('body');
    }
  });
  it('reports a repeated form field', () => {
    const result = validateLead({ name: 'A', email: ['a@b.co', 'c@d.co'] });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems[0]).toMatchObject({ field: 'email', message: 'was sent more than once' });
  });
});

describe('suggestion request rules', () => {
  const base = { companyType: 'cro', persona: 'study-start-up', suggestion: 'ok' };
  it('accepts the minimum', () => expect(validateSuggestion(base).ok).toBe(true));
  it('refuses sponsor (only CROs and sites may suggest)', () => {
    expect(validateSuggestion({ ...base, companyType: 'sponsor' }).ok).toBe(false);
  });
  it('refuses a site persona for a CRO', () => {
    expect(validateSuggestion({ ...base, persona: 'principal-investigator' }).ok).toBe(false);
  });
  it('refuses a sourcePage outside /solutions/', () => {
    const result = validateSuggestion({ ...base, sourcePage: '/demo' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]!.fix).toContain('/solutions/');
  });
});
