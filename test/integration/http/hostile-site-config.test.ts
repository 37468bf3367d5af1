/**
 * Hostile site configurations (`_site.yaml`: brand, menus, forms, language) against the real server
 * over sockets: each is refused or bounded with a problem that names what and why, the site keeps
 * serving, and nothing from outside the content folder or from the hostile values reaches a
 * visitor (issue 37, the surfaces the other issues add).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSite, MAX_BRAND_FILE_BYTES } from '../../../src/content/index.js';
import { MAX_YAML_DEPTH } from '../../../src/content/yaml-bounds.js';
import { SITE_INFO_MAX_BYTES } from '../../../src/content/read.js';
import { contentFolder, SITE_YAML, tempDir } from '../../support/files.js';
import { startAskServer, startSiteServer, type SiteServer } from '../../support/servers.js';
import { FILES, resultsOf } from '../../nlweb/multilingual-site.js';
import type { NlWebResponse } from '../../../src/contract/index.js';

const running: SiteServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

async function serve(contentDir: string): Promise<SiteServer> {
  const server = await startSiteServer({ CONTENT_DIR: contentDir, CONTENT_WATCH: 'off' });
  running.push(server);
  return server;
}

/** The problems `frontdoor check` and the server's log report for the folder, as `line: message`. */
async function problemsOf(contentDir: string): Promise<string[]> {
  const { problems } = await loadSite(contentDir);
  return problems
    .filter((problem) => problem.file === '_site.yaml')
    .map((problem) => `${problem.line ?? '-'}: ${problem.message}`);
}

const q = (text: string) => JSON.stringify(text);
const PAGES = { 'index.md': '# Home\n\nThe hostile brand site.\n', 'about.md': '# About\n\nAbout us.\n' };

