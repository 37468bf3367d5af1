/** Where the two write operations are served: the OpenAPI document, the routes, the forms and the discovery documents all read these. */
export const SUBMISSION_PATHS = {
  lead: '/api/leads',
  suggestion: '/api/document-suggestions',
} as const;

/** The prefix every write operation is served under: the server's API surface owns it. */
export const API_PREFIX = '/api/';
