/** Small Markdown writers shared by the agent documents (deterministic output, no trailing spaces). */

/** A table cell: one line, pipes escaped, never empty (an empty cell reads as a broken table). */
export function cell(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
  return flat === '' ? '–' : flat;
}

export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${headers.map(cell).join(' | ')} |`,
    `|${headers.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** A fenced code block whose fence is longer than any backtick run inside it. */
export function codeBlock(language: string, text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${text.replace(/\n+$/, '')}\n${fence}`;
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** Text inside `[...]` of a Markdown link. */
export function linkText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/([\\[\]])/g, '\\$1');
}

/** A URL inside `(...)` of a Markdown link: spaces and parentheses would end it early. */
export function linkTarget(url: string): string {
  // encodeURIComponent leaves parentheses alone, so they are written out here.
  return url.replace(/[ ()<>]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function link(text: string, url: string): string {
  return `[${linkText(text)}](${linkTarget(url)})`;
}

/** A single-quoted shell word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Joins blocks with one blank line and ends the document with exactly one newline. */
export function document(blocks: readonly (string | null | false)[]): string {
  return `${blocks
    .filter((block): block is string => typeof block === 'string' && block.trim() !== '')
    .map((block) => block.replace(/[ \t]+$/gm, '').replace(/\n+$/, ''))
    .join('\n\n')}\n`;
}
