import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The room boundaries (eslint.config.js, LAYERS) run in `npm test` through `eslint .`; this test
 * makes sure the rule still rejects a violation, so it cannot silently stop working. Each fixture
 * lives outside src/ and is linted with the project's own config as if it were the file named.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: fileURLToPath(new URL('../../eslint.config.js', import.meta.url)),
});

async function lintFixture(fixture: string, asFile: string) {
  const code = await readFile(new URL(`fixtures/${fixture}`, import.meta.url), 'utf8');
  const [result] = await eslint.lintText(code, { filePath: `${root}${asFile}` });
  return result!.messages.map((message) => ({ rule: message.ruleId, message: message.message }));
}

describe('room boundaries', () => {
  it('rejects an import that skips another room’s index.ts', async () => {
    expect(await lintFixture('route-reaches-into-site.ts.txt', 'src/http/surfaces/violation.ts')).toEqual([
      {
        rule: 'no-restricted-imports',
        message: expect.stringContaining("'../../site/render-cache.js'") as unknown as string,
      },
    ]);
  });

  it('rejects an import that goes up a layer', async () => {
    const messages = await lintFixture('discovery-imports-site.ts.txt', 'src/discovery/violation.ts');
    expect(messages).toHaveLength(1);
    expect(messages[0]!.rule).toBe('no-restricted-imports');
    expect(messages[0]!.message).toContain(
      "'discovery' is in layer 3 and imports only rooms of lower layers",
    );
  });

  it('rejects a route file importing the app that registers it', async () => {
    const messages = await lintFixture('route-imports-app.ts.txt', 'src/http/surfaces/violation.ts');
    expect(messages).toHaveLength(1);
    expect(messages[0]!.message).toContain('takes its AppContext from ../context.js');
  });

  it('accepts the same imports through index.ts from a higher layer', async () => {
    expect(await lintFixture('route-through-index.ts.txt', 'src/http/surfaces/allowed.ts')).toEqual([]);
  });
});
