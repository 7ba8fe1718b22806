import type { Field, SlipWord } from './schema.js';

/** Below this OCR word confidence a field is sent for review whatever the checks say. */
export const REVIEW_BELOW = 0.8;

/** A value read from words: confidence is the weakest word's; low confidence flags it. */
export function readField<T>(value: T | null, words: readonly SlipWord[], raw?: string): Field<T> {
  const confidence = words.length ? Math.min(...words.map((w) => w.conf)) : 0;
  const text = raw ?? (words.length ? words.map((w) => w.text).join(' ') : null);
  const field: Field<T> = { value, raw: text, confidence, needsReview: false, reasons: [] };
  if (words.length && confidence < REVIEW_BELOW) flag(field, `low OCR confidence (${Math.round(confidence * 100)}%)`);
  if (value === null && words.length) flag(field, 'printed but not readable');
  return field;
}

/** Nothing on the slip for this field: null, unflagged (the slip does not print it). */
export function absent<T>(): Field<T> {
  return { value: null, raw: null, confidence: 0, needsReview: false, reasons: [] };
}

/** Expected on this slip but not found: null and flagged, so a reviewer fills it in. */
export function missing<T>(reason: string): Field<T> {
  return { value: null, raw: null, confidence: 0, needsReview: true, reasons: [reason] };
}

export function flag<T>(field: Field<T>, reason: string): Field<T> {
  field.needsReview = true;
  if (!field.reasons.includes(reason)) field.reasons.push(reason);
  return field;
}

/** A known-unreliable value (struck-through boosted price): keep what was printed in `raw`, drop the value. */
export function distrust<T>(field: Field<T>, reason: string): Field<T> {
  flag(field, reason);
  field.value = null;
  return field;
}
