/**
 * The starter site `frontdoor init` writes: a configuration and the pages every company site
 * needs, each written to be replaced. Kept as text here so the bundle (dist/cli/main.js) carries it.
 */

function page(frontMatter: Record<string, string | number>, body: string): string {
  const lines = Object.entries(frontMatter).map(([key, value]) =>
    typeof value === 'number' ? `${key}: ${value}` : `${key}: ${JSON.stringify(value)}`,
  );
  return `---\n${lines.join('\n')}\n---\n\n${body.trim()}\n`;
}

/** A readable company name from the folder name: `my-site` → "My Site". */
export function nameFromFolder(folder: string): string {
  const words = folder
    .replace(/[-_.]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return 'My Company';
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

/** Path (relative, `/`-separated) → text, for a company called `name`. */
export function starterFiles(name: string): Record<string, string> {
  return {
    '_site.yaml': [
      '# Your company, as every page, search answer and agent document names it.',
      '# Make it yours: docs/make-it-yours.md in the Frontdoor repository walks through every key.',
      `name: ${JSON.stringify(name)}`,
      `legalName: ${JSON.stringify(`${name} Ltd`)}`,
      'tagline: One sentence on what you do for whom.',
      'description: >-',
      `  ${name} helps its customers do one thing well. Replace this with two sentences a visitor understands.`,
      'contactEmail: hello@example.com',
      'salesEmail: sales@example.com',
      'address: 1 Example Street, Example Town',
      'sameAs: []',
      '# The language the pages are written in (en, de, fr, ja, pt-BR, …): Frontdoor speaks it where it can',
      '# and searches by its rules. Pages in a folder named for a language (de/, ja/) are in that one.',
      'language: en',
      '',
      '# How the site looks. Pictures are files in this folder; colours are checked for contrast.',
      'brand:',
      '  colours:',
      "    primary: '#2f4f7f'",
      "    buttonText: '#ffffff'",
      "    text: '#1d2733'",
      "    background: '#ffffff'",
      "    link: '#2a55a0'",
      "    accent: '#e2a93b'",
      '  # logo: { file: logo.svg, alt: "' + name + '" }',
      '  # favicon: favicon.svg',
      '  # socialImage: { file: social.png, alt: "' + name + '" }',
      '',
      '# The header menu; without it, the top-level pages are listed.',
      'navigation:',
      '  - /pricing',
      '  - /docs/',
      '  - /about',
      '',
      '# The footer; without it, pricing, about, contact, privacy and terms pages are listed when they exist.',
      'footer:',
      '  - title: Company',
      '    links: [/about, /pricing, /contact, /privacy]',
      '',
    ].join('\n'),
    'index.md': page(
      { title: `Welcome to ${name}`, description: `What ${name} does, for whom, in one sentence.` },
      `
This is your home page. Say what you offer and who it is for, then lead visitors to the page that
answers their next question: [pricing](/pricing), [the documentation](/docs/) or [a demo](/demo).

## What we do

Replace this paragraph with the problem you solve and how.

## Who it is for

Name the people who buy from you, and what changes for them.
`,
    ),
    'pricing.md': page(
      { title: 'Pricing', description: `How ${name} is priced, and what each plan includes.` },
      `
Say how you charge (per seat, per project, a quote after a call) and what every plan includes.

## Plans

| Plan | For | Price |
| --- | --- | --- |
| Starter | One team | Ask us |
| Business | Several teams | Ask us |

[Request a demo](/demo) to get a quote.
`,
    ),
    'about.md': page(
      { title: `About ${name}`, description: `Who we are and why we started ${name}.` },
      `
Tell the story of the company in a few paragraphs: who founded it, why, and where you are.
`,
    ),
    'contact.md': page(
      { title: 'Contact us', description: `How to reach ${name}.` },
      `
Write to [hello@example.com](mailto:hello@example.com), or [request a demo](/demo) and we will
reply within one working day.
`,
    ),
    'privacy.md': page(
      {
        title: 'Privacy notice',
        description: `How ${name} handles the personal data this website collects.`,
      },
      `
This website collects your name, e-mail address and what you write when you request a demo, so
that we can answer you. Replace this notice with your own: what you collect, why, the legal basis,
how long you keep it, who receives it, and how a visitor asks you to see or erase it.
`,
    ),
    'demo.md': page(
      {
        title: 'Request a demo',
        description: `Ask for a demo of ${name}. Tell us about your team and we will tailor it.`,
        form: 'demo',
      },
      `
Tell us a little about your team with the form on this page, and we will prepare a session for it.
`,
    ),
    'docs/index.md': page(
      { title: 'Documentation', description: `How to get started with ${name}.` },
      `
Every page in this folder is documentation: search answers and agents find it as such.

## Getting started

Describe the first three steps a new customer takes.
`,
    ),
  };
}
