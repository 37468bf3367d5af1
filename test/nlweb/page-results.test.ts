import { describe, expect, it } from 'vitest';
import {
  AskResultSchema,
  createValidator,
  type AskResult,
  type NlWebContentItem,
  type NlWebResponse,
} from '../../src/contract/index.js';
import { createAskService } from '../../src/nlweb/index.js';
import { handSite, type HandPage } from './helpers.js';

const validateResult = createValidator(AskResultSchema);
const BASE = 'https://docs.example.test';

function ask(pages: HandPage[], text: string, extra: { scope?: string; maxResults?: number } = {}) {
  const service = createAskService(handSite('Docs', pages), BASE);
  return service.answer(
    { text, maxResults: extra.maxResults ?? 10, conversationId: null, scope: extra.scope },
    'id',
  );
}

function results(answer: NlWebResponse): AskResult[] {
  return answer.content
    .filter((item): item is Extract<NlWebContentItem, { type: 'resource' }> => item.type === 'resource')
    .map((item) => item.resource.data as AskResult);
}

const paths = (answer: NlWebResponse) => results(answer).map((r) => new URL(r.url).pathname);
const summary = (answer: NlWebResponse) => (answer.content[0] as { text: string }).text;

const install = (version: string, extra = ''): HandPage => ({
  url: `/${version}/install`,
  title: 'Installing the agent',
  lead: `Download the agent package, unpack it and run the installer as an administrator.${extra}`,
  sections: [{ heading: 'Upgrading', text: 'Stop the agent service before replacing the binaries.' }],
});
const filler = (version: string, name: string): HandPage => ({
  url: `/${version}/${name}`,
  title: `About ${name}`,
  lead: `Reference notes on ${name}.`,
});

describe('copies of a page (versions, platforms)', () => {
  const versions = [
    install('5.1'),
    install('7.4'),
    install('6.2'),
    filler('7.4', 'logging'),
    filler('7.4', 'tuning'),
    filler('6.2', 'logging'),
  ];

  it('collapse into one result listing the other copies, the main version first on a tie', () => {
    const list = results(ask(versions, 'install the agent'));
    expect(list).toHaveLength(1);
    // 7.4 has the most pages, so its copy stands for the others; then the higher version.
    expect(new URL(list[0]!.url).pathname).toBe('/7.4/install');
    expect(list[0]!.otherCopies).toEqual([
      { url: `${BASE}/6.2/install`, name: 'Installing the agent' },
      { url: `${BASE}/5.1/install`, name: 'Installing the agent' },
    ]);
    expect(validateResult(list[0])).toMatchObject({ ok: true });
  });

  it('give the same answer whatever order the pages come in', () => {
    const a = JSON.stringify(ask(versions, 'installer administrator'));
    const b = JSON.stringify(ask([...versions].reverse(), 'installer administrator'));
    expect(b).toBe(a);
  });

  it('are not merged when the words differ, even with the same title', () => {
    const other = { ...install('5.1'), lead: 'Legacy agents came on a CD with a printed key; call support.' };
    const list = results(ask([other, install('7.4'), filler('7.4', 'x')], 'agent'));
    expect(list.map((r) => new URL(r.url).pathname).sort()).toEqual(['/5.1/install', '/7.4/install']);
    expect(list.every((r) => r.otherCopies === undefined)).toBe(true);
  });

  it('can be searched one version at a time with a scope', () => {
    expect(paths(ask(versions, 'install the agent', { scope: '/5.1/' }))).toEqual(['/5.1/install']);
  });
});