describe('menus: links that lead elsewhere, and too many of them', () => {
  const hostile = [
    ['a tab', '/\t/evil.example/tab'],
    ['a line break', '/\n/evil.example/newline'],
    ['a NUL', '/\u0000/evil.example/nul'],
    ['a backslash', '/\\evil.example/backslash'],
    ['a protocol-relative address', '//evil.example/relative'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a line separator', '/\u2028/evil.example/separator'],
  ];
  const siteYaml = [
    SITE_YAML,
    'navigation:',
    ...hostile.map(([label, url]) => `  - { label: ${q(label!)}, url: ${q(url!)} }`),
    ...Array.from({ length: 60 }, (_, n) => `  - { label: "Entry ${n}", url: "/about-${n}" }`),
    'footer:',
    ...Array.from({ length: 20 }, (_, n) => `  - { title: "Column ${n}", links: [/about] }`),
  ].join('\n');

  it('refuses each hostile address with the entry and the rule, and keeps 50 links and 12 columns', async () => {
    const problems = await problemsOf(contentFolder({ ...PAGES, '_site.yaml': siteYaml }));
    for (let entry = 1; entry <= hostile.length; entry++)
      expect(problems).toContainEqual(
        expect.stringContaining(
          `\`navigation\` entry ${entry} needs a url that is a site path (/pricing) or a web address (https://…), without control characters or backslashes`,
        ),
      );
    expect(problems).toContainEqual(
      expect.stringContaining(
        '`navigation` has 68 links, more than the 50 a menu may hold; the first 50 are used',
      ),
    );
    expect(problems).toContainEqual(
      expect.stringContaining(
        '`footer` has 20 columns, more than the 12 a footer may hold; the first 12 are used',
      ),
    );
  });

  it('serves pages whose menus hold none of them, over a socket', async () => {
    const server = await serve(contentFolder({ ...PAGES, '_site.yaml': siteYaml }));
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).not.toContain('evil.example');
    expect(html).not.toMatch(/href="(?:javascript|data):/);
    expect(html).toContain('href="/about-0"');
    // The eight hostile entries came first: 50 kept of 68 ends at the 42nd good one.
    expect(html).toContain('href="/about-41"');
    expect(html).not.toContain('href="/about-42"');
    expect(html.match(/<nav class="footer-nav" aria-label="Column/g)).toHaveLength(12);
  });
});

describe('brand: stylesheet values that would end their declaration, and pictures that are not what they say', () => {
  function brandFolder(): string {
    const outside = tempDir('fd-outside-');
    writeFileSync(
      join(outside, 'secret.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"><text>SMTP_PASSWORD=hunter2</text></svg>',
    );
    const hugeJpeg = Buffer.alloc(MAX_BRAND_FILE_BYTES + 1);
    hugeJpeg.set([0xff, 0xd8, 0xff, 0xe0]);
    const contentDir = contentFolder({
      ...PAGES,
      'brand/logo.png': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'brand/favicon.svg':
        '<?xml version="1.0"?>\n<!-- the mark -->\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="4" height="4"/></svg>',
      'brand/hero.jpg': hugeJpeg,
      '_site.yaml': [
        `name: ${q('Hostile **//} body { display: none } /*')}`,
        'brand:',
        '  logo: brand/logo.png',
        '  favicon: brand/favicon.svg',
        '  socialImage: brand/social.svg',
        '  hero: brand/hero.jpg',
        '  fonts:',
        `    body: ${q('Inter; } body { display: none')}`,
        `    headings: ${q('"Inter, serif')}`,
        '  colours:',
        `    primary: ${q('#0b5c59; } body {')}`,
        `    link: ${q('#2a55a0 */ body {')}`,
      ].join('\n'),
    });
    mkdirSync(join(contentDir, 'brand'), { recursive: true });
    symlinkSync(join(outside, 'secret.svg'), join(contentDir, 'brand', 'social.svg'));
    return contentDir;
  }

  it('reports each refused value and picture with its reason', async () => {
    const problems = await problemsOf(brandFolder());
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/`brand\.fonts` "Inter; } body \{ display: none" must be a list of font names/),
        expect.stringMatching(/`brand\.fonts` ""Inter, serif" must be a list of font names/),
        expect.stringMatching(/`brand\.colours\.primary` must be a colour written #rrggbb/),
        expect.stringMatching(/`brand\.colours\.link` must be a colour written #rrggbb/),
        expect.stringContaining(
          'the brand file "brand/logo.png" is named as png but its bytes are svg: rename it to end in .svg',
        ),
        expect.stringContaining(
          `the brand file "brand/hero.jpg" is ${MAX_BRAND_FILE_BYTES + 1} bytes, over the limit of ${MAX_BRAND_FILE_BYTES} bytes`,
        ),
        expect.stringContaining('the brand file "brand/social.svg" is not a file in the content folder'),
      ]),
    );
  });

  it('serves a stylesheet with one comment and no injected rule, and only the sound picture, sandboxed', async () => {
    const server = await serve(brandFolder());
    const html = await (await fetch(`${server.url}/`)).text();
    const stylesheet = /href="(\/assets\/brand\.css[^"]*)"/.exec(html)?.[1];
    expect(stylesheet).toBeDefined();
    const css = await (await fetch(`${server.url}${stylesheet!.replace(/&amp;/g, '&')}`)).text();
    // One comment, the generator's own: the name inside it could not close it early.
    expect(css.match(/\/\*/g)).toHaveLength(1);
    expect(css.match(/\*\//g)).toHaveLength(1);
    const rules = css.slice(css.indexOf('*/') + 2);
    expect(css.slice(0, css.indexOf('*/'))).toContain('Hostile');
    expect(rules).not.toContain('display');
    expect(rules).not.toContain('Inter');
    expect(rules).not.toContain('#0b5c59');
    expect(rules).toMatch(/^\n:root \{\n {2}--font-sans: system-ui/);

    const favicon = await fetch(`${server.url}/brand/brand/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toBe('image/svg+xml');
    expect(favicon.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    );
    // A brand file is served under /brand/ at its path in the content folder.
    for (const refused of ['logo.png', 'social.svg', 'hero.jpg']) {
      const answer = await fetch(`${server.url}/brand/brand/${refused}`);
      expect(answer.status, refused).toBe(404);
      expect(await answer.text()).not.toContain('hunter2');
    }
    expect(html).not.toContain('/brand/logo.png');
    expect(html).not.toContain('/brand/social.svg');
    expect(html).not.toContain('hunter2');
  });
});

describe('the file itself: too deep, too large, too many problems', () => {
  it('a _site.yaml nested 100,000 levels deep is refused at its line and the site serves its defaults', async () => {
    const contentDir = contentFolder({
      ...PAGES,
      '_site.yaml': `name: Deep\nsameAs: ${'['.repeat(100_000)}\n`,
      'deep.md': `---\ntitle: Still here\nextra: ${'{a: '.repeat(50_000)}1${'}'.repeat(50_000)}\n---\n\nThe page survives.\n`,
    });
    expect(await problemsOf(contentDir)).toEqual([
      `2: not valid YAML, so defaults are used: nested more than ${MAX_YAML_DEPTH} levels deep (lists and mappings inside each other); no file needs that many, so it is not read`,
    ]);
    const { problems } = await loadSite(contentDir);
    expect(
      problems.filter((problem) => problem.file === 'deep.md').map((problem) => problem.message),
    ).toEqual([expect.stringContaining(`nested more than ${MAX_YAML_DEPTH} levels deep`)]);
    const server = await serve(contentDir);
    const page = await fetch(`${server.url}/deep`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Still here');
    expect(html).toContain('The page survives.');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it(`a _site.yaml over ${SITE_INFO_MAX_BYTES} bytes is refused with its size and the limit`, async () => {
    const contentDir = contentFolder({
      ...PAGES,
      '_site.yaml': `${SITE_YAML}# ${'x'.repeat(SITE_INFO_MAX_BYTES)}\n`,
    });
    const size = SITE_INFO_MAX_BYTES + SITE_YAML.length + 3;
    expect(await problemsOf(contentDir)).toEqual([
      `-: the file is ${size} bytes, over the limit of ${SITE_INFO_MAX_BYTES} bytes: it needs far less (its details, menus, brand and forms fill a few KB): remove what is repeated or pasted in; defaults are used`,
    ]);
    // The file may declare forms: the server does not start with the seed's forms in their place.
    await expect(serve(contentDir)).rejects.toThrow(
      `_site.yaml: the file is ${size} bytes, over the limit of ${SITE_INFO_MAX_BYTES} bytes`,
    );
  });

  it('5,000 unknown keys are 50 problems and a count of the rest, in linear time', async () => {
    const contentDir = contentFolder({
      ...PAGES,
      '_site.yaml': SITE_YAML + Array.from({ length: 5000 }, (_, n) => `unknown${n}: ${n}`).join('\n'),
    });
    const problems = await problemsOf(contentDir);
    expect(problems).toHaveLength(51);
    expect(problems).toContain(
      '-: and 4950 more problems like these, not listed: correct the ones above and check again',
    );
    const server = await serve(contentDir);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });

  it('a key repeated 20,000 times is found without comparing every pair', async () => {
    const contentDir = contentFolder({
      ...PAGES,
      '_site.yaml': SITE_YAML + 'name: Again\n'.repeat(20_000),
    });
    const problems = await problemsOf(contentDir);
    expect(problems).toHaveLength(51);
    expect(problems).toContain('10: not valid YAML, so defaults are used: Map keys must be unique');
    expect(problems).toContain(
      '-: and 19950 more problems like these, not listed: correct the ones above and check again',
    );
  });
});

describe('forms: bounds, reserved names and dependent choices that chain', () => {
  const formsYaml = (fields: string[]) =>
    [
      SITE_YAML,
      'forms:',
      '  - id: requestQuote',
      '    title: Request a quote',
      '    fields:',
      '      - { name: email, type: email, label: E-mail, required: true }',
      ...fields,
    ].join('\n');

  it.each([
    [
      'a field named sourcePage, which every form has with its own rule',
      formsYaml(['      - { name: sourcePage, label: Page }']),
      '_site.yaml:16: the field name "sourcePage" is reserved: every form has it already, with its own rule (a path on this site)',
    ],
    [
      'a field named constructor',
      formsYaml(['      - { name: constructor, label: Builder }']),
      '_site.yaml:16: the field name "constructor" is reserved: it is a name every JavaScript object already has',
    ],
    [
      'a dependent list that depends on a dependent list',
      formsYaml([
        '      - { name: service, type: select, label: Service, choices: [audit, review] }',
        '      - { name: phase, type: select, label: Phase, dependsOn: service, choices: { audit: [one], review: [two] } }',
        '      - { name: step, type: select, label: Step, dependsOn: phase, choices: { one: [a], two: [b] } }',
      ]),
      '_site.yaml:18: step depends on phase, which itself depends on service',
    ],
    [
      'two lists that depend on each other',
      formsYaml([
        '      - { name: left, type: select, label: Left, dependsOn: right, choices: { r: [l] } }',
        '      - { name: right, type: select, label: Right, dependsOn: left, choices: { l: [r] } }',
      ]),
      '_site.yaml:16: left depends on right, which itself depends on left',
    ],
    [
      '101 fields',
      formsYaml(Array.from({ length: 100 }, (_, n) => `      - { name: field${n}, label: Field ${n} }`)),
      'the form requestQuote has 101 fields, more than the 100 a form may have',
    ],
    [
      '501 choices',
      formsYaml([
        `      - { name: country, type: select, label: Country, choices: [${Array.from({ length: 501 }, (_, n) => `c${n}`).join(', ')}] }`,
      ]),
      'country has more than the 500 choices a select field may have',
    ],
  ])('start-up stops at %s, naming the file, the line and the rule', async (_what, siteYaml, message) => {
    await expect(serve(contentFolder({ ...PAGES, '_site.yaml': siteYaml }))).rejects.toThrow(message);
  });

  it('51 forms stop start-up', async () => {
    const forms = Array.from({ length: 51 }, (_, n) =>
      [
        `  - id: requestThing${String.fromCharCode(97 + (n % 26))}${String.fromCharCode(97 + Math.floor(n / 26))}`,
        `    title: Thing ${n}`,
        '    fields: [{ name: email, type: email, label: E-mail }]',
      ].join('\n'),
    );
    await expect(
      serve(contentFolder({ ...PAGES, '_site.yaml': [SITE_YAML, 'forms:', ...forms].join('\n') })),
    ).rejects.toThrow('51 forms are more than the 50 a site may have');
  });
});

describe('Accept-Language: only its beginning is read', () => {
  it('a header of 2,000 ranges is read to its 32nd range: a language after that is not seen', async () => {
    const server = await startAskServer(FILES, { cacheSize: 0 });
    try {
      const languagesOf = async (acceptLanguage: string) => {
        const answer = await fetch(`${server.url}/ask?query=archiv`, {
          headers: { 'accept-language': acceptLanguage },
        });
        expect(answer.status).toBe(200);
        return [
          ...new Set(resultsOf((await answer.json()) as NlWebResponse).map((result) => result.inLanguage)),
        ];
      };
      const filler = Array.from({ length: 2000 }, (_, n) => `zz-${n}`);
      expect(await languagesOf(['de', ...filler].join(','))).toEqual(['de']);
      expect(await languagesOf([...filler.slice(0, 30), 'de', ...filler].join(','))).toEqual(['de']);
      expect(await languagesOf([...filler.slice(0, 32), 'de', ...filler].join(','))).not.toContain('de');
    } finally {
      await server.close();
    }
  });
});
