import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/contract/index.js';
import { redoclyLint } from '../../support/openapi.js';
import { BASE, get, startDiscoveryApp, type DiscoveryApp } from '../../discovery/harness.js';

let served: DiscoveryApp;
let bytes: Buffer;
let scratch: string;

beforeAll(async () => {
  served = await startDiscoveryApp();
  const response = await get(served.app, '/openapi.json');
  expect(response.statusCode).toBe(200);
  bytes = response.rawPayload;
  scratch = mkdtempSync(join(tmpdir(), 'frontdoor-openapi-'));
});

afterAll(async () => {
  await served.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('/openapi.json', () => {
  it('is served as application/json and is the contract built from the configuration', async () => {
    const response = await get(served.app, '/openapi.json');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const document = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    const built = buildOpenApiDocument({
      publicBaseUrl: BASE,
      bodyLimitBytes: served.config.bodyLimitBytes,
      siteName: served.site.info.name,
      contactEmail: served.site.info.contactEmail,
    });
    expect(document).toEqual(JSON.parse(JSON.stringify(built)));
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: BASE }]);
  });

  it('passes the OpenAPI 3.1 meta-schema (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(bytes.toString('utf8')) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('passes `redocly lint` with the repository configuration and no warnings', async () => {
    const file = join(scratch, 'openapi.json');
    writeFileSync(file, bytes);
    const report = await redoclyLint(file, scratch);
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('with CORS_ORIGINS (which adds headers and text to the form operations) passes both checks too', async () => {
    const withCors = buildOpenApiDocument({
      publicBaseUrl: BASE,
      bodyLimitBytes: served.config.bodyLimitBytes,
      siteName: served.site.info.name,
      corsOrigins: ['https://docs.example.com', 'http://localhost:8080'],
    });
    const text = JSON.stringify(withCors, null, 2);
    expect(text).toContain('"Access-Control-Allow-Origin"');
    const result = await new Validator().validate(JSON.parse(text) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    const file = join(scratch, 'openapi-cors.json');
    writeFileSync(file, text);
    const report = await redoclyLint(file, scratch);
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('every component is referenced, or named in a description as the shape of an open object', () => {
    const text = bytes.toString('utf8');
    const document = JSON.parse(text) as { components: { schemas: Record<string, unknown> } };
    for (const name of Object.keys(document.components.schemas)) {
      const referenced = text.includes(`"$ref": "#/components/schemas/${name}"`);
      const named = new RegExp(`"description": "[^"]*\`${name}\``).test(text);
      expect(referenced || named, name).toBe(true);
    }
  });

  it('the lint configuration keeps rules strict: a broken example is an error', async () => {
    const document = JSON.parse(bytes.toString('utf8')) as {
      paths: Record<
        string,
        Record<string, { requestBody: { content: Record<string, { example: unknown }> } }>
      >;
    };
    const media = document.paths['/api/leads']!.post!.requestBody.content['application/json']!;
    media.example = { email: 'not-an-address', unknownField: 1 };
    const file = join(scratch, 'broken.json');
    writeFileSync(file, JSON.stringify(document));
    const failed = await redoclyLint(file, scratch);
    expect(failed.problems.map((p) => p.ruleId)).toContain('no-invalid-media-type-examples');
    expect(failed.totals.errors).toBeGreaterThan(0);
  });
});
