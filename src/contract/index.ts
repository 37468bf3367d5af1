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
  singleLineProblem,
} from './validation.js';
export type { FieldProblem, ValidationResult, Validator } from './validation.js';
export {
  buildOpenApiDocument,
  CONSEQUENTIAL,
  FORM_CORS_MAX_AGE_SECONDS,
  FORM_CORS_REQUEST_HEADERS,
} from './openapi.js';
export { API_PREFIX, SUBMISSION_PATHS } from './paths.js';
export type { OpenApiOptions } from './openapi.js';
export * from './health.js';
export * from './form-traps.js';
export { echoed, MAX_ECHOED_CHARACTERS, quoted } from './echo.js';
export * from './form-definition.js';
export { DEFAULT_FORMS, REQUEST_DEMO, SUGGEST_DOCUMENT } from './default-forms.js';
