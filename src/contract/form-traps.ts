/**
 * The spam traps of the site's own HTML forms. A field people never see (`HONEYPOT_FIELD`, off
 * screen and out of the tab order) is left empty by people and filled by form-filling bots; and
 * people take seconds to fill a form that a bot posts at once. The enhanced forms send what they
 * saw as two headers to the API (the JSON body stays exactly the contract's); the plain HTML post
 * carries the honeypot field itself.
 *
 * A submission that trips a trap is stored in quarantine, never dropped and never delivered until
 * an operator releases it, and answered exactly as any other (`delivered: false`), so a bot learns
 * nothing from the answer.
 */
export const HONEYPOT_FIELD = 'website';
/** `1` when the form's honeypot field was filled. */
export const HONEYPOT_HEADER = 'form-honeypot';
/** Milliseconds from the form being shown to it being sent. */
export const FILL_TIME_HEADER = 'form-fill-ms';
