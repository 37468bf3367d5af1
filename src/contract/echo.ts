/**
 * The one bound on what an error message repeats of the caller's request (a field value, a
 * parameter, a header, a field name, a path): at most MAX_ECHOED_CHARACTERS code points, then
 * `…`. An answer is then never much larger than its request, whatever was sent (an 8,000-character
 * Content-Type used to come back whole).
 */
export const MAX_ECHOED_CHARACTERS = 60;

/** The caller's value as an error message shows it: cut at MAX_ECHOED_CHARACTERS code points. */
export function echoed(value: unknown): string {
  const text = String(value);
  // Cheap test first; the code point walk only for long values (a cut never splits a surrogate pair).
  if (text.length <= MAX_ECHOED_CHARACTERS) return text;
  const points = Array.from(text);
  return points.length <= MAX_ECHOED_CHARACTERS
    ? text
    : `${points.slice(0, MAX_ECHOED_CHARACTERS).join('')}…`;
}

/** `"value"`, cut as `echoed` cuts it. */
export function quoted(value: unknown): string {
  return `"${echoed(value)}"`;
}
