import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/files.js';
import { expectContract, post } from '../../support/client.js';
import { startTestServer, type LogRecord, type TestServer } from '../../support/servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PERSONAL = ['Private Person', 'private.person@secret.example', 'Hidden Company', 'confidential text'];
const lead = {
  name: 'Private Person',
  email: 'private.person@secret.example',
  company: 'Hidden Company',
  message: 'confidential text',
};
const suggestion = {
  companyType: 'cro',
  persona: 'medical-writing-document-services',
  suggestion: 'confidential text',
  email: 'private.person@secret.example',
};

/** The keys a log line other than the `log` provider's own line may carry. */
const ALLOWED_KEYS = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'requestId',
  'req',
  'res',
  'responseTime',
  'submissionId',
  'kind',
  'provider',
  'attempt',
  'errorClass',
  'outcome',
  'permanent',
  'nextAttemptAt',
  'match',
]);

function expectNoPersonalData(lines: LogRecord[]): void {
  for (const line of lines) {
    const text = JSON.stringify(line);
    for (const secret of PERSONAL) expect(text, `log line "${line.msg}"`).not.toContain(secret);
    for (const key of Object.keys(line)) expect(ALLOWED_KEYS, `key ${key} in "${line.msg}"`).toContain(key);
  }
}

describe('LEAD_DELIVERY=none and SUGGESTION_DELIVERY=none', () => {
  it('stores without outbound delivery and answers mailto / server-log with delivered:false', async () => {
    server = await startTestServer({ env: { LEAD_DELIVERY: 'none', SUGGESTION_DELIVERY: 'none' } });
    const contract = await server.contract();
    const leadAnswer = await post(server.url, '/api/leads', 'json', lead);
    expectContract(contract, '/api/leads', leadAnswer);
    expect(leadAnswer.status).toBe(200);
    expect(leadAnswer.body).toEqual({ ok: true, provider: 'mailto', delivered: false });
    const suggestionAnswer = await post(server.url, '/api/document-suggestions', 'form', suggestion);
    expectContract(contract, '/api/document-suggestions', suggestionAnswer);
    expect(suggestionAnswer.status).toBe(201);
    expect(suggestionAnswer.body).toEqual({
      ok: true,
      provider: 'server-log',
      delivered: false,
      sourcePage: '/solutions/cros',
    });

    const stored = (await server.submissions.store.list({ limit: 10 })).sort((a, b) =>
      a.kind < b.kind ? 1 : -1,
    );
    expect(stored.map((record) => [record.kind, record.provider, record.delivery])).toEqual([
      ['suggestion', 'server-log', null],
      ['lead', 'mailto', null],
    ]);
    expect(await server.submissions.deliverDue()).toBe(0);

    const arrival = server.logs.find((line) => line.msg.startsWith('document suggestion stored'));
    expect(arrival).toMatchObject({
      kind: 'suggestion',
      provider: 'server-log',
      submissionId: stored[0]!.id,
    });
    expectNoPersonalData(server.logs);

    // A double submit is still one submission with the same answer.
    const again = await post(server.url, '/api/leads', 'form', lead);
    expect(again.body).toEqual(leadAnswer.body);
    expect(await server.submissions.store.list({ limit: 10 })).toHaveLength(2);
  });
});

describe('LEAD_DELIVERY=log', () => {
  it('writes the one line with the submitted fields, even when LOG_LEVEL hides info', async () => {
    server = await startTestServer({ env: { LOG_LEVEL: 'warn' } });
    const answer = await post(server.url, '/api/leads', 'json', lead);
    expect(answer.body).toEqual({ ok: true, provider: 'log', delivered: true });
    const [record] = await server.submissions.store.list({ limit: 1 });
    const destination = server.logs.filter((line) => line.delivery === 'log');
    expect(destination).toHaveLength(1);
    expect(destination[0]).toMatchObject({
      msg: 'demo request received',
      submissionId: record!.id,
      kind: 'lead',
      submission: lead,
    });
    // With LOG_LEVEL=warn nothing else at info is written.
    expect(server.logs.filter((line) => line.level < 40 && line.delivery !== 'log')).toEqual([]);
  });

  it('keeps personal data out of every other line', async () => {
    server = await startTestServer({ env: { SUGGESTION_DELIVERY: 'log' } });
    await post(server.url, '/api/leads', 'json', lead);
    await post(server.url, '/api/document-suggestions', 'json', suggestion);
    const destination = server.logs.filter((line) => line.delivery === 'log');
    expect(destination.map((line) => line.msg)).toEqual([
      'demo request received',
      'document suggestion received',
    ]);
    expectNoPersonalData(server.logs.filter((line) => line.delivery !== 'log'));
  });

  it('names a configured form in its line, not the seed’s demo request', async () => {
    server = await startTestServer({
      env: { CONTENT_DIR: join(REPO_ROOT, 'test', 'fixtures', 'northbeam') },
    });
    const quote = {
      fullName: 'Private Person',
      email: 'private.person@secret.example',
      service: 'sample-size',
      projectDetails: 'confidential text about a pilot study',
      consent: 'yes',
    };
    const answer = await post(server.url, '/api/quote-requests', 'json', quote);
    expect(answer.body).toEqual({ ok: true, provider: 'log', delivered: true });
    const destination = server.logs.filter((line) => line.delivery === 'log');
    expect(destination).toHaveLength(1);
    expect(destination[0]).toMatchObject({
      msg: 'New submission: Request a quote',
      kind: 'lead',
      form: 'requestQuote',
      submission: quote,
    });
    expectNoPersonalData(server.logs.filter((line) => line.delivery !== 'log'));
  });
});
