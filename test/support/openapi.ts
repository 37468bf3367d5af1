import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { REPO_ROOT } from './files.js';

const run = promisify(execFile);

export interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string }[];
}

/** Runs the installed `redocly lint` on a file with the repository's configuration, in `cwd`. */
export async function redoclyLint(file: string, cwd: string): Promise<LintReport> {
  const cli = join(REPO_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const args = [cli, 'lint', file, '--config', join(REPO_ROOT, 'redocly.yaml'), '--format', 'json'];
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  // A failed lint exits non-zero; its report is on stdout either way.
  const { stdout } = await run(process.execPath, args, { cwd, env }).catch(
    (error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) throw new Error(`redocly lint produced no report: ${error.stderr ?? ''}`);
      return { stdout: error.stdout };
    },
  );
  return JSON.parse(stdout) as LintReport;
}

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
};

/**
 * Checks responses against the OpenAPI document the server publishes (not against the source
 * schemas), so a test fails whenever the server and its published contract drift apart.
 */
export class PublishedContract {
  private readonly ajv: Ajv2020;
  constructor(readonly doc: Doc) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    this.ajv.addFormat('email', true);
    this.ajv.addFormat('uri', (v: string) => {
      try {
        new URL(v);
        return true;
      } catch {
        return false;
      }
    });
    this.ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  }

  /** Throws (via expect) unless `body` is what the document promises for this operation and status. */
  expectResponse(method: string, path: string, status: number, contentType: string, body: unknown): void {
    const operation = this.doc.paths[path]?.[method.toLowerCase()];
    expect(operation, `${method} ${path} is in /openapi.json`).toBeDefined();
    const response = operation!.responses[String(status)];
    expect(response, `${method} ${path} documents status ${status}`).toBeDefined();
    const mediaType = contentType.split(';')[0]!.trim();
    const media = response!.content?.[mediaType];
    expect(media, `${method} ${path} ${status} documents ${mediaType}`).toBeDefined();
    const schema = rewriteRefs(media!.schema);
    const validate = this.ajv.compile(schema as object);
    const ok = validate(body);
    expect(ok ? [] : validate.errors, `${method} ${path} ${status} body matches /openapi.json`).toEqual([]);
  }
}

function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi.json${v}` : rewriteRefs(v),
      ]),
    );
  }
  return schema;
}
