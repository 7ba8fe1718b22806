/**
 * Freezes a JSON value and everything in it, for values written more than once: the store makes a
 * frozen value's JSON text once and reuses it (src/store/_columns.ts), since a frozen value
 * cannot change. Pure: it changes nothing but the value's mutability.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
