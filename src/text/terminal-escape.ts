/**
 * Text made inert for a terminal or a log: a visitor's text may hold C0/C1 control characters
 * (U+009B is a terminal CSI, U+0085 a line break), line and paragraph separators, and bidirectional
 * overrides (U+202E) that reorder what a reader sees.
 */

const TERMINAL_UNSAFE = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const JSON_UNESCAPED_UNSAFE = /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

const hex4 = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text for a terminal, shown as written but inert: every control character (C0, DEL, C1), line
 * separator and bidi control becomes a visible `\uXXXX`.
 */
export function escapeForTerminal(value: string): string {
  return value.replace(TERMINAL_UNSAFE, hex4);
}

/**
 * JSON text for a terminal or a log: JSON.stringify escapes C0 but writes C1, separators and bidi
 * controls raw; here they become `\uXXXX` escapes, which keeps the JSON valid and its values equal.
 */
export function escapeJsonForTerminal(json: string): string {
  return json.replace(JSON_UNESCAPED_UNSAFE, hex4);
}
