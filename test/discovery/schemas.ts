import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

const SCHEMA_DIR = join(import.meta.dirname, 'schemas');

/** Validates with a JSON Schema written from a specification (in ./schemas), with every error shown. */
export function expectValid(schemaFile: string, value: unknown): void {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
  ajv.addFormat('date-time', (text: string) => !Number.isNaN(Date.parse(text)) && /T/.test(text));
  const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, schemaFile), 'utf8')) as object;
  const validate = ajv.compile(schema);
  const ok = validate(value);
  expect(ok ? [] : validate.errors, `${schemaFile}`).toEqual([]);
}

/** The same, returning whether it is valid (to show a schema rejects what it must). */
export function isValid(schemaFile: string, value: unknown): boolean {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
  ajv.addFormat('date-time', (text: string) => !Number.isNaN(Date.parse(text)) && /T/.test(text));
  const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, schemaFile), 'utf8')) as object;
  return ajv.compile(schema)(value) as boolean;
}
