import { hash, verify } from "@node-rs/argon2";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/constants";
import { isCommonPassword } from "./common-passwords";

// argon2id with OWASP's minimum parameters (19 MiB, 2 passes): about 20 ms here.
// algorithm 2 = Argon2id (the package exports it as a const enum, unusable with isolatedModules).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  // Without a hash (Google-only users) we still spend the time, so timing reveals nothing.
  if (!passwordHash) {
    await hash(password, OPTIONS);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Weak = too short, too long (never truncated), or among the common passwords. */
export function isWeakPassword(password: string): boolean {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return true;
  if (new Set(password).size < 3) return true;
  return isCommonPassword(password);
}
