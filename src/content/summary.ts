/** Longest description derived from a page's first paragraph, in characters. */
export const DESCRIPTION_MAX_LENGTH = 160;

/**
 * Shortens plain text to at most `max` characters on a word boundary, ending with "…" when cut.
 * A single word longer than the limit is cut inside the word rather than dropped.
 */
export function summarize(text: string, max = DESCRIPTION_MAX_LENGTH): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= max) return collapsed;
  const room = collapsed.slice(0, max - 1);
  const lastSpace = room.lastIndexOf(' ');
  // Cutting at a space that leaves less than half the room would throw away too much text.
  const cut = lastSpace >= max / 2 ? room.slice(0, lastSpace) : room;
  return `${cut.replace(/[\s,;:.\-–—(]+$/u, '')}…`;
}
