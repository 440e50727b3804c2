import { Problem } from "../schemas/problem";
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RequestInfo,
  ServerError,
} from "./messaging-error";

/** The one place a failed response becomes an error. A body that is not problem details is dropped: it may echo request content. */
export function errorFromResponse(status: number, request: RequestInfo, body: unknown, retryAfterMs?: number): ApiError {
  const parsed = Problem.safeParse(body);
  const problem = parsed.success ? parsed.data : undefined;
  if (status === 400 || status === 422) return new InvalidRequestError(status, request, problem);
  if (status === 401) return new AuthenticationError(status, request, problem);
  if (status === 403) return new PermissionError(status, request, problem);
  if (status === 404) return new NotFoundError(status, request, problem);
  if (status === 409) return new ConflictError(status, request, problem);
  if (status === 429) return new RateLimitError(status, request, problem, retryAfterMs);
  if (status >= 500) return new ServerError(status, request, problem);
  return new ApiError(status, request, problem);
}
