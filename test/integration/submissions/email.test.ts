import { afterEach, describe, expect, it } from 'vitest';
import type { SubmissionRecord } from '../../../src/submissions/index.js';
import { contactName, emailSubject, emailText } from '../../../src/submissions/message.js';
import { post } from '../../support/client.js';
import { startTestServer, type TestServer } from '../../support/servers.js';
import { waitFor } from '../../support/net.js';
import {
  decodeEncodedWords,
  headerAddresses,
  mailHeader,
  mailHeaders,
  mailPart,
  startSmtpPeer,
  type SmtpPeer,
} from '../../support/peers.js';

let server: TestServer | undefined;
let smtp: SmtpPeer | undefined;
afterEach(async () => {
  await server?.close();
  await smtp?.close();
  server = undefined;
  smtp = undefined;
});

async function start(): Promise<{ server: TestServer; smtp: SmtpPeer }> {
  smtp = await startSmtpPeer();
  server = await startTestServer({
    env: {
      LEAD_DELIVERY: 'email-service',
      SUGGESTION_DELIVERY: 'email-service',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'website@trialwright.example',
      LEAD_MAIL_TO: 'sales@trialwright.example, ops@trialwright.example',
      SUGGESTION_MAIL_TO: 'product@trialwright.example',
      PUBLIC_BASE_URL: 'https://www.trialwright.example',
    },
  });
  return { server, smtp };
}

