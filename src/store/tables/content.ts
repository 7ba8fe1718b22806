import { integer, json, text } from './column.js';
import { table, uniqueIndex } from './table.js';

/** What was sent or drafted outward, one row per (kind, key). */

/**
 * Outbound content, one row per (kind, key): the desk-pack-ready notice per ET date, the Ghost
 * draft per date and kind, the listmonk campaign per report date. Idempotency and audit in one place.
 */
export const contentLog = table(
  'content_log',
  {
    id: integer('id').identity(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    /** The platform's id for what was created (Ghost post id, listmonk campaign id); null when nothing was. */
    externalId: text('external_id'),
    status: text('status').notNull(),
    detail: json('detail').$type<Record<string, unknown>>(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('content_log_kind_key').on(t.kind, t.key)],
);
