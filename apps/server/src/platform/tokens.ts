/** Opaque session tokens: 256 random bits, sent to the client once, stored only as a sha256 hash. */
import crypto from 'node:crypto';

export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
