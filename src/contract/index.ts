export * from './personas.js';
export * from './schemas.js';
export * from './nlweb.js';
export * from './errors.js';
export {
  createValidator,
  describeFixes,
  describeProblems,
  isEmailAddress,
  MAX_REPORTED_PROBLEMS,
} from './validation.js';
export type { FieldProblem, ValidationResult, Validator } from './validation.js';
export { buildOpenApiDocument, CONSEQUENTIAL } from './openapi.js';
export { API_PREFIX, SUBMISSION_PATHS } from './paths.js';
export type { OpenApiOptions } from './openapi.js';
export * from './health.js';
export * from './form-traps.js';
