/**
 * Which sections of a page are link lists ("Related", "See also", a list of links to other pages):
 * search weighs them little. Worked out from the parsed Markdown as it is walked (renderMarkdown),
 * so loading a page renders no HTML and answering never renders a page.
 *
 * A section runs from one heading (any level) to the next; the text before the first heading is
 * the section null. Text is counted as the page's HTML shows it: characters other than
 * whitespace, with `&`, `<`, `>` and `"` as the entities the HTML writes for them (the measure
 * this used when it read the rendered HTML, kept so no page's sections changed).
 */

/** Share of a section's text inside links (with at least two links) that makes it a link list. */
const LINKED_SHARE = 0.6;

/** Whether a UTF-16 unit is whitespace as JavaScript's \s has it (which does not count). */
function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** The length of `text` as counted: non-whitespace UTF-16 units, `&<>"` as their HTML entities. */
export function shownLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 38 /* & */) length += 5;
    else if (code === 60 /* < */ || code === 62 /* > */) length += 4;
    else if (code === 34 /* " */) length += 6;
    else if (!isWhitespace(code)) length += 1;
  }
  return length;
}

export class LinkListTally {
  readonly #found: (string | null)[] = [];
  #anchor: string | null = null;
  #total = 0;
  #linked = 0;
  #links = 0;

  /** A heading starts a new section (its own text is not part of it). */
  heading(anchor: string): void {
    this.#close();
    this.#anchor = anchor;
  }

  /** Shown text of the section, inside a link or not. */
  text(text: string, inLink: boolean): void {
    const length = shownLength(text);
    this.#total += length;
    if (inLink) this.#linked += length;
  }

  link(): void {
    this.#links += 1;
  }

  /** The anchors of the sections that are link lists, in page order. */
  anchors(): (string | null)[] {
    this.#close();
    return this.#found;
  }

  #close(): void {
    if (this.#links >= 2 && this.#total > 0 && this.#linked / this.#total >= LINKED_SHARE)
      this.#found.push(this.#anchor);
    this.#total = this.#linked = this.#links = 0;
  }
}
