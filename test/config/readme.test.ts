import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, PACKAGE_ROOT } from '../../src/config/index.js';
import { personaTableMarkdown } from '../../src/contract/index.js';

const readme = readFileSync(`${PACKAGE_ROOT}/README.md`, 'utf8');
const configuration = readFileSync(`${PACKAGE_ROOT}/docs/configuration.md`, 'utf8');
const architecture = readFileSync(`${PACKAGE_ROOT}/docs/architecture.md`, 'utf8');

// docs/configuration.md is the operator's reference: these keep it from drifting away from the code.
describe('docs/configuration.md', () => {
  it('documents every configuration variable with its current meaning', () => {
    for (const [name, meaning] of Object.entries(CONFIG_VARIABLES)) {
      expect(configuration).toContain(`| \`${name}\` | ${meaning} |`);
    }
  });
  it('shows the persona mapping the server enforces', () => {
    expect(configuration).toContain(personaTableMarkdown());
  });
});

// The README is a newcomer's first page: what it is, how to run it, how to make it theirs, in brief.
describe('README', () => {
  it('gives the two commands, making it yours and where to go next', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    expect(readme).toContain('npm run frontdoor -- init my-site');
    expect(readme).toContain('docs/make-it-yours.md');
    expect(readme).toContain('## Where to go next');
  });
  it('stays short, with the platform details in docs/', () => {
    const words = readme.split(/\s+/).filter((word) => word !== '').length;
    expect(words).toBeLessThanOrEqual(350);
    expect(readme).not.toContain('EBADENGINE');
    expect(readme).not.toContain('MALLOC');
  });
  it('links only to documents that exist', () => {
    for (const [, target] of readme.matchAll(/\]\(([^)#]+)\)/g))
      expect(() => readFileSync(`${PACKAGE_ROOT}/${target}`), target).not.toThrow();
  });
});

describe('docs/architecture.md', () => {
  it('names every room of src/ in its layout', () => {
    for (const room of ['config', 'contract', 'content', 'search', 'nlweb', 'site', 'http', 'runtime', 'cli'])
      expect(architecture).toContain(`  ${room}/`);
  });
});
