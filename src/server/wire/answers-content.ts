import { z } from 'zod';
import { TEMPLATE_IDS } from '../../content/template.js';
import { int, wireDate, wireInstant, wireSchema } from './registry.js';

/** Answers of the content routes (docs/content.md): the desk pack, the newsletter and the Ghost drafts. */

const block = z.union([z.object({ kind: z.enum(['heading', 'paragraph']), text: z.string() }), z.object({ kind: z.literal('list'), items: z.array(z.string()) })]);
const templateId = z.enum(TEMPLATE_IDS);
export const deskPackSchema = wireSchema(
  'DeskPack',
  z.object({
    date: wireDate(),
    generated_at: wireInstant(),
    sources: z.object({ snapshots: z.array(z.object({ sport: z.string(), snapshot_id: int(), taken_at: wireInstant() })), settle_date: wireDate().nullable(), window: z.object({ from: wireDate(), to: wireDate() }) }),
    templates: z.array(
      z.union([
        z.object({
          id: templateId,
          name: z.string(),
          status: z.literal('ready'),
          headline: z.string(),
          body: z.array(block),
          long: z.string(),
          thread: z.array(z.object({ n: int(), text: z.string(), weighted: int().max(280) })),
          wire: z.array(z.string()),
          numbers: z.array(z.string()),
          brief: z.array(
            z.object({
              key: z.string(),
              label: z.string(),
              value: z.union([z.number(), z.string()]),
              display: z.string(),
              n: int().nullable(),
              source: z.object({ table: z.enum(['graded_rows', 'grade_locks', 'snapshots', 'ledger_entries']), ids: z.array(int()), where: z.string() }),
            }),
          ),
        }),
        z.object({ id: templateId, name: z.string(), status: z.literal('omitted'), reason: z.string() }),
      ]),
    ),
    ready: int(),
    omitted: z.array(z.object({ id: templateId, name: z.string(), reason: z.string() })),
  }),
);

export const subscribeSchema = wireSchema(
  'SubscribeAnswer',
  z.union([z.object({ ok: z.literal(true), status: z.literal('confirmation_sent') }), z.object({ ok: z.literal(false), reason: z.literal('not_configured') })]),
);

const notConfigured = z.object({ status: z.literal('not_configured'), date: wireDate(), missing: z.array(z.string()), reason: z.string() });
export const newsletterSendSchema = wireSchema(
  'NewsletterSend',
  z.union([
    z.object({ status: z.literal('sent'), date: wireDate(), campaign_id: int(), list_id: int(), subject: z.string(), started: wireInstant().nullable() }),
    z.object({ status: z.literal('already_sent'), date: wireDate(), campaign_id: int().nullable(), since: wireInstant() }),
    notConfigured,
    z.object({ status: z.literal('refused'), date: wireDate(), reason: z.enum(['empty', 'editorial']), message: z.string() }),
  ]),
);

const draftKind = z.enum(['slate_preview', 'settle']);
export const ghostDraftsSchema = wireSchema(
  'GhostDrafts',
  z.union([
    notConfigured,
    z.object({
      status: z.literal('saved'),
      date: wireDate(),
      drafts: z.array(
        z.union([
          z.object({ kind: draftKind, action: z.enum(['created', 'updated', 'recreated']), post_id: z.string(), updated_at: wireInstant(), status: z.string() }),
          z.object({ kind: draftKind, action: z.literal('left'), post_id: z.string(), reason: z.string() }),
          z.object({ kind: draftKind, action: z.literal('skipped'), reason: z.string() }),
        ]),
      ),
    }),
  ]),
);
