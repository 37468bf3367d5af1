/**
 * An llms.txt parser written from the llmstxt.org specification and following its reference parser
 * (`llms_txt.parse_llms_file`): the text is split at every `## ` line; the part before the first
 * one must be `# Title`, an optional `> summary` line and free prose; every section is a list whose
 * every non-empty line is `- [title](url)` with an optional `: description`. The reference parser
 * fails on any other line in a section, and so does this one.
 */

export interface LlmsLink {
  title: string;
  url: string;
  description: string | null;
}

export interface LlmsFile {
  title: string;
  summary: string | null;
  info: string;
  sections: Map<string, LlmsLink[]>;
}

// The reference parser's patterns, transcribed.
const SECTION_SPLIT = /^##\s*(.*?)$/m;
const HEADER = /^#\s*(?<title>.+?)$\n+(?:^>\s*(?<summary>.+?)$)?\n+(?<info>[\s\S]*)/m;
const LINK = /^-\s*\[(?<title>[^\]]+)\]\((?<url>[^)]+)\)(?::\s*(?<desc>.*))?$/;

export class LlmsParseError extends Error {}

export function parseLlmsTxt(text: string): LlmsFile {
  const parts = text.split(new RegExp(SECTION_SPLIT.source, 'gm'));
  const start = parts[0]!.trim();
  if (!start.startsWith('# ') || start.startsWith('##'))
    throw new LlmsParseError('the file must start with an H1 (`# Name`)');
  const header = HEADER.exec(`${start}\n`);
  if (!header?.groups) throw new LlmsParseError('the H1 must be followed by a blank line or the summary');
  const info = header.groups.info!.trim();
  if (/^#/m.test(info))
    throw new LlmsParseError('the prose before the first section must not contain headings');

  const sections = new Map<string, LlmsLink[]>();
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!.trim();
    const body = parts[i + 1] ?? '';
    if (sections.has(name)) throw new LlmsParseError(`section "${name}" appears twice`);
    const links: LlmsLink[] = [];
    for (const line of body.split(/\n+/).map((l) => l.trim())) {
      if (line === '') continue;
      const match = LINK.exec(line);
      if (!match?.groups)
        throw new LlmsParseError(`section "${name}" has a line that is not a link list item: ${line}`);
      links.push({
        title: match.groups.title!,
        url: match.groups.url!,
        description: match.groups.desc ?? null,
      });
    }
    sections.set(name, links);
  }
  return {
    title: header.groups.title!.trim(),
    summary: header.groups.summary?.trim() ?? null,
    info,
    sections,
  };
}