describe('content-aware weighting', () => {
  it('lets a link list weigh little, whether named like one or made of links', () => {
    const pages: HandPage[] = [
      {
        url: '/amendments',
        title: 'Amendments',
        lead: 'Import the amended protocol; the changes are listed section by section.',
        sections: [
          { heading: 'Related reading', text: 'Protocol amendments explained. Amendment checklists.' },
        ],
      },
      {
        url: '/guide',
        title: 'Guide',
        lead: 'Start here.',
        sections: [{ heading: 'Further', text: 'Protocol amendments explained. Amendment checklists.' }],
        markdown:
          'Start here.\n\n## Further\n\n- [Protocol amendments explained](/a)\n- [Amendment checklists](/b)\n',
      },
      {
        url: '/imports',
        title: 'Imports',
        lead: 'When protocol amendments arrive, compare them with the previous version.',
      },
    ];
    const list = results(ask(pages, 'protocol amendments'));
    expect(new URL(list[0]!.url).pathname).not.toBe('/guide');
    const related = list.find((r) => new URL(r.url).pathname === '/amendments')!;
    // The page is found by its own text; its link list comes after it, if at all.
    expect(related.sections[0]!.name).toBe('Amendments');
    const guide = list.find((r) => new URL(r.url).pathname === '/guide');
    const imports = list.find((r) => new URL(r.url).pathname === '/imports')!;
    expect(guide === undefined || guide.score < imports.score).toBe(true);
  });

  it('lands an exact title match on the page, not on a page that repeats the words', () => {
    const pages: HandPage[] = [
      { url: '/audit-trail', title: 'Audit trail', lead: 'Every change is recorded with who and when.' },
      {
        url: '/examples',
        title: 'Examples',
        lead: 'Audit trail export. Audit trail filters. Audit trail retention. The audit trail in reports.',
      },
    ];
    const answer = ask(pages, 'Audit trail');
    expect(paths(answer)[0]).toBe('/audit-trail');
    expect(results(answer)[0]!.url).toBe(`${BASE}/audit-trail`);
  });

  it('searches front-matter aliases, keywords and tags', () => {
    const pages: HandPage[] = [
      {
        url: '/sso',
        title: 'Single sign-on',
        lead: 'Connect your identity provider.',
        aliases: ['SAML login'],
      },
      { url: '/keys', title: 'Keys', lead: 'Rotate keys yearly.', keywords: ['cryptoperiod'] },
      { url: '/other', title: 'Other', lead: 'Nothing of the kind.', tags: ['offboarding'] },
    ];
    expect(paths(ask(pages, 'saml'))).toEqual(['/sso']);
    expect(paths(ask(pages, 'cryptoperiod'))).toEqual(['/keys']);
    expect(paths(ask(pages, 'offboarding'))).toEqual(['/other']);
  });

  it('does not let question phrasing outweigh the subject', () => {
    const pages: HandPage[] = [
      {
        url: '/glossary',
        title: 'Glossary',
        lead: 'Handling: how data is handled. How long retention takes.',
      },
      { url: '/amendments', title: 'Amendments', lead: 'Protocol amendments are imported and compared.' },
      { url: '/rollout', title: 'Rollout', lead: 'Implementation takes six to eight weeks for most teams.' },
    ];
    expect(paths(ask(pages, 'how do you handle protocol amendments'))[0]).toBe('/amendments');
    expect(paths(ask(pages, 'how long does implementation take'))[0]).toBe('/rollout');
  });
});

describe('weak answers and corrections', () => {
  const pages: HandPage[] = [
    { url: '/pricing', title: 'Pricing', lead: 'Plans for teams of every size.' },
    { url: '/security', title: 'Security', lead: 'Data is encrypted at rest and in transit.' },
  ];

  it('says when the best result matches only part of the question', () => {
    const answer = ask(pages, 'quarterly invoice discount teams');
    expect(paths(answer)).toEqual(['/pricing']);
    expect(summary(answer)).toMatch(/^No page on Docs matches “quarterly invoice discount teams” well/);
    expect(summary(ask(pages, 'plans for teams'))).toMatch(/^Found 1 result/);
  });

  it('shows the corrected query first', () => {
    const answer = ask(pages, 'encrytped data');
    expect(summary(answer)).toMatch(/^Showing results for “encrypted data”\. Found 1 result/);
    expect(paths(answer)).toEqual(['/security']);
  });

  it('answers from the second letter typed, and keeps the page as letters are added', () => {
    for (const typed of ['se', 'sec', 'secu', 'secur', 'securi', 'securit', 'security'])
      expect(paths(ask(pages, typed))[0], typed).toBe('/security');
  });
});
