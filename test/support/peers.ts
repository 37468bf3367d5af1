/**
 * Real delivery peers on 127.0.0.1 for the outbox's providers: an SMTP relay, a webhook receiver,
 * a TCP peer that never speaks; and readers for what they received (mail headers and parts,
 * Standard Webhooks signatures). Each peer's behaviour is switched by plain fields the test sets.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

// ---------------------------------------------------------------- SMTP

export interface ReceivedMail {
  mailFrom: string;
  recipients: string[];
  raw: string;
}

type SmtpReply = { code: number; message: string } | null;

export interface SmtpPeer {
  port: number;
  url: string;
  /** Messages the peer accepted. */
  accepted: ReceivedMail[];
  /** Every DATA the peer received, accepted or refused (to compare retries). */
  received: ReceivedMail[];
  connections: number;
  /** Decides the answer to DATA (null = accept). */
  onData: (mail: ReceivedMail) => SmtpReply;
  onRecipient: (address: string) => SmtpReply;
  /** While true, new connections get no greeting (a hung relay). */
  hang: boolean;
  /** Delay before the answer to DATA (a relay that says 250 late, after the message is in). */
  dataReplyDelayMs: number;
  close(): Promise<void>;
}

function smtpError(reply: { code: number; message: string }): Error {
  return Object.assign(new Error(reply.message), { responseCode: reply.code });
}

/** A real SMTP server (the `smtp-server` package) without TLS or authentication. */
export async function startSmtpPeer(port = 0): Promise<SmtpPeer> {
  const held: (() => void)[] = [];
  const peer: SmtpPeer = {
    port: 0,
    url: '',
    accepted: [],
    received: [],
    connections: 0,
    onData: () => null,
    onRecipient: () => null,
    hang: false,
    dataReplyDelayMs: 0,
    close: async () => undefined,
  };
  const options: SMTPServerOptions = {
    secure: false,
    hideSTARTTLS: true,
    authOptional: true,
    disabledCommands: ['AUTH'],
    logger: false,
    onConnect(_session, callback) {
      peer.connections += 1;
      if (peer.hang) held.push(() => callback());
      else callback();
    },
    onRcptTo(address, _session, callback) {
      const reply = peer.onRecipient(address.address);
      callback(reply ? smtpError(reply) : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail: ReceivedMail = {
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        peer.received.push(mail);
        const reply = peer.onData(mail);
        const answer = () => {
          if (reply) callback(smtpError(reply));
          else {
            peer.accepted.push(mail);
            callback();
          }
        };
        if (peer.dataReplyDelayMs > 0) setTimeout(answer, peer.dataReplyDelayMs);
        else answer();
      });
    },
  };
  const server = new SMTPServer(options);
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  peer.port = (server.server.address() as AddressInfo).port;
  peer.url = `smtp://127.0.0.1:${peer.port}`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      for (const release of held.splice(0)) release();
      server.close(() => resolve());
    });
  return peer;
}

/** A TCP peer that accepts connections and never says anything. */
export async function startSilentPeer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The header section of a raw message, unfolded, as [name, value] pairs in order. */
export function mailHeaders(raw: string): [string, string][] {
  const head = raw.split(/\r?\n\r?\n/)[0]!;
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return unfolded.split(/\r?\n/).map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
  });
}

export function mailHeader(raw: string, name: string): string[] {
  return mailHeaders(raw)
    .filter(([key]) => key === name.toLowerCase())
    .map(([, value]) => value);
}

/** The addresses in an address header, ignoring display names (quoted strings, encoded words). */
export function headerAddresses(value: string): string[] {
  const withoutNames = value.replace(/"(?:[^"\\]|\\.)*"/g, ' ').replace(/=\?[^?]+\?[bBqQ]\?[^?]*\?=/g, ' ');
  return [...withoutNames.matchAll(/[^\s<>,;:"]+@[^\s<>,;:"]+/g)].map((match) => match[0]);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;

/**
 * A header value as a lenient mail reader shows it: every RFC 2047 encoded word decoded, wherever
 * it stands (inside a quoted display name too, as many readers do), the white space between two
 * adjacent encoded words dropped (RFC 2047 6.2). Written from the RFC, apart from the sender's code.
 */
export function decodeEncodedWords(value: string): string {
  const joined = value.replace(/(\?=)\s+(?==\?)/g, '$1');
  return joined.replace(ENCODED_WORD, (_m, charset: string, encoding: string, text: string) => {
    const bytes =
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_e, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          );
    return new TextDecoder(charset.split('*')[0]!.toLowerCase()).decode(bytes);
  });
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The decoded body of the first MIME part with this content type. */
export function mailPart(raw: string, contentType: 'text/plain' | 'text/html'): string | null {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]!);
  for (const boundary of boundaries) {
    for (const part of raw.split(`--${boundary}`)) {
      const [head, ...rest] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      if (!head || !new RegExp(`content-type:\\s*${contentType}`, 'i').test(head)) continue;
      const body = rest.join('\r\n\r\n');
      const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
      if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
      return body;
    }
  }
  return null;
}

// ---------------------------------------------------------------- webhooks

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  body: string;
  atMs: number;
}

export interface HookReply {
  status: number;
  headers?: Record<string, string>;
  /** Never answer (until the peer is closed). */
  hang?: boolean;
}

export interface WebhookPeer {
  url: string;
  received: ReceivedHook[];
  reply: (hook: ReceivedHook) => HookReply;
  /** Requests being answered right now, by webhook-id (to catch concurrent deliveries). */
  inFlight: Map<string, number>;
  maxConcurrentPerId: number;
  /** Delay before answering, to widen the window in which a concurrent duplicate would show. */
  delayMs: number;
  /** The clock `atMs` is read from (a test's stepped clock, to compare with the server's). */
  now: () => number;
  close(): Promise<void>;
}

export async function startWebhookPeer(): Promise<WebhookPeer> {
  const hanging = new Set<ServerResponse>();
  const peer: WebhookPeer = {
    url: '',
    received: [],
    reply: () => ({ status: 204 }),
    inFlight: new Map(),
    maxConcurrentPerId: 0,
    delayMs: 0,
    now: Date.now,
    close: async () => undefined,
  };
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const hook: ReceivedHook = {
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        atMs: peer.now(),
      };
      peer.received.push(hook);
      const id = String(request.headers['webhook-id']);
      const current = (peer.inFlight.get(id) ?? 0) + 1;
      peer.inFlight.set(id, current);
      peer.maxConcurrentPerId = Math.max(peer.maxConcurrentPerId, current);
      const reply = peer.reply(hook);
      const finish = () => {
        peer.inFlight.set(id, (peer.inFlight.get(id) ?? 1) - 1);
        if (reply.hang) {
          hanging.add(response);
          return;
        }
        response.writeHead(reply.status, reply.headers ?? {});
        response.end();
      };
      if (peer.delayMs > 0) setTimeout(finish, peer.delayMs);
      else finish();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/frontdoor`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return peer;
}

/**
 * Standard Webhooks verification written from the specification, independently of the server's
 * signing code: HMAC-SHA256 keyed by the base64-decoded secret over `id.timestamp.body`, compared
 * in constant time with each `v1,` signature in the header, and a timestamp within tolerance.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: IncomingHttpHeaders,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export const WEBHOOK_SECRET = `whsec_${Buffer.from('frontdoor-test-secret-32-bytes!!').toString('base64')}`;
