import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { spawnServe, type ServeProcess } from '../../support/process.js';
import { WEBHOOK_SECRET } from '../../support/peers.js';

const running: ServeProcess[] = [];
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill('SIGKILL');
});

/** Every problem line loadConfig raises for `env`. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('finding 13: a credential in a refused URL is never printed', () => {
  it('frontdoor serve with CRM_WEBHOOK_URL holding a password exits 78 and prints no password anywhere', async () => {
    const server = spawnServe({
      LEAD_DELIVERY: 'crm',
      CRM_WEBHOOK_URL: 'http://u:secretpw@evil.example/h',
      CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    running.push(server);
    expect(await server.exit).toBe(78);
    expect(server.output()).not.toContain('secretpw');
    // Both problem lines are there: the credential one and the https one, which quotes the URL.
    expect(server.stderr()).toContain('CRM_WEBHOOK_URL must not contain a user name or password');
    expect(server.stderr()).toContain('CRM_WEBHOOK_URL="http://u:***@evil.example/h" must use https://');
    const fatal = server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; problems?: string[]; exitCode?: number })
      .find((line) => line.exitCode === 78)!;
    expect(fatal.problems).toContain(
      'CRM_WEBHOOK_URL="http://u:***@evil.example/h" must use https:// (plain http is accepted only for localhost).',
    );
  });

  it.each([
    [
      'CRM_WEBHOOK_URL',
      { LEAD_DELIVERY: 'crm', CRM_WEBHOOK_SECRET: WEBHOOK_SECRET },
      'ftp://user:hunter2@crm.example/h',
    ],
    [
      'CRM_WEBHOOK_URL',
      { LEAD_DELIVERY: 'crm', CRM_WEBHOOK_SECRET: WEBHOOK_SECRET },
      'https://hunter2@[bad/h',
    ],
    ['PUBLIC_BASE_URL', {}, 'ftp://admin:hunter2@www.example.com'],
    ['PUBLIC_BASE_URL', {}, 'https://user:hunter2@www.example.com/?x=1'],
  ])('%s=%s is refused with the password redacted in every problem', (name, env, value) => {
    const problems = problemsOf({ ...env, [name]: value });
    expect(problems.some((problem) => problem.startsWith(name))).toBe(true);
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(problems.join('\n')).toContain('***@');
  });
});
