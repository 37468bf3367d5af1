import type { DestinationStream } from 'pino';
import type { Config } from '../config/index.js';

/** What a log stream writes to: LogDestination, or a test's collector. */
export type LineSink = { write(text: string): unknown };

/** `auto` decided: pretty lines for a person at a terminal, JSON for everything else. */
export function resolveLogFormat(format: Config['logFormat'], stdoutIsTerminal: boolean): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return stdoutIsTerminal ? 'pretty' : 'json';
}

/**
 * A JSON log line whose string values cannot drive a terminal once printed raw. In JSON a control
 * character is an escape (`\u001b`, `\r`, `\b`); the pretty printer would turn it back into the
 * character, so a submitted User-Agent could move the cursor or recolour the operator's screen.
 * Those escapes get their backslash escaped, and are printed as the text `\u001b`. Escape pairs
 * are read left to right, so an escaped backslash (`\\`) never starts a match.
 */
export function defuseControlEscapes(jsonLine: string): string {
  return jsonLine.replace(/\\(u00[01][0-9a-fA-F]|u007[fF]|[bfnr]|[^])/g, (pair, escape: string) =>
    escape.length === 1 && !'bfnr'.includes(escape) ? pair : `\\${pair}`,
  );
}

/** "GET /ask 200 in 15 ms" for a request record (its fields are then left out of the line). */
function requestLine(log: Record<string, unknown>): string | null {
  const req = log.req as { method?: unknown; url?: unknown } | undefined;
  const res = log.res as { statusCode?: unknown } | undefined;
  if (!req || !res || typeof req.method !== 'string' || typeof req.url !== 'string') return null;
  const time = typeof log.responseTime === 'number' ? ` in ${Math.round(log.responseTime)} ms` : '';
  return `${req.method} ${req.url} ${String(res.statusCode)}${time}`;
}

/**
 * The stream pino writes to. JSON lines go to `sink` as they are; pretty ones through pino-pretty's
 * formatter (pid, hostname and the request serialiser's noise left out), written to the same sink,
 * so the asynchronous, never-blocking destination stays the one that writes. pino-pretty is loaded
 * only when asked for (scripts/bundle.mjs keeps it out of the bundle).
 */
export async function logStream(
  format: 'json' | 'pretty',
  sink: LineSink & DestinationStream,
  colour: boolean,
): Promise<DestinationStream> {
  if (format === 'json') return sink;
  const { prettyFactory } = await import('pino-pretty');
  const pretty = prettyFactory({
    colorize: colour,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime',
    singleLine: true,
    messageFormat: (log, messageKey) => requestLine(log) ?? String(log[messageKey] ?? ''),
  });
  return { write: (line: string) => sink.write(pretty(defuseControlEscapes(line))) };
}
