/**
 * The one home for making submitted text safe where people read it: e-mail headers and bodies,
 * the operator CLI (table and JSON) and the server log. A visitor's text may hold C0/C1 control
 * characters (U+009B is a terminal CSI, U+0085 a line break), line and paragraph separators, and
 * bidirectional overrides (U+202E) that reorder what a reader sees.
 */

/** Bidirectional formatting characters: marks, embeddings, overrides and isolates. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]+/gu;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_NEWLINE_AND_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/gu;

/**
 * One line of plain text: control characters (C0 and C1) and line separators become spaces,
 * bidi controls are removed, white space is collapsed. For headers, names and table cells.
 */
export function singleLine(value: string): string {
  return value.replace(BIDI_CONTROLS, '').replace(LINE_BREAKING, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * `=?` opens an RFC 2047 encoded word (`=?utf-8?q?Eve=0D=0ABcc:...?=`), which mail readers decode
 * in a Subject or an address's display name, even inside quotes, into any character at all: a
 * CR/LF with a forged header, a bidi override, a quoted second address. Submitted text is ASCII
 * here when it carries one, so nodemailer passes it to the header as it is.
 */
const ENCODED_WORD_START = /=\?/g;

/**
 * Submitted text for a mail header (Subject, the Reply-To display name): one line as `singleLine`
 * makes it, with every `=?` written `= ?`, which no reader decodes, so the reader sees the text as
 * it was sent. The header's own encoding of non-ASCII text is nodemailer's, from this safe text.
 */
export function headerText(value: string): string {
  return singleLine(value).replace(ENCODED_WORD_START, '= ?');
}

/** Free text that may keep its line breaks (a message): CRLF and CR become LF, other controls and bidi controls go. */
export function multiLine(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(BIDI_CONTROLS, '').replace(CONTROLS_BUT_NEWLINE_AND_TAB, ' ');
}
