import { createRequire } from 'node:module';
import type nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { isEmailAddress } from '../../contract/index.js';
import { emailHtml, emailSubject, emailText, replyToName } from '../message.js';
import type { SubmissionKind } from '../types.js';
import type { AttemptResult, DeliveryProvider, FormLookup } from './types.js';

export interface EmailProviderOptions {
  smtpUrl: string;
  from: string;
  recipients: Record<SubmissionKind, string[]>;
  /** Domain for Message-IDs (the public site's host). */
  messageIdDomain: string;
  attemptTimeoutMs: number;
  /** The configured form a submission came from (its words and field labels), if any. */
  formOf?: FormLookup;
}

/**
 * `email-service`: one SMTP session per attempt. Recipients come from the configuration only; the
 * visitor's address goes into Reply-To as a validated {name, address} pair, never as a string a
 * comma or CRLF could turn into more recipients or headers. The Message-ID is derived from the
 * submission id, so a retried message is recognisable as the same one.
 */
export function createEmailProvider(options: EmailProviderOptions): DeliveryProvider {
  // Required here, not imported at start-up: only a server that sends e-mail loads nodemailer
  // (~13 MB and ~0.2 s). A synchronous require keeps this function synchronous.
  const mailer = createRequire(import.meta.url)('nodemailer') as typeof nodemailer;
  // nodemailer's defaults wait minutes; every phase is capped by the attempt budget.
  const transport = mailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: options.attemptTimeoutMs,
    greetingTimeout: options.attemptTimeoutMs,
    socketTimeout: options.attemptTimeoutMs,
    dnsTimeout: options.attemptTimeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  } as SMTPTransport.Options);

  /**
   * Sends cut off by the attempt's time cap, by submission id. The relay may still answer 250
   * afterwards (the message was sent, only the reply was late): later attempts wait for that answer
   * (each within its own cap) instead of sending the message again, for at most
   * LATE_ANSWER_ATTEMPTS attempt durations; after that the send is given up and the message resent.
   */
  const unsettled = new Map<string, { sending: Promise<AttemptResult>; startedAtMs: number }>();
  const lateAnswerWindowMs = LATE_ANSWER_ATTEMPTS * options.attemptTimeoutMs;

  return {
    name: 'email-service',
    deliver: async (submission, _attempt, signal) => {
      const previous = unsettled.get(submission.id);
      if (previous && Date.now() - previous.startedAtMs > lateAnswerWindowMs) unsettled.delete(submission.id);
      else if (previous) {
        const earlier = await Promise.race([previous.sending, aborted(signal)]);
        if (earlier === TIMED_OUT) return TIMED_OUT;
        unsettled.delete(submission.id);
        if (earlier.outcome === 'delivered' || signal.aborted) return earlier;
      }
      const form = options.formOf?.(submission);
      const email = submission.fields.email;
      const replyName = submission.kind === 'lead' ? replyToName(submission) : '';
      const replyTo = email && isEmailAddress(email) ? { name: replyName, address: email } : undefined;
      const sending = transport
        .sendMail({
          from: options.from,
          to: options.recipients[submission.kind],
          ...(replyTo ? { replyTo } : {}),
          subject: emailSubject(submission, form),
          text: emailText(submission, form),
          html: emailHtml(submission, form),
          messageId: `<${submission.id}@${options.messageIdDomain}>`,
          date: new Date(submission.receivedAtMs),
          headers: { 'X-Frontdoor-Submission': submission.id },
        })
        .then((): AttemptResult => ({ outcome: 'delivered' }), classifySmtpError);
      // The socket timeout only measures silence; a relay trickling bytes is cut off here.
      const result = await Promise.race([sending, aborted(signal)]);
      if (result !== TIMED_OUT) return result;
      const entry = { sending, startedAtMs: Date.now() };
      unsettled.set(submission.id, entry);
      // Forgotten if no later attempt asks (the row was completed elsewhere).
      setTimeout(() => {
        if (unsettled.get(submission.id) === entry) unsettled.delete(submission.id);
      }, lateAnswerWindowMs + options.attemptTimeoutMs).unref();
      return result;
    },
    close: async () => transport.close(),
  };
}

/** How many attempt durations a cut-off send's late answer is waited for before resending. */
const LATE_ANSWER_ATTEMPTS = 4;

/** The result of an attempt cut off by its time cap (one object, so it can be told apart). */
const TIMED_OUT: AttemptResult = Object.freeze({
  outcome: 'retry',
  errorClass: 'timeout',
  retryAfterMs: null,
});

function aborted(signal: AbortSignal): Promise<AttemptResult> {
  return new Promise((resolve) => {
    const done = () => resolve(TIMED_OUT);
    if (signal.aborted) done();
    else signal.addEventListener('abort', done, { once: true });
  });
}

/** SMTP 5xx is a refusal that will not change; 4xx and transport failures may pass later. */
export function classifySmtpError(error: unknown): AttemptResult {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode === 'number' && responseCode >= 500)
    return { outcome: 'permanent', errorClass: `smtp_${responseCode}` };
  if (typeof responseCode === 'number' && responseCode >= 400)
    return { outcome: 'retry', errorClass: `smtp_${responseCode}`, retryAfterMs: null };
  switch (code) {
    case 'ETIMEDOUT':
      return { outcome: 'retry', errorClass: 'timeout', retryAfterMs: null };
    case 'ECONNECTION':
    case 'ESOCKET':
      return { outcome: 'retry', errorClass: 'connection', retryAfterMs: null };
    case 'EDNS':
      return { outcome: 'retry', errorClass: 'dns', retryAfterMs: null };
    default:
      return {
        outcome: 'retry',
        errorClass:
          typeof code === 'string' && /^E[A-Z]+$/.test(code) ? `smtp_${code.toLowerCase()}` : 'smtp_error',
        retryAfterMs: null,
      };
  }
}
