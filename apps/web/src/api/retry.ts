/**
 * Whether a failed query is tried again: once, and only when trying again may help (an outage: the
 * network, a timeout, a server error, as `isUnreachable` says). A refusal (a business code, 400, 403,
 * 404) gives the same answer every time: retrying it only sent each request twice and showed each toast twice.
 */
import { isUnreachable } from './errors';

export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < 1 && isUnreachable(error);
}
