import type { Env } from '../../config.js';
import { createGhostDrafts, ghostConfig, type DraftContent, type GhostDrafts } from '../../publish/ghost.js';
import type { Store } from '../../store/db.js';
import { blocksToHtml, escapeHtml } from '../../content/document.js';
import { dayText } from '../../content/format.js';
import { readLog, writeLog } from '../../store/repo/content-log.js';
import { buildDeskPack, type DeskPack, type ReadyTemplate } from '../../content/pack.js';
import { readContentFacts } from '../../store/repo/content-facts.js';
import { assertEditorial } from '../../content/rules.js';
import { RG_LINE, type TemplateId } from '../../content/template.js';

/**
 * Ghost drafts (spec behaviour rule 7): a slate-preview draft and a settle draft per date, written
 * from the desk pack's long copy. Always `status: draft`; nothing auto-posts. A second run for a date
 * updates the same posts (content_log keeps each post's id and Ghost's `updated_at`, which Ghost
 * requires for an edit), and never overwrites a post someone changed or published in Ghost.
 */

export const DRAFT_KIND = 'ghost_draft';
export type DraftKind = 'slate_preview' | 'settle';

const PARTS: Readonly<Record<DraftKind, { lead: TemplateId; with: TemplateId[] }>> = {
  slate_preview: { lead: 'morning_wire', with: ['signal', 'line_dispatch', 'archetype_watch'] },
  settle: { lead: 'the_settle', with: ['receipts', 'streak_watch'] },
};

export type DraftDocument = { kind: DraftKind; content: DraftContent } | { kind: DraftKind; skipped: string };

/** The two draft documents for the pack's date (pure). */
export function buildDraftDocuments(pack: DeskPack): DraftDocument[] {
  const ready = (id: TemplateId) => pack.templates.find((t): t is ReadyTemplate => t.id === id && t.status === 'ready') ?? null;
  const day = dayText(pack.date);
  return (Object.keys(PARTS) as DraftKind[]).map((kind) => {
    const lead = ready(PARTS[kind].lead);
    if (!lead) {
      const why = pack.omitted.find((o) => o.id === PARTS[kind].lead)?.reason ?? 'its lead template is not ready';
      return { kind, skipped: `no ${kind === 'settle' ? 'settle' : 'slate preview'} draft for ${pack.date}: ${why}` };
    }
    const templates = [lead, ...PARTS[kind].with.map(ready).filter((t): t is ReadyTemplate => t !== null)];
    const title = kind === 'settle' ? `The settle, ${day}: ${lead.headline.split(': ').slice(1).join(': ')}` : `Slate preview, ${day}: the board's largest price claims`;
    const html = [
      ...templates.map((t) => `<h2>${escapeHtml(t.name)}</h2>\n${blocksToHtml(t.body, 'h3')}`),
      `<p>${escapeHtml(RG_LINE)}</p>`,
    ].join('\n');
    const content: DraftContent = { title, html, tags: ['propgrade', kind === 'settle' ? 'settle' : 'slate preview'] };
    assertEditorial(`the ${kind} draft for ${pack.date}`, { title, html });
    return { kind, content };
  });
}

export type DraftOutcome =
  | { kind: DraftKind; action: 'created' | 'updated' | 'recreated'; postId: string; updatedAt: string; status: string }
  | { kind: DraftKind; action: 'left'; postId: string; reason: string }
  | { kind: DraftKind; action: 'skipped'; reason: string };

export type DraftsResult = { status: 'not_configured'; date: string; missing: string[]; reason: string } | { status: 'saved'; date: string; drafts: DraftOutcome[] };

async function saveOne(store: Store, ghost: GhostDrafts, date: string, doc: DraftDocument, now: Date): Promise<DraftOutcome> {
  if ('skipped' in doc) return { kind: doc.kind, action: 'skipped', reason: doc.skipped };
  const key = `${date}:${doc.kind}`;
  const record = (post: { id: string; updatedAt: string; status: string; url: string | null }) =>
    writeLog(store, DRAFT_KIND, key, { status: post.status, externalId: post.id, detail: { updated_at: post.updatedAt, title: doc.content.title, url: post.url } }, now);
  const prior = await readLog(store, DRAFT_KIND, key);
  const storedUpdatedAt = typeof prior?.detail?.['updated_at'] === 'string' ? (prior.detail['updated_at'] as string) : null;
  if (prior?.externalId && storedUpdatedAt) {
    const current = await ghost.read(prior.externalId);
    if (current === null) {
      const post = await ghost.add(doc.content);
      await record(post);
      return { kind: doc.kind, action: 'recreated', postId: post.id, updatedAt: post.updatedAt, status: post.status };
    }
    if (current.status !== 'draft') return { kind: doc.kind, action: 'left', postId: current.id, reason: `the post is ${current.status} in Ghost; propgrade only writes drafts and leaves it as it is` };
    if (current.updatedAt !== storedUpdatedAt) {
      return { kind: doc.kind, action: 'left', postId: current.id, reason: `the draft was edited in Ghost at ${current.updatedAt} after propgrade saved it (${storedUpdatedAt}); not overwritten` };
    }
    const post = await ghost.edit(current.id, current.updatedAt, doc.content);
    await record(post);
    return { kind: doc.kind, action: 'updated', postId: post.id, updatedAt: post.updatedAt, status: post.status };
  }
  const post = await ghost.add(doc.content);
  await record(post);
  return { kind: doc.kind, action: 'created', postId: post.id, updatedAt: post.updatedAt, status: post.status };
}

/** Saves both drafts for the date; not configured: no call at all. */
export async function saveGhostDrafts(store: Store, config: Env, options: { now: Date; date: string; clockFor?: ((sport: string) => Date) | undefined }): Promise<DraftsResult> {
  const gc = ghostConfig(config);
  if (!gc.configured) return { status: 'not_configured', date: options.date, missing: gc.missing, reason: `Ghost is not configured (${gc.missing.join(', ')} unset); no draft was saved` };
  const docs = buildDraftDocuments(buildDeskPack(await readContentFacts(store, options)));
  const ghost = createGhostDrafts(gc.config);
  const drafts: DraftOutcome[] = [];
  for (const doc of docs) drafts.push(await saveOne(store, ghost, options.date, doc, options.now));
  return { status: 'saved', date: options.date, drafts };
}
