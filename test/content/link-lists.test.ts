import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

import { renderMarkdown } from '../../src/content/index.js';
import { shownLength } from '../../src/content/link-lists.js';
import { REPO_ROOT } from '../support/files.js';

/**
 * The measure as it was first written, on the rendered HTML: the walk over the parsed Markdown
 * must find the same link-list sections on every page.
 */
function linkListAnchorsFromHtml(html: string): (string | null)[] {
  const textLength = (part: string) => part.replace(/<[^>]+>/g, '').replace(/\s+/g, '').length;
  const chunks: { anchor: string | null; html: string }[] = [];
  let last = 0;
  let anchor: string | null = null;
  for (const m of html.matchAll(/<h[1-6][^>]*\sid="([^"]*)"[^>]*>/g)) {
    chunks.push({ anchor, html: html.slice(last, m.index) });
    anchor = m[1] ?? null;
    last = m.index + m[0].length;
  }
  chunks.push({ anchor, html: html.slice(last) });
  const out: (string | null)[] = [];
  for (const chunk of chunks) {
    const body = chunk.anchor === null ? chunk.html : chunk.html.replace(/^[\s\S]*?<\/h[1-6]>/, '');
    const total = textLength(body);
    let linked = 0;
    let links = 0;
    for (const m of body.matchAll(/<a\s[^>]*>([\s\S]*?)<\/a>/g)) {
      links++;
      linked += textLength(m[1] ?? '');
    }
    if (links >= 2 && total > 0 && linked / total >= 0.6) out.push(chunk.anchor);
  }
  return out;
}

const CASES: Record<string, string> = {
  'a list before any heading': '- [One](/one)\n- [Two](/two)\n\n# Title\n\nText.\n',
  'see also under an h4':
    '## Guide\n\nLong text about kettles and water.\n\n#### More\n\n- [A](/a)\n- [B](/b)\n',
  'entities and quotes count as the HTML writes them':
    '## Links\n\n[a & b](/x) [c](/y) "&&&&&&&&&&&&&&&&" <<<>>>\n\n## Next\n\n[x](/1) [y](/2) &amp;&copy;\n',
  'code counts, images do not':
    '## Code\n\n[a](/a) [b](/b)\n\n```\nlong code block here\n```\n\n## Pictures\n\n[![alt text](/i.png)](/a) [b](/b) ![more alt](/j.png)\n',
  'bare URLs are links':
    '## Refs\n\nhttps://example.com/a https://example.com/b and\n\n## Headings in lists\n\n- # [x](/x)\n- [y](/y) [z](/z)\n',
  'a heading link is its own text':
    '## [Linked heading](/h)\n\n[a](/a) [b](/b) words words words words words\n',
  'tables and breaks':
    '## Table\n\n| [a](/a) | [b](/b) |\n|---|---|\n| x | y |\n\n## Break\n\n[a](/a)  \n[b](/b)\\\nc\n',
};

function sampleSiteFiles(): [string, string][] {
  const root = join(REPO_ROOT, 'content');
  const out: [string, string][] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) out.push([relative(root, path), readFileSync(path, 'utf8')]);
    }
  };
  walk(root);
  return out;
}

describe('link-list sections', () => {
  it.each(Object.entries(CASES))('%s: as read from the HTML', (_name, markdown) => {
    const rendered = renderMarkdown(markdown, { titleFromHeading: true });
    expect(rendered.linkListAnchors).toEqual(linkListAnchorsFromHtml(rendered.html));
  });

  it('finds them on the sample site as the HTML did, and without rendering it', () => {
    let found = 0;
    for (const [path, text] of sampleSiteFiles()) {
      const body = text.replace(/^---\n[\s\S]*?\n---\n/, '');
      const rendered = renderMarkdown(body, { sourcePath: path, titleFromHeading: true });
      expect(rendered.linkListAnchors, path).toEqual(linkListAnchorsFromHtml(rendered.html));
      expect(renderMarkdown(body, { sourcePath: path, titleFromHeading: true, html: false })).toEqual({
        ...rendered,
        html: '',
      });
      found += rendered.linkListAnchors.length;
    }
    expect(found).toBeGreaterThan(0);
  });

  it('are the sections with two links or more making up most of their text', () => {
    const { linkListAnchors } = renderMarkdown(
      '## Prose\n\nA [link](/a) in a sentence that goes on and on about it.\n\n## See\n\n- [One page](/one)\n- [Another page](/two)\n\n## One link\n\n[Only](/only)\n',
    );
    expect(linkListAnchors).toEqual(['see']);
  });
});

describe('shownLength', () => {
  it('counts what the HTML shows: no whitespace (as \\s has it), entities for & < > "', () => {
    for (let code = 0; code <= 0xffff; code += 1) {
      const char = String.fromCharCode(code);
      const escaped = char.replace(
        /[&<>"]/g,
        (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!,
      );
      expect(shownLength(char), `U+${code.toString(16)}`).toBe(escaped.replace(/\s+/g, '').length);
    }
    expect(shownLength('a 😀\tb&')).toBe(9);
  });
});
