import { eq } from 'drizzle-orm';
import type { Db } from '../db.js';
import { users } from '../schema.js';

/** Whether a user with this id exists (a scan is written to a user's ledger only then). */
export function userExists(db: Db, id: number): boolean {
  return db.select({ id: users.id }).from(users).where(eq(users.id, id)).get() !== undefined;
}
