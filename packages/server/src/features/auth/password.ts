// bcrypt, so hashes stay portable with one-api/new-api databases.
import { hash, verify } from '@node-rs/bcrypt';

export const hashPassword = (password: string, cost: number): Promise<string> => hash(password, { cost });

export async function verifyPassword(password: string, passwordHash: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(password, passwordHash);
  } catch {
    return false;
  }
}
