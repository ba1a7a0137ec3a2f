/** Password hashing: argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane). */
import crypto from 'node:crypto';

// The native argon2 addon loads with the first password hashed or checked, not at start (issue 30).
const argon2 = () => import('@node-rs/argon2');

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum in the typings)
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const { verify } = await argon2();
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;
/** Spends the same time as a real check, so an unknown name cannot be told from a wrong password. */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummy ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(await dummy, password);
}

/** An initial password an administrator hands over: 10 characters, letters and digits, at least one of each. */
export function generateInitialPassword(): string {
  const letters = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const all = letters + digits;
  const pick = (s: string) => s[crypto.randomInt(s.length)]!;
  const chars = [pick(letters), pick(digits), ...Array.from({ length: 8 }, () => pick(all))];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
