// Passwords: argon2id (@node-rs/argon2: prebuilt binaries, hashing on libuv's thread pool so the event
// loop keeps serving), with its defaults (19 MiB, 2 passes, 1 lane: OWASP's recommended minimum).
import 'server-only';
import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/lib/shared/limits';

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Checked when there is no account or no password, so an answer takes as long whether or not the
// account exists (made once per process, with the same parameters as real hashes).
let dummy: Promise<string> | undefined;

/** Whether `password` matches `stored`; with no stored hash, the same work against a dummy and false. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  dummy ??= hash('no account has this password');
  const target = stored ?? (await dummy);
  try {
    return (await verify(target, password)) && !!stored;
  } catch {
    // A malformed stored hash matches nothing.
    return false;
  }
}
