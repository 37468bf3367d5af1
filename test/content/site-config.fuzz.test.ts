import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { FormsConfigError, readFormsConfig } from '../../src/content/index.js';
import {
  DEFAULT_FONT_STACK,
  isFontList,
  MAX_FOOTER_COLUMNS,
  MAX_MENU_LINKS,
} from '../../src/content/brand.js';
import { MAX_SITE_INFO_PROBLEMS, readSiteInfo } from '../../src/content/site-info.js';
import { MAX_YAML_DEPTH, parseContentYaml, yamlTooDeepAt } from '../../src/content/yaml-bounds.js';
import { LineCounter } from 'yaml';

// Issue 37's last class, for the site's configuration file (`_site.yaml`): whatever it holds, it is
// read without throwing, its problems point inside the file and are capped, and only safe values
// reach the templates and brand.css (addresses, fonts, colours, bounded menus).

const FALLBACK = { name: 'Example', description: '' };

/** Values an attacker or a careless paste would put where a link, font or colour goes. */
const hostileValue = fc.oneof(
  fc.constantFrom(
    '/\t/evil.example',
    'Pri\u0000cing\u007f\u0085',
    '/\n/evil.example',
    '/\\evil.example',
    '//evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<b>x</b>',
    'vbscript:x',
    '/ok',
    'https://example.com/',
    'https://exam\tple.com/',
    'https://example.com/\n<b>',
    'mailto:a@example.com',
    '/\u2028x',
    '/\u0000x',
    '#fff; } body {',
    '#0b5c59',
    'Inter; } a { color: red',
    '"Inter, serif',
    "'Segoe UI', Arial",
    'a */ b',
    '<style>',
    '../../etc/passwd.png',
    'brand/logo.svg',
    '',
  ),
  fc.string({ maxLength: 24 }),
);

const yamlScalar = hostileValue.map((value) => JSON.stringify(value));