describe('email-service delivery to a real SMTP peer', () => {
  it('sends a demo request to the configured recipients only, with the visitor in Reply-To', async () => {
    const { server, smtp } = await start();
    const lead = {
      name: 'Dana <b>Reyes</b> & "Co"',
      email: 'dana.reyes@sponsor.example',
      company: 'Example <Therapeutics>',
      message: '<script>alert("x")</script>\nSecond line & more',
      companyType: 'sponsor',
      persona: 'medical-writing',
    };
    const answer = await post(server.url, '/api/leads', 'json', lead);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, provider: 'email-service', delivered: true });

    expect(smtp.accepted).toHaveLength(1);
    const mail = smtp.accepted[0]!;
    expect(mail.mailFrom).toBe('website@trialwright.example');
    expect(mail.recipients).toEqual(['sales@trialwright.example', 'ops@trialwright.example']);
    expect(headerAddresses(mailHeader(mail.raw, 'from')[0]!)).toEqual(['website@trialwright.example']);
    expect(headerAddresses(mailHeader(mail.raw, 'to')[0]!)).toEqual([
      'sales@trialwright.example',
      'ops@trialwright.example',
    ]);
    const replyTo = mailHeader(mail.raw, 'reply-to');
    expect(replyTo).toHaveLength(1);
    expect(headerAddresses(replyTo[0]!)).toEqual(['dana.reyes@sponsor.example']);
    expect(mailHeaders(mail.raw).map(([name]) => name)).not.toContain('bcc');

    const [stored] = await server.submissions.store.list({ limit: 1 });
    expect(mailHeader(mail.raw, 'message-id')).toEqual([`<${stored!.id}@www.trialwright.example>`]);

    const html = mailPart(mail.raw, 'text/html')!;
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('Dana &lt;b&gt;Reyes&lt;/b&gt; &amp; &quot;Co&quot;');
    expect(html).toContain('Example &lt;Therapeutics&gt;');
    expect(html).not.toMatch(/<script|<b>|<Therapeutics>/);
    const text = mailPart(mail.raw, 'text/plain')!.replace(/\r\n/g, '\n');
    expect(text).toContain('Message:\n  <script>alert("x")</script>\n  Second line & more');
    expect(text).toContain('Persona: medical-writing');
    expect(text).toContain(stored!.id);
  });

  it.each([
    ['a comma-separated address list', 'Eve, attacker@evil.example, <second@evil.example>'],
    ['a quoted address', '"x@evil.example" <y@evil.example>'],
  ])('a name carrying %s adds no recipient and no header', async (_label, name) => {
    const { server, smtp } = await start();
    const answer = await post(server.url, '/api/leads', 'form', { name, email: 'eve@visitor.example' });
    expect(answer.body).toEqual({ ok: true, provider: 'email-service', delivered: true });
    const mail = smtp.accepted[0]!;
    expect(mail.recipients).toEqual(['sales@trialwright.example', 'ops@trialwright.example']);
    const names = mailHeaders(mail.raw).map(([header]) => header);
    expect(names).not.toContain('bcc');
    expect(names).not.toContain('x-injected');
    expect(mailHeader(mail.raw, 'reply-to').flatMap(headerAddresses)).toEqual(['eve@visitor.example']);
    expect(mailHeader(mail.raw, 'to').flatMap(headerAddresses)).toEqual([
      'sales@trialwright.example',
      'ops@trialwright.example',
    ]);
  });

  it('sends a suggestion to its own recipients; Reply-To only when an e-mail was given', async () => {
    const { server, smtp } = await start();
    const without = await post(server.url, '/api/document-suggestions', 'json', {
      companyType: 'research-site',
      persona: 'site-director-owner',
      suggestion: 'Budget negotiation worksheet from the schedule of assessments',
    });
    expect(without.status).toBe(201);
    expect(without.body).toEqual({
      ok: true,
      provider: 'email-service',
      delivered: true,
      sourcePage: '/solutions/research-sites',
    });
    const withEmail = await post(server.url, '/api/document-suggestions', 'json', {
      companyType: 'cro',
      persona: 'quality-assurance',
      suggestion: 'Deviation log template',
      email: 'qa@cro.example',
    });
    expect(withEmail.status).toBe(201);
    expect(smtp.accepted.map((mail) => mail.recipients)).toEqual([
      ['product@trialwright.example'],
      ['product@trialwright.example'],
    ]);
    expect(mailHeader(smtp.accepted[0]!.raw, 'reply-to')).toEqual([]);
    expect(mailHeader(smtp.accepted[1]!.raw, 'reply-to').flatMap(headerAddresses)).toEqual([
      'qa@cro.example',
    ]);
    expect(mailPart(smtp.accepted[0]!.raw, 'text/plain')).toContain(
      'Suggestion: Budget negotiation worksheet from the schedule of assessments',
    );
  });

  it.each(['name', 'firstName', 'lastName', 'company'])(
    'refuses a line break in %s (it could forge an E-mail: or Bcc: line in the body)',
    async (field) => {
      const { server, smtp } = await start();
      const lead: Record<string, string> = { name: 'Eve', firstName: 'Eve', lastName: 'Example' };
      lead[field] = 'Eve\r\nE-mail: forged@evil.example\nBcc: victim@evil.example';
      const answer = await post(server.url, '/api/leads', 'form', { ...lead, email: 'eve@visitor.example' });
      expect(answer.status).toBe(400);
      expect(String(answer.body.message)).toContain(`${field} must be one line without control characters`);
      expect(smtp.accepted).toEqual([]);
    },
  );

  it('neutralises bidi controls in the Subject, the Reply-To name and the body; free text stays indented', async () => {
    const { server, smtp } = await start();
    const answer = await post(server.url, '/api/leads', 'json', {
      name: 'Eve \u202egnp.exe\u202c Example',
      company: 'Acme\u2066 Labs\u2069',
      email: 'eve@visitor.example',
      message: 'Hello\nE-mail: forged@evil.example\r\nBcc: victim@evil.example\u0085done',
    });
    expect(answer.body).toEqual({ ok: true, provider: 'email-service', delivered: true });
    const mail = smtp.accepted[0]!;
    const [stored] = await server.submissions.store.list({ limit: 1 });
    expect(emailSubject(stored!)).toBe('Demo request: Eve gnp.exe Example (Acme Labs)');
    expect(contactName(stored!)).toBe('Eve gnp.exe Example');
    const text = mailPart(mail.raw, 'text/plain')!.replace(/\r\n/g, '\n');
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0085]/u);
    expect(text).toContain('Name: Eve gnp.exe Example\n');
    expect(text).toContain(
      'Message:\n  Hello\n  E-mail: forged@evil.example\n  Bcc: victim@evil.example done\n',
    );
    expect(text.split('\n').filter((line) => line.startsWith('E-mail:'))).toEqual([
      'E-mail: eve@visitor.example',
    ]);
    // The raw headers carry neither the override nor its quoted-printable or UTF-8 form.
    expect(mail.raw.split(/\r?\n\r?\n/)[0]).not.toMatch(/\u202e|=E2=80=AE|4oCu/i);
  });

  it.each([
    ['a forged Bcc and a bidi override', '=?utf-8?q?Eve=E2=80=AEelgooG=0D=0ABcc:_v@evil.example?='],
    ['a second Reply-To address', '=?utf-8?q?x=22_=3Cattacker=40evil.example=3E=2C_=22y?='],
    ['base64 words split in two', '=?UTF-8?B?RXZlDQpCY2M6IHZAZXZpbC5leGFtcGxl?= =?utf-8?b?4oCu?='],
    ['an RFC 2231 language tag', '=?utf-8*en?Q?x=0D=0ABcc:_v@evil.example?='],
  ])('neutralises RFC 2047 encoded words in the name and company: %s', async (_label, attack) => {
    const { server, smtp } = await start();
    // What a reader would have made of the attack had it reached a header as sent.
    expect(decodeEncodedWords(attack)).toMatch(/[\r\n\u202e<]/u);
    const answer = await post(server.url, '/api/leads', 'json', {
      name: attack,
      company: attack,
      email: 'eve@visitor.example',
    });
    expect(answer.body).toEqual({ ok: true, provider: 'email-service', delivered: true });
    const mail = smtp.accepted[0]!;
    for (const [name, value] of mailHeaders(mail.raw)) {
      const shown = decodeEncodedWords(value);
      expect(shown, name).not.toMatch(/[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u);
    }
    expect(mailHeaders(mail.raw).map(([name]) => name)).not.toContain('bcc');
    const replyTo = decodeEncodedWords(mailHeader(mail.raw, 'reply-to')[0]!);
    expect(headerAddresses(replyTo)).toEqual(['eve@visitor.example']);
    expect(replyTo).toContain('= ?');
    // The reader sees the text as it was sent, with a space after each `=`.
    const subject = decodeEncodedWords(mailHeader(mail.raw, 'subject')[0]!);
    expect(subject).toBe(`Demo request: ${attack.replace(/=\?/g, '= ?')} (${attack.replace(/=\?/g, '= ?')})`);
    expect(mail.recipients).toEqual(['sales@trialwright.example', 'ops@trialwright.example']);
  });

  it('keeps single-line fields on one line in rows stored before the rule (defence in depth)', () => {
    const record = {
      id: 'old-row',
      kind: 'lead',
      receivedAtMs: Date.UTC(2026, 0, 5),
      fields: { name: 'Eve\r\nBcc: victim@evil.example', email: 'eve@visitor.example', company: 'A\u2028B' },
    } as unknown as SubmissionRecord;
    const text = emailText(record);
    expect(text).toContain('Name: Eve Bcc: victim@evil.example\n');
    expect(text).toContain('Company: A B\n');
    expect(text.split('\n').some((line) => line.startsWith('Bcc:'))).toBe(false);
  });

  it('writes no personal data to the log', async () => {
    const { server } = await start();
    await post(server.url, '/api/leads', 'json', {
      name: 'Private Person',
      email: 'private.person@secret.example',
      company: 'Hidden Company',
      message: 'confidential message text',
    });
    await waitFor('delivery log line', () => server.logs.some((line) => line.msg === 'submission delivered'));
    const everything = JSON.stringify(server.logs);
    for (const secret of ['Private Person', 'private.person', 'Hidden Company', 'confidential message']) {
      expect(everything).not.toContain(secret);
    }
  });
});
