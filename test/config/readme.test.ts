import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, PACKAGE_ROOT } from '../../src/config/index.js';
import { personaTableMarkdown } from '../../src/contract/index.js';

const readme = readFileSync(`${PACKAGE_ROOT}/README.md`, 'utf8');

// The README is the operator's reference: these keep it from drifting away from the code.
describe('README', () => {
  it('documents every configuration variable with its current meaning', () => {
    for (const [name, meaning] of Object.entries(CONFIG_VARIABLES)) {
      expect(readme).toContain(`| \`${name}\` | ${meaning} |`);
    }
  });
  it('shows the persona mapping the server enforces', () => {
    expect(readme).toContain(personaTableMarkdown());
  });
  it('gives the two commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });
});
