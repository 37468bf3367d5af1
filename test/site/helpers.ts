/** Readers of the site's HTML for the site tests, and a page file from front matter and body. */

export function page(frontMatter: Record<string, string | number>, body: string): string {
  const lines = Object.entries(frontMatter).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join('\n')}\n---\n\n${body}\n`;
}

/** Every `<script>` element's opening tag. */
export function scriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map((match) => match[0]);
}

/** The JSON-LD data block of a page, parsed. */
export function jsonLdOf(html: string): unknown {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no JSON-LD block');
  return JSON.parse(match[1]!);
}

/** The names of every attribute of every start tag (quoted values removed first). */
export function attributeNames(html: string): string[] {
  const names: string[] = [];
  for (const [tag] of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
    const bare = tag.replace(/"[^"]*"|'[^']*'/g, '""');
    for (const match of bare.matchAll(/\s([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?==|\s|\/?>)/g))
      names.push(match[1]!.toLowerCase());
  }
  return names;
}
