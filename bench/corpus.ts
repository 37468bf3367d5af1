/**
 * A small, separate reader for the docs corpus (OWASP cheat sheets and tldr pages): each Markdown
 * file becomes passages split at `#`, `##` and `###` headings (outside fenced code), with the page
 * title (first `# ` heading), the heading path below it ("Section > Subsection") and the section's
 * text with the Markdown markup removed. The real content loader (src/content/) will replace this;
 * keep this file self-contained so the switch is one import.
 */

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { SearchDocument } from '../src/search/index.js';

export interface CorpusPage {
  /** Path relative to the corpus folder, with forward slashes. */
  path: string;
  title: string;
  /** The first `> ` line (tldr's one-line description), if any. */
  description: string;
}

export interface Corpus {
  pages: CorpusPage[];
  passages: SearchDocument[];
}

function listMarkdown(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listMarkdown(dir, r));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(r);
  }
  return out;
}

/** Markdown inline and block markup → plain text (good enough for indexing and snippets). */
export function plainText(md: string): string {
  return (
    md
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>\n]+>/g, ' ')
      .replace(/\{\{([^}]*)\}\}/g, '$1')
      // tldr marks mnemonic letters: "[c]reate", "E[x]tract".
      .replace(/\[([A-Za-z])\](?=\w)|(?<=\w)\[([A-Za-z])\]/g, '$1$2')
      .replace(/^\s{0,3}(?:>|[-*+]|\d+[.)])\s+/gm, '')
      .replace(/^\s*\|?[-:| ]+\|[-:| ]*$/gm, ' ')
      .replace(/\|/g, ' ')
      .replace(/[`*]+|(?<!\w)_+|_+(?!\w)/g, '')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n{2,}/g, '\n')
      .trim()
  );
}

const HEADING_RE = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE_RE = /^\s{0,3}(`{3,}|~{3,})/;

/** Split one Markdown file into passages. */
export function splitPage(relPath: string, md: string): { page: CorpusPage; passages: SearchDocument[] } {
  const lines = md.split(/\r?\n/);
  let title = '';
  let description = '';
  const stack: string[] = [];
  const passages: SearchDocument[] = [];
  let current: string[] = [];
  let currentPath = '';
  let fence: string | null = null;
  const flush = (): void => {
    const body = plainText(current.join('\n'));
    if (body.length > 0 || currentPath.length > 0) {
      passages.push({
        key: `${relPath}#${passages.length}`,
        fields: { title, headings: currentPath, body },
      });
    }
    current = [];
  };
  for (const line of lines) {
    const f = FENCE_RE.exec(line);
    if (f) {
      const marker = (f[1] as string)[0] as string;
      if (fence === null) fence = marker;
      else if (fence === marker) fence = null;
      current.push(line.replace(FENCE_RE, ''));
      continue;
    }
    const h = fence === null ? HEADING_RE.exec(line) : null;
    if (h && (h[1] as string).length <= 3) {
      const level = (h[1] as string).length;
      const text = plainText(h[2] as string);
      if (level === 1 && title === '') {
        title = text;
        continue;
      }
      flush();
      // Heading path below the title: level 2 and 3 headings (a later `#` starts a new top).
      stack.length = Math.max(0, level - 2);
      if (level >= 2) stack[level - 2] = text;
      currentPath = stack.filter((s) => s).join(' > ');
      continue;
    }
    if (!description && line.startsWith('> ')) description = plainText(line);
    current.push(line);
  }
  flush();
  // Passages before the title was known (rare) get it too.
  for (const p of passages) if (!p.fields.title) p.fields.title = title;
  return { page: { path: relPath, title, description }, passages };
}

/** Read the docs corpus: every `.md` under the given sub-folders, in sorted path order. */
export function loadDocsCorpus(root: string, folders = ['owasp-cheatsheets', 'tldr-pages']): Corpus {
  const pages: CorpusPage[] = [];
  const passages: SearchDocument[] = [];
  for (const folder of folders) {
    for (const rel of listMarkdown(path.join(root, folder)).sort()) {
      const relPath = `${folder}/${rel}`;
      const { page, passages: ps } = splitPage(relPath, readFileSync(path.join(root, relPath), 'utf8'));
      pages.push(page);
      passages.push(...ps);
    }
  }
  return { pages, passages };
}
