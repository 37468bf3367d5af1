/**
 * A readable model of the OpenAPI document: operations, their parameters, body fields, examples
 * and answers. /api.md, the agent skill and the /developers page are all rendered from this model,
 * which is read from the very document served at /openapi.json, so none of them can drift from it.
 */

import { CONSEQUENTIAL } from '../contract/index.js';

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, Json> };
}

/** One row of a field table: a property of a body, an answer or a nested object (`query.text`). */
export interface FieldRow {
  name: string;
  type: string;
  /** `yes`, `no`, or `yes (when <parent> is given)` for a nested required field. */
  required: string;
  /** Bounds and formats in words: "max 200 characters; format email". */
  constraints: string;
  description: string;
}

export interface ResponseDoc {
  status: string;
  description: string;
  contentTypes: string[];
  /** Component name of the JSON schema of the answer, when it is a named component. */
  schemaName: string | null;
  example: unknown;
}

export interface ParameterDoc extends FieldRow {
  location: string;
}

export type OperationEffect = 'read-only' | 'side-effecting';

export interface OperationDoc {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  effect: OperationEffect;
  parameters: ParameterDoc[];
  requestBody: {
    required: boolean;
    contentTypes: string[];
    schemaName: string | null;
    fields: FieldRow[];
    example: unknown;
  } | null;
  responses: ResponseDoc[];
}

export interface SchemaDoc {
  name: string;
  description: string;
  fields: FieldRow[];
}

export interface ApiReference {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  operations: OperationDoc[];
  schemas: SchemaDoc[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Methods that HTTP defines as safe: they never change anything on the server. */
const SAFE_METHODS = new Set(['get', 'head', 'options', 'trace']);

/**
 * What an operation does to the server, read from the operation itself: a safe method (GET, HEAD)
 * is read-only whatever it says; any other method is side-effecting unless it declares
 * `x-openai-isConsequential: false` (POST /ask, a search sent as a body). So a new read-only route
 * cannot be advertised as needing approval, and a new POST is never advertised as safe by default.
 */
export function effectOf(method: string, operation: Readonly<Record<string, unknown>>): OperationEffect {
  if (SAFE_METHODS.has(method.toLowerCase())) return 'read-only';
  return operation[CONSEQUENTIAL] === false ? 'read-only' : 'side-effecting';
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const asString = (value: unknown): string => (typeof value === 'string' ? value : '');

export class SchemaReader {
  constructor(private readonly components: Record<string, Json>) {}

  /** Follows a local `$ref` (`#/components/schemas/X`) to its schema. */
  resolve(schema: unknown): Json {
    if (!isObject(schema)) return {};
    const ref = schema.$ref;
    if (typeof ref === 'string') {
      const name = refName(ref);
      return (name && this.components[name]) || {};
    }
    return schema;
  }

  /** A short type label: `string`, `boolean`, `array of string`, `object (AskResult)`, `A or B`. */
  typeOf(schema: unknown): string {
    if (!isObject(schema)) return 'any';
    if (typeof schema.$ref === 'string') return `object (${refName(schema.$ref) ?? 'schema'})`;
    const union = (schema.anyOf ?? schema.oneOf) as unknown;
    if (Array.isArray(union)) return union.map((option) => this.typeOf(option)).join(' or ');
    const type = schema.type;
    if (Array.isArray(type)) return type.join(' or ');
    if (type === 'array') return `array of ${this.typeOf(schema.items)}`;
    if (type === 'object') return typeof schema.title === 'string' ? `object (${schema.title})` : 'object';
    if (typeof type === 'string') return type === 'integer' ? 'integer' : type;
    if ('const' in schema) return typeof schema.const;
    return 'any';
  }

  /** Bounds, formats and allowed values in words. */
  constraintsOf(schema: unknown): string {
    const s = this.resolveShallow(schema);
    const parts: string[] = [];
    if ('const' in s) parts.push(`always \`${JSON.stringify(s.const)}\``);
    if (Array.isArray(s.enum)) parts.push(`one of ${s.enum.map((v) => `\`${String(v)}\``).join(', ')}`);
    if (typeof s.minLength === 'number' && typeof s.maxLength === 'number')
      parts.push(`${s.minLength} to ${s.maxLength} characters`);
    else if (typeof s.maxLength === 'number') parts.push(`max ${s.maxLength} characters`);
    else if (typeof s.minLength === 'number') parts.push(`min ${s.minLength} characters`);
    if (typeof s.minimum === 'number') parts.push(`minimum ${s.minimum}`);
    if (typeof s.maximum === 'number') parts.push(`maximum ${s.maximum}`);
    if (typeof s.minItems === 'number')
      parts.push(`at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}`);
    if (typeof s.maxItems === 'number') parts.push(`at most ${s.maxItems} items`);
    if (typeof s.format === 'string') parts.push(`format ${s.format}`);
    if (typeof s.pattern === 'string') parts.push(`pattern \`${s.pattern}\``);
    if ('default' in s) parts.push(`default \`${JSON.stringify(s.default)}\``);
    return parts.join('; ');
  }

