import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_CONTENT_DIR, ConfigError, loadConfig, type ConfigSource } from '../../src/config/index.js';
import { tempDir } from '../support/files.js';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

function problemsOf(env: ConfigSource): string[] {
  try {
    loadConfig(env, '/srv/site');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('has embedded defaults that need no variable at all', () => {
    const config = loadConfig({}, '/srv/site');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicBaseUrl: 'http://127.0.0.1:3000',
      dataDir: '/srv/site/data',
      contentDir: BUNDLED_CONTENT_DIR,
      database: { kind: 'sqlite', file: '/srv/site/data/frontdoor.sqlite' },
      delivery: { lead: { provider: 'log' }, suggestion: { provider: 'log' } },
      bodyLimitBytes: 65536,
    });
  });

  it('reads CONTENT_HTML_BODY, trimmed; blank or absent is none', () => {
    expect(loadConfig({ CONTENT_HTML_BODY: '  div.prose, #body ' }, '/srv/site').contentHtmlBody).toBe(
      'div.prose, #body',
    );
    expect(loadConfig({ CONTENT_HTML_BODY: '  ' }, '/srv/site').contentHtmlBody).toBeNull();
    expect(loadConfig({}, '/srv/site').contentHtmlBody).toBeNull();
  });

  it('routes leads and suggestions separately', () => {
    const config = loadConfig(
      {
        LEAD_DELIVERY: 'crm',
        CRM_WEBHOOK_URL: 'https://crm.example.com/hook',
        CRM_WEBHOOK_SECRET: SECRET,
        SUGGESTION_DELIVERY: 'email-service',
        SMTP_URL: 'smtp://relay.example.com:587',
        MAIL_FROM: 'web@example.com',
        SUGGESTION_MAIL_TO: 'product@example.com, pm@example.com',
      },
      '/srv',
    );
    expect(config.delivery.lead).toEqual({ provider: 'crm', mailTo: [] });
    expect(config.delivery.suggestion).toEqual({
      provider: 'email-service',
      mailTo: ['product@example.com', 'pm@example.com'],
    });
    expect(config.crm).toEqual({ url: 'https://crm.example.com/hook', secret: SECRET });
  });

  it('switches compression on by default and off with COMPRESSION=off; anything else names the fix', () => {
    expect(loadConfig({}).compression).toBe(true);
    expect(loadConfig({ COMPRESSION: 'off' }).compression).toBe(false);
    expect(problemsOf({ COMPRESSION: 'gzip' })).toEqual([
      expect.stringMatching(/^COMPRESSION="gzip" is not valid: use on .* or off/),
    ]);
  });

  it('names the variable and the fix for every problem at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      LEAD_DELIVERY: 'fax',
      LOG_LEVEL: 'loud',
      LOG_FORMAT: 'colourful',
    });
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^PORT="eighty" is not valid: set it to a whole number from 0 to 65535/);
    expect(problems[1]).toMatch(/^LOG_LEVEL="loud".*use one of/);
    expect(problems[2]).toMatch(/^LOG_FORMAT="colourful" is not valid: use json .* or pretty /);
    expect(problems[3]).toMatch(/^LEAD_DELIVERY="fax".*use one of log, email-service, crm, none/);
  });

  it('requires the settings of the chosen provider', () => {
    expect(problemsOf({ LEAD_DELIVERY: 'email-service' })).toEqual([
      expect.stringMatching(/^SMTP_URL is required when LEAD_DELIVERY=email-service/),
      expect.stringMatching(/^MAIL_FROM is required/),
      expect.stringMatching(/^LEAD_MAIL_TO is required/),
    ]);
    expect(problemsOf({ SUGGESTION_DELIVERY: 'crm' })).toEqual([
      expect.stringMatching(/^CRM_WEBHOOK_URL is required when SUGGESTION_DELIVERY=crm/),
      expect.stringMatching(/^CRM_WEBHOOK_SECRET is required/),
    ]);
  });

  it('refuses a recipient list that could smuggle extra addresses', () => {
    const problems = problemsOf({
      LEAD_DELIVERY: 'email-service',
      SMTP_URL: 'smtp://relay:25',
      MAIL_FROM: 'web@example.com',
      LEAD_MAIL_TO: 'sales@example.com, "x" <y@z.com>',
    });
    expect(problems).toEqual([expect.stringMatching(/^LEAD_MAIL_TO is required/)]);
  });

  it('checks the webhook URL scheme and the secret format', () => {
    expect(problemsOf({ CRM_WEBHOOK_URL: 'http://crm.example.com/h' })[0]).toMatch(/must use https/);
    expect(() => loadConfig({ CRM_WEBHOOK_URL: 'http://127.0.0.1:9999/h' })).not.toThrow();
    expect(problemsOf({ CRM_WEBHOOK_SECRET: 'hunter2' })[0]).toMatch(/^CRM_WEBHOOK_SECRET must be whsec_/);
    expect(problemsOf({ CRM_WEBHOOK_SECRET: `whsec_${Buffer.alloc(8).toString('base64')}` })).toHaveLength(1);
  });

  it('refuses a webhook URL with credentials, without repeating the password', () => {
    for (const url of ['https://user:s3cret@crm.example.com/h', 'https://token@crm.example.com/h']) {
      const problems = problemsOf({ CRM_WEBHOOK_URL: url });
      expect(problems).toEqual([
        'CRM_WEBHOOK_URL must not contain a user name or password: remove them from the URL; the receiver authenticates deliveries by their signature (CRM_WEBHOOK_SECRET).',
      ]);
      expect(problems.join(' ')).not.toContain('s3cret');
    }
  });

  it('normalises PUBLIC_BASE_URL and refuses relative ones', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://www.example.com/' }).publicBaseUrl).toBe(
      'https://www.example.com',
    );
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://example.com/site/' }).publicBaseUrl).toBe(
      'https://example.com/site',
    );
    expect(problemsOf({ PUBLIC_BASE_URL: 'www.example.com' })[0]).toMatch(
      /^PUBLIC_BASE_URL="www.example.com"/,
    );
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
  });

  it('bounds BODY_LIMIT_BYTES so a valid submission always fits', () => {
    expect(problemsOf({ BODY_LIMIT_BYTES: '1024' })[0]).toMatch(/^BODY_LIMIT_BYTES="1024".*from 16384/);
  });

  it('selects PostgreSQL with DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/test' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@127.0.0.1:5432/test',
      poolSize: 10,
      connectTimeoutMs: 5_000,
      queryTimeoutMs: 5_000,
    });
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://u@127.0.0.1:5432/test',
        DATABASE_POOL_SIZE: '4',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_QUERY_TIMEOUT_MS: '3000',
      }).database,
    ).toMatchObject({ poolSize: 4, connectTimeoutMs: 2_000, queryTimeoutMs: 3_000 });
    expect(problemsOf({ DATABASE_URL: 'postgres://u@h/db', DATABASE_POOL_SIZE: '0' })[0]).toMatch(
      /^DATABASE_POOL_SIZE="0" is not valid/,
    );
    expect(problemsOf({ DATABASE_URL: 'mysql://x' })[0]).toMatch(/^DATABASE_URL is not a postgres:\/\/ URL/);
  });

  it('reads an optional file, with the environment winning', () => {
    const dir = tempDir('frontdoor-config-');
    const file = join(dir, 'frontdoor.yaml');
    writeFileSync(file, 'PORT: 8080\nHOST: 0.0.0.0\nLEAD_DELIVERY: none\n');
    const config = loadConfig({ FRONTDOOR_CONFIG: file, PORT: '9090' }, dir);
    expect(config.port).toBe(9090);
    expect(config.host).toBe('0.0.0.0');
    expect(config.delivery.lead.provider).toBe('none');
    writeFileSync(file, 'PORTT: 1\n');
    expect(problemsOf({ FRONTDOOR_CONFIG: file })[0]).toMatch(/unknown key "PORTT"/);
    expect(problemsOf({ FRONTDOOR_CONFIG: join(dir, 'missing.yaml') })[0]).toMatch(/could not be read/);
  });
});
