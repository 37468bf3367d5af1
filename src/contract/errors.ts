import { echoed, quoted } from './echo.js';
import type { ErrorBody, ErrorCode } from './schemas.js';
import { describeFixes, describeProblems, type FieldProblem } from './validation.js';

/** Builders for the spec's error envelope (part 2.5): every field present, nothing else. */

export function errorBody(code: ErrorCode, error: string, message: string, resolution: string): ErrorBody {
  return { ok: false, error, code, message, resolution };
}

export function validationErrorBody(problems: FieldProblem[]): ErrorBody {
  return errorBody(
    'VALIDATION_ERROR',
    'Validation failed',
    `Invalid request: ${describeProblems(problems)}.`,
    `Correct the request and send it again. ${describeFixes(problems)}.`,
  );
}

export function invalidJsonBody(detail: string): ErrorBody {
  return errorBody(
    'INVALID_JSON',
    'Invalid JSON',
    `The request body is not valid JSON: ${detail}.`,
    'Send a single JSON object encoded as UTF-8 with Content-Type: application/json.',
  );
}

export function payloadTooLargeBody(limitBytes: number): ErrorBody {
  return errorBody(
    'PAYLOAD_TOO_LARGE',
    'Payload too large',
    `The request body is larger than the limit of ${limitBytes} bytes.`,
    `Send a body of at most ${limitBytes} bytes; every field's own length limit is in /openapi.json.`,
  );
}

export function unsupportedMediaTypeBody(
  contentType: string | undefined,
  accepted: readonly string[],
): ErrorBody {
  const shown = contentType
    ? `Content-Type ${quoted(contentType.split(';')[0]!.trim())}`
    : 'A request without Content-Type';
  return errorBody(
    'VALIDATION_ERROR',
    'Unsupported content type',
    `${shown} is not accepted here.`,
    `Send the body as ${accepted.join(' or ')}.`,
  );
}

export function endpointNotFoundBody(
  method: string,
  path: string,
  allowed: readonly string[] = [],
): ErrorBody {
  const wrongMethod = allowed.length > 0;
  const shown = echoed(path);
  return errorBody(
    'ENDPOINT_NOT_FOUND',
    'Endpoint not found',
    wrongMethod ? `${method} is not supported on ${shown}.` : `There is no endpoint at ${method} ${shown}.`,
    wrongMethod
      ? `Use ${allowed.join(' or ')} on ${shown}; /openapi.json lists every operation.`
      : 'Check the path and method; /openapi.json lists every operation.',
  );
}

export function internalErrorBody(requestId: string): ErrorBody {
  return errorBody(
    'INTERNAL_ERROR',
    'Internal error',
    `The request could not be completed (reference ${requestId}).`,
    'Nothing was stored. Try again in a moment; if it keeps failing, contact the site owner with the reference.',
  );
}

/** 429: the client's quota for this operation is used up (limits are per address or IPv6 /64). */
export function rateLimitedBody(
  what: string,
  quota: number,
  windowSeconds: number,
  retryAfterSeconds: number,
): ErrorBody {
  return errorBody(
    'RATE_LIMITED',
    'Too many requests',
    `Too many ${what} from your address: at most ${quota} every ${windowSeconds} seconds are accepted.`,
    `Wait ${retryAfterSeconds} seconds (see the Retry-After header) and send it again; nothing was stored.`,
  );
}

/** Seconds a client is asked to wait (`Retry-After`) after a submission could not be stored. */
export const SUBMISSION_RETRY_AFTER_SECONDS = 5;

/**
 * The 500 of a submission the database did not confirm (down, hanging, or a connection cut).
 * Almost always nothing was kept; if the commit went through unseen, the repeat is recognised as a
 * duplicate (same content within the window, or the same Idempotency-Key), so sending again is safe.
 */
export function submissionNotStoredBody(requestId: string): ErrorBody {
  return errorBody(
    'INTERNAL_ERROR',
    'Internal error',
    `The submission could not be stored just now (reference ${requestId}).`,
    `Send the same request again in ${SUBMISSION_RETRY_AFTER_SECONDS} seconds (see Retry-After); a repeat is never ` +
      'stored twice. If it keeps failing, contact the site owner with the reference.',
  );
}
