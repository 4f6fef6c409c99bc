// A local SMTP server (smtp-server) that keeps every message it is given, decoded enough for a
// test to read the envelope, the subject and the plain-text body.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
}

export interface SmtpSink {
  host: string;
  port: number;
  mails: SunkMail[];
  /** Answers RCPT TO with this SMTP code (e.g. 450 temporary, 550 permanent) while set. */
  refuseRecipients(code: number | undefined): void;
  waitFor(count: number, withinMs?: number): Promise<SunkMail[]>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = Buffer.from(s.replace(/=\r?\n/g, ''), 'latin1').toString('latin1');
  const out = bytes.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(out, 'latin1').toString('utf8');
}

/** A single-part message: unfolded headers, then the body by its transfer encoding. */
function parse(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  let body = raw.slice(split + 4);
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  else if (encoding === 'base64') body = Buffer.from(body, 'base64').toString('utf8');
  return { headers, text: body.replace(/\r\n/g, '\n') };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const waiters = new Set<() => void>();
  let refuseWith: number | undefined;
  const server = new SMTPServer({
    // Plain SMTP on loopback: no TLS to negotiate, no sign-in.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refuseWith === undefined) return callback();
      const err = new Error(refuseWith >= 500 ? 'mailbox unavailable' : 'try again later') as Error & { responseCode: number };
      err.responseCode = refuseWith;
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const { headers, text } = parse(Buffer.concat(chunks).toString('utf8'));
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          headers,
          subject: headers.subject ?? '',
          text,
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    mails,
    refuseRecipients: (code) => void (refuseWith = code),
    waitFor(count, withinMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (mails.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve([...mails]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`smtp sink: ${mails.length} of ${count} messages within ${withinMs} ms`));
        }, withinMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
