// E-mail through the configured SMTP relay (nodemailer), retried like webhooks when the
// failure may pass: connection trouble or a temporary (4xx) SMTP answer.
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Config } from '../../config.js';
import { type AttemptResult, type RetryPolicy, type SendOutcome, withRetries } from './retry.js';

export const NO_RELAY = 'no SMTP relay configured';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail, policy: RetryPolicy, signals: { stopping: AbortSignal; abort: AbortSignal }): Promise<SendOutcome>;
  close(): void;
}

// Errors nodemailer raises before or outside an SMTP answer that a later attempt may not meet.
const TRANSIENT_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE']);

interface SmtpError {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
}

function classify(err: SmtpError): AttemptResult {
  const code = err.responseCode;
  const text = (err.response ?? err.message ?? String(err)).replace(/\s+/g, ' ').trim().slice(0, 300);
  const error = code ? `SMTP ${code}: ${text}` : `${err.code ? err.code + ': ' : ''}${text}`;
  const retryable = code !== undefined ? code >= 400 && code < 500 : TRANSIENT_CODES.has(err.code ?? '');
  return { ok: false, retryable, error, httpStatus: null };
}

/** A mailer for the relay in `smtp`, or undefined when none is configured. */
export function createMailer(smtp: Config['triggers']['smtp']): Mailer | undefined {
  if (smtp.host === '') return undefined;
  // One message per connection (no pool): sends are few, and the service bounds how many run.
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
    // nodemailer's defaults wait minutes; a relay that does not answer in seconds is down.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    send(mail, policy, signals) {
      const attempt = async (): Promise<AttemptResult> => {
        try {
          // `signal` (nodemailer ≥ 10.5) ends a send in flight when the service stops waiting.
          await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text, signal: signals.abort } as SendMailOptions);
          return { ok: true, retryable: false, error: null, httpStatus: null };
        } catch (err) {
          if (signals.abort.aborted) return { ok: false, retryable: false, error: 'interrupted: the server stopped', httpStatus: null };
          return classify(err as SmtpError);
        }
      };
      return withRetries(attempt, policy, signals.stopping);
    },
    close: () => transport.close(),
  };
}