/** One line of `_site.yaml` (with its nested lines), from keys it knows and some it does not. */
const siteLine = fc.oneof(
  yamlScalar.map((value) => `name: ${value}`),
  yamlScalar.map((value) => `language: ${value}`),
  fc
    .array(fc.tuple(yamlScalar, yamlScalar), { maxLength: 70 })
    .map(
      (links) =>
        `navigation: [${links.map(([label, url]) => `{ label: ${label}, url: ${url} }`).join(', ')}]`,
    ),
  fc
    .array(fc.tuple(yamlScalar, fc.array(yamlScalar, { maxLength: 5 })), { maxLength: 20 })
    .map(
      (columns) =>
        `footer: [${columns.map(([title, links]) => `{ title: ${title}, links: [${links.join(', ')}] }`).join(', ')}]`,
    ),
  fc
    .tuple(yamlScalar, yamlScalar, yamlScalar, yamlScalar)
    .map(
      ([font, colour, logo, favicon]) =>
        `brand: { fonts: ${font}, colours: { primary: ${colour}, link: ${colour} }, logo: ${logo}, favicon: ${favicon} }`,
    ),
  fc.array(yamlScalar, { maxLength: 8 }).map((urls) => `sameAs: [${urls.join(', ')}]`),
  fc.integer({ min: 1, max: 400 }).map((depth) => `sameAs: ${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 1, max: 200 }).map((depth) => `brand: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}`),
  fc
    .integer({ min: 1, max: 120 })
    .map((depth) => `x:\n${Array.from({ length: depth }, (_, i) => `${' '.repeat(i + 1)}k:`).join('\n')} 1`),
  fc
    .integer({ min: 0, max: 300 })
    .map((count) => Array.from({ length: count }, (_, i) => `unknown${i}: ${i}`).join('\n')),
  fc.constantFrom(
    'name: A',
    'name: B',
    '"unterminated: x',
    '- item',
    '  bad: indent',
    'a: &x [1]\nb: [*x, *x]',
    '\u0000',
  ),
);

const SAFE_LINK = /^(?:\/(?!\/)|https?:\/\/|mailto:)/;
const UNSAFE_IN_LINK = /[\p{Cc}\u2028\u2029\\]/u;

describe('_site.yaml, whatever it holds', () => {
  it('is read without throwing; its problems are capped and point inside the file; only safe values come out', () => {
    fc.assert(
      fc.property(fc.array(siteLine, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), (lines, newline) => {
        const text = lines.join('\n').replace(/\n/g, newline);
        const { info, problems } = readSiteInfo(text, FALLBACK);
        const lineCount = text.split('\n').length;
        expect(problems.length).toBeLessThanOrEqual(MAX_SITE_INFO_PROBLEMS + 1);
        for (const problem of problems) {
          expect(problem.message).not.toBe('');
          if (problem.line !== null) {
            expect(problem.line).toBeGreaterThanOrEqual(1);
            expect(problem.line).toBeLessThanOrEqual(lineCount);
          }
        }
        const menus = [info.navigation ?? [], ...(info.footer ?? []).map((column) => column.links)];
        expect(info.footer?.length ?? 0).toBeLessThanOrEqual(MAX_FOOTER_COLUMNS);
        for (const links of menus) {
          expect(links.length).toBeLessThanOrEqual(MAX_MENU_LINKS);
          for (const { url, label } of links) {
            expect(url).toMatch(SAFE_LINK);
            expect(url).not.toMatch(UNSAFE_IN_LINK);
            expect(label).not.toMatch(/\p{Cc}/u);
          }
        }
        for (const column of info.footer ?? []) expect(column.title).not.toMatch(/\p{Cc}/u);
        for (const words of [info.name, info.legalName, info.tagline, info.description, info.address])
          expect(words).not.toMatch(/\p{Cc}/u);
        for (const font of [info.brand.fonts.body, info.brand.fonts.headings])
          expect(font === DEFAULT_FONT_STACK || isFontList(font)).toBe(true);
        for (const url of info.sameAs) expect(url).toMatch(/^https?:\/\/[^\p{Cc}\\]*$/u);
        for (const colour of Object.values(info.brand.colours)) expect(colour).toMatch(/^#[0-9a-f]{6}$/);
        for (const file of [info.brand.logo?.file, info.brand.favicon].filter(
          (file) => file !== null && file !== undefined,
        ))
          expect(file).not.toMatch(/(^|\/)\.\.?(\/|$)|^\/|\\/);
      }),
      { numRuns: 300 },
    );
  });

  it('a font list that passes carries nothing that ends a CSS string, declaration or comment', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (list) => {
        if (isFontList(list)) expect(list).not.toMatch(/[;{}<>\\/*\n]|^"[^"]*$|^'[^']*$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('forms: anything but a FormsConfigError is never thrown, translations included', () => {
    const fieldLine = fc.oneof(
      fc.constantFrom(
        '{ name: email, type: email, label: E-mail }',
        '{ name: sourcePage, label: P }',
        '{ name: toString, label: P }',
        '{ name: a, type: select, label: A, dependsOn: b, choices: { x: [y] } }',
        '{ name: b, type: select, label: B, dependsOn: a, choices: { y: [x] } }',
        '{ name: c, type: select, label: C, choices: [x, y, x] }',
        '{ name: e, type: select, label: E, choices: [x, y] }',
      ),
      fc
        .integer({ min: 0, max: 120 })
        .map((depth) => `{ name: d, label: D, help: ${'['.repeat(depth)}${']'.repeat(depth)} }`),
    );
    // `translations:` as a careless paste or an attacker writes it: wrong types, unknown names,
    // prototype keys, tags that are not tags, deep nesting.
    const translations = fc.oneof(
      fc.constantFrom(
        '',
        'translations: [de]',
        'translations: {}',
        'translations: { de: 5 }',
        'translations: { "": { title: x } }',
        'translations: { __proto__: { title: x } }',
        'translations: { constructor: { title: x } }',
        'translations: { de: { title: [a] } }',
        'translations: { de: { fields: [email] } }',
        'translations: { de: { fields: { toString: { label: x } } } }',
        'translations: { de: { fields: { email: { label: "" } } } }',
        'translations: { de: { fields: { e: { choices: [x] } } } }',
        'translations: { de: { fields: { e: { choices: { x: [1], __proto__: z } } } } }',
        'translations: { de: { fields: { e: { label: Ee, choices: { x: Ix, y: Ypsilon } } } } }',
        'translations: { de: { fields: { email: { choices: { x: y } } } } }',
        'translations: { de: { title: A }, DE: { title: B } }',
        `translations: { x-${'a'.repeat(100)}: { title: x } }`,
      ),
      fc
        .integer({ min: 0, max: 120 })
        .map((depth) => `translations: { de: { intro: ${'['.repeat(depth)}${']'.repeat(depth)} } }`),
    );
    fc.assert(
      fc.property(fc.array(fieldLine, { maxLength: 8 }), translations, (fields, translated) => {
        const text = `forms:\n  - id: requestQuote\n    title: Quote\n    fields: [${fields.join(', ')}]\n    ${translated}\n`;
        try {
          readFormsConfig(text, '_site.yaml');
        } catch (error) {
          expect(error).toBeInstanceOf(FormsConfigError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** A value nested `depth` collections deep, each level a list or a mapping as `shape` says. */
function nested(depth: number, shape: boolean[]): unknown {
  let value: unknown = 'leaf';
  for (let level = depth - 1; level >= 0; level--)
    value = shape[level % shape.length] ? [value] : { k: value };
  return value;
}

describe('the depth bound, measured by the lexer', () => {
  it('agrees with the nesting yaml writes, block or flow, within the one level it may be off', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 * MAX_YAML_DEPTH }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        (depth, shape, flow) => {
          const text = stringify(nested(depth, shape), flow ? { collectionStyle: 'flow' } : undefined);
          const tooDeep = yamlTooDeepAt(text);
          if (depth < MAX_YAML_DEPTH) expect(tooDeep).toBeNull();
          if (depth > MAX_YAML_DEPTH + 1) expect(tooDeep).not.toBeNull();
          if (tooDeep === null) {
            const document = parseContentYaml(text, new LineCounter());
            expect(document.errors).toEqual([]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