  /**
   * The rows of an object schema, nested objects flattened one level (`query.text`), so a reader
   * sees every field an agent may send or will receive.
   */
  fieldsOf(schema: unknown, prefix = '', parentRequired = true, depth = 0): FieldRow[] {
    const s = this.resolve(schema);
    const properties = isObject(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
    // Fields that one of several alternative `required` lists names (`name`, or `firstName` and `lastName`).
    const alternatives = [s.anyOf, s.oneOf].filter(Array.isArray).flat().filter(isObject);
    const conditional = new Set(
      alternatives.flatMap((branch) => (Array.isArray(branch.required) ? branch.required.map(String) : [])),
    );
    const rows: FieldRow[] = [];
    for (const [name, propertySchema] of Object.entries(properties)) {
      const fullName = prefix ? `${prefix}.${name}` : name;
      const isRequired = required.has(name);
      const requiredText = !isRequired
        ? conditional.has(name)
          ? 'conditional (see meaning)'
          : 'no'
        : parentRequired || !prefix
          ? 'yes'
          : `yes, when \`${prefix}\` is given`;
      const property = isObject(propertySchema) ? propertySchema : {};
      rows.push({
        name: fullName,
        type: this.typeOf(property),
        required: requiredText,
        constraints: this.constraintsOf(property),
        description: oneLine(asString(property.description) || asString(this.resolve(property).description)),
      });
      const resolved = this.resolve(property);
      const nestedProperties = isObject(resolved.properties) ? Object.keys(resolved.properties) : [];
      if (resolved.type === 'object' && nestedProperties.length > 0 && depth < 1 && !('$ref' in property)) {
        rows.push(...this.fieldsOf(resolved, fullName, parentRequired && isRequired, depth + 1));
      }
    }
    return rows;
  }

  private resolveShallow(schema: unknown): Json {
    return isObject(schema) && typeof schema.$ref !== 'string' ? schema : this.resolve(schema);
  }
}

export function refName(ref: string): string | null {
  const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
  return match ? decodeURIComponent(match[1]!.replace(/~1/g, '/').replace(/~0/g, '~')) : null;
}

/** Collapses line breaks and runs of spaces: table cells and list notes are one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Reads the OpenAPI document (the object served at /openapi.json) into the reference model. */
export function readApiReference(document: OpenApiDocument): ApiReference {
  const components = document.components?.schemas ?? {};
  const reader = new SchemaReader(components);
  const operations: OperationDoc[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      operations.push(readOperation(reader, path, method, operation));
    }
  }
  const schemas = Object.entries(components).map(([name, schema]) => ({
    name,
    description: asString(schema.description),
    fields: reader.fieldsOf(schema),
  }));
  return {
    title: document.info.title,
    version: document.info.version,
    description: document.info.description ?? '',
    serverUrl: document.servers?.[0]?.url ?? '',
    operations,
    schemas,
  };
}

function readOperation(reader: SchemaReader, path: string, method: string, operation: Json): OperationDoc {
  const operationId = asString(operation.operationId) || `${method} ${path}`;
  const parameters: ParameterDoc[] = (Array.isArray(operation.parameters) ? operation.parameters : [])
    .filter(isObject)
    .map((parameter) => ({
      name: asString(parameter.name),
      location: asString(parameter.in),
      type: reader.typeOf(parameter.schema),
      required: parameter.required === true ? 'yes' : 'no',
      constraints: reader.constraintsOf(parameter.schema),
      description: oneLine(asString(parameter.description)),
    }));

  let requestBody: OperationDoc['requestBody'] = null;
  if (isObject(operation.requestBody)) {
    const content = isObject(operation.requestBody.content) ? operation.requestBody.content : {};
    const contentTypes = Object.keys(content);
    const first = contentTypes.map((type) => content[type]).find(isObject) ?? {};
    requestBody = {
      required: operation.requestBody.required === true,
      contentTypes,
      schemaName: schemaNameOf(first.schema),
      fields: reader.fieldsOf(first.schema),
      example: exampleOf(first),
    };
  }

  const responses: ResponseDoc[] = Object.entries(isObject(operation.responses) ? operation.responses : {})
    .filter((entry): entry is [string, Json] => isObject(entry[1]))
    .map(([status, response]) => {
      const content = isObject(response.content) ? response.content : {};
      const contentTypes = Object.keys(content);
      const json = isObject(content['application/json']) ? content['application/json'] : {};
      return {
        status,
        description: asString(response.description),
        contentTypes,
        schemaName: schemaNameOf(json.schema),
        example: exampleOf(json),
      };
    });

  return {
    method: method.toUpperCase(),
    path,
    operationId,
    summary: asString(operation.summary),
    description: asString(operation.description),
    tags: Array.isArray(operation.tags) ? operation.tags.map(String) : [],
    effect: effectOf(method, operation),
    parameters,
    requestBody,
    responses,
  };
}

function schemaNameOf(schema: unknown): string | null {
  return isObject(schema) && typeof schema.$ref === 'string' ? refName(schema.$ref) : null;
}

/** The media type's `example`, or the first of its `examples`. */
function exampleOf(media: Json): unknown {
  if ('example' in media) return media.example;
  if (isObject(media.examples)) {
    const first = Object.values(media.examples).find(isObject);
    if (first && 'value' in first) return first.value;
  }
  return undefined;
}
