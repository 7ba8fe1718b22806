import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { saveGhostDrafts } from '../../src/jobs/publish/drafts.js';
import { readLog } from '../../src/store/repo/content-log.js';
import { sendDailyReport } from '../../src/jobs/publish/newsletter.js';
import { notifyDeskPackReady } from '../../src/jobs/publish/notify.js';
import { contentLog } from '../../src/store/schema.js';
import { tempStore } from '../helpers/replay-store.js';
import { ghostStandIn, listmonkStandIn, webhookStandIn, type GhostStandIn, type ListmonkStandIn, type WebhookStandIn } from '../publish/_standins.js';
import { LOOP_DATE, loopStore, NOON, type LoopStore } from '../content/_loop.js';

const NOW = new Date(NOON);
const quiet = { info() {}, warn() {} };

describe('sending, drafting and notifying from the replay loop', () => {
  let loop: LoopStore;
  let lm: ListmonkStandIn;
  let ghost: GhostStandIn;
  let hook: WebhookStandIn;
  beforeAll(async () => {
    loop = await loopStore('settled');
    [lm, ghost, hook] = await Promise.all([listmonkStandIn(), ghostStandIn(), webhookStandIn()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([lm?.close(), ghost?.close(), hook?.close()]);
    loop?.cleanup();
  });
  beforeEach(() => {
    loop.store.db.delete(contentLog).run();
    lm.requests.length = 0;
    ghost.requests.length = 0;
    hook.requests.length = 0;
    hook.status = 200;
    lm.campaigns.clear();
  });

  const lmEnv = () => loadConfig({ LISTMONK_URL: lm.url, LISTMONK_USER: lm.user, LISTMONK_TOKEN: lm.token, LISTMONK_LIST_ID: '7' });

  describe('newsletter send', () => {
    it('creates one campaign with the report (HTML body, text altbody, both with the footer) and starts it', async () => {
      const result = await sendDailyReport(loop.store, lmEnv(), { now: NOW, date: LOOP_DATE });
      expect(result).toMatchObject({ status: 'sent', date: LOOP_DATE, listId: 7, subject: 'propgrade daily for Wed Nov 5', started: 'running' });
      expect(lm.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/campaigns', `PUT /api/campaigns/${result.status === 'sent' ? result.campaignId : 0}/status`]);
      const body = lm.requests[0]?.body as Record<string, string>;
      expect(body['type']).toBe('regular');
      expect(body['content_type']).toBe('html');
      for (const part of [body['body'], body['altbody']]) {
        expect(part).toContain('1-800-GAMBLER');
        expect(part).toContain('{{ UnsubscribeURL }}');
        expect(part).not.toContain('!');
      }
      expect(await readLog(loop.store, 'listmonk_campaign', LOOP_DATE)).toMatchObject({ status: 'running', externalId: String(result.status === 'sent' ? result.campaignId : '') });
    });

    it('a second send for the date sends nothing', async () => {
      const first = await sendDailyReport(loop.store, lmEnv(), { now: NOW, date: LOOP_DATE });
      const calls = lm.requests.length;
      const second = await sendDailyReport(loop.store, lmEnv(), { now: NOW, date: LOOP_DATE });
      expect(second).toMatchObject({ status: 'already_sent', campaignId: first.status === 'sent' ? first.campaignId : -1 });
      expect(lm.requests.length).toBe(calls);
    });

    it('a start that failed is retried on the same campaign, never a second campaign', async () => {
      lm.failNext.set('/api/campaigns/', { status: 500, message: 'messenger not ready' });
      await expect(sendDailyReport(loop.store, lmEnv(), { now: NOW, date: LOOP_DATE })).rejects.toMatchObject({ code: 'UPSTREAM', message: expect.stringContaining('messenger not ready') });
      const row = await readLog(loop.store, 'listmonk_campaign', LOOP_DATE);
      expect(row).toMatchObject({ status: 'created', externalId: expect.stringMatching(/^\d+$/) });
      const retried = await sendDailyReport(loop.store, lmEnv(), { now: NOW, date: LOOP_DATE });
      expect(retried).toMatchObject({ status: 'sent', campaignId: Number(row?.externalId), started: 'running' });
      expect(lm.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    });

    it('not configured: says so and makes no call', async () => {
      const result = await sendDailyReport(loop.store, loadConfig({ LISTMONK_URL: lm.url }), { now: NOW, date: LOOP_DATE });
      expect(result).toMatchObject({ status: 'not_configured', missing: ['LISTMONK_USER', 'LISTMONK_TOKEN', 'LISTMONK_LIST_ID'] });
      expect(lm.requests).toHaveLength(0);
    });

    it('an empty report is refused and no campaign is created', async () => {
      const result = await sendDailyReport(loop.store, lmEnv(), { now: NOW, date: '2025-12-25' });
      expect(result).toMatchObject({ status: 'refused', reason: 'empty' });
      expect(lm.requests).toHaveLength(0);
    });
  });

  describe('Ghost drafts', () => {
    const ghostEnv = () => loadConfig({ GHOST_URL: ghost.url, GHOST_ADMIN_KEY: ghost.key });

    it('saves a slate-preview and a settle draft, always status draft; a second run updates the same two posts', async () => {
      const first = await saveGhostDrafts(loop.store, ghostEnv(), { now: NOW, date: LOOP_DATE });
      expect(first.status).toBe('saved');
      const drafts = first.status === 'saved' ? first.drafts : [];
      expect(drafts.map((d) => [d.kind, d.action])).toEqual([
        ['slate_preview', 'created'],
        ['settle', 'created'],
      ]);
      expect(ghost.posts.size).toBe(2);
      for (const p of ghost.posts.values()) {
        expect(p.status).toBe('draft');
        expect(p.html).toContain('1-800-GAMBLER');
        expect(p.html).not.toContain('!');
      }
      const posts = ghost.requests.filter((r) => r.method === 'POST');
      for (const r of posts) expect((r.body as { posts: Array<{ status: string }> }).posts[0]?.status).toBe('draft');

      const second = await saveGhostDrafts(loop.store, ghostEnv(), { now: NOW, date: LOOP_DATE });
      expect(second.status === 'saved' && second.drafts.map((d) => d.action)).toEqual(['updated', 'updated']);
      expect(ghost.posts.size).toBe(2);
      const puts = ghost.requests.filter((r) => r.method === 'PUT');
      expect(puts).toHaveLength(2);
      for (const r of puts) expect((r.body as { posts: Array<{ status: string; updated_at: string }> }).posts[0]).toMatchObject({ status: 'draft', updated_at: expect.any(String) });
    });

    it('leaves a draft edited or published in Ghost alone, and recreates one deleted there', async () => {
      await saveGhostDrafts(loop.store, ghostEnv(), { now: NOW, date: LOOP_DATE });
      const preview = (await readLog(loop.store, 'ghost_draft', `${LOOP_DATE}:slate_preview`))?.externalId ?? '';
      const settle = (await readLog(loop.store, 'ghost_draft', `${LOOP_DATE}:settle`))?.externalId ?? '';
      ghost.editInGhost(preview);
      ghost.publishInGhost(settle);
      const again = await saveGhostDrafts(loop.store, ghostEnv(), { now: NOW, date: LOOP_DATE });
      expect(again.status === 'saved' && again.drafts.map((d) => [d.action, 'reason' in d ? d.reason : ''])).toEqual([
        ['left', expect.stringContaining('edited in Ghost')],
        ['left', expect.stringContaining('published in Ghost')],
      ]);
      expect(ghost.posts.get(settle)?.status).toBe('published');
      ghost.deleteInGhost(preview);
      const recreated = await saveGhostDrafts(loop.store, ghostEnv(), { now: NOW, date: LOOP_DATE });
      expect(recreated.status === 'saved' && recreated.drafts[0]?.action).toBe('recreated');
    });

    it('skips a draft with nothing real behind it (no slate stored for the date)', async () => {
      const result = await saveGhostDrafts(loop.store, ghostEnv(), { now: NOW, date: '2025-11-06' });
      expect(result.status === 'saved' && result.drafts.map((d) => d.action)).toEqual(['skipped', 'created']);
    });

    it('not configured: says so and makes no call', async () => {
      expect(await saveGhostDrafts(loop.store, loadConfig({}), { now: NOW, date: LOOP_DATE })).toMatchObject({ status: 'not_configured', missing: ['GHOST_URL', 'GHOST_ADMIN_KEY'] });
      expect(ghost.requests).toHaveLength(0);
    });
  });

  describe('desk-pack-ready notice', () => {
    const hookEnv = () => loadConfig({ DESK_NOTIFY_WEBHOOK: hook.url });

    it('posts once per ET date with Slack/Discord text, then sends nothing more that day', async () => {
      expect(await notifyDeskPackReady(loop.store, hookEnv(), NOW, quiet)).toMatchObject({ status: 'sent' });
      expect(hook.requests).toHaveLength(1);
      const body = hook.requests[0]?.body as { text: string; content: string };
      expect(body.text).toBe(body.content);
      expect(body.text).toMatch(/^propgrade desk pack ready for Wed Nov 5 \(ET\): 6 of 7 templates/);
      expect(body.text).toContain('Omitted: STREAK WATCH');
      expect(body.text).not.toContain('!');
      const later = new Date('2025-11-06T01:00:00Z'); // 8 PM ET, same ET date
      expect(await notifyDeskPackReady(loop.store, hookEnv(), later, quiet)).toMatchObject({ status: 'already_sent' });
      expect(hook.requests).toHaveLength(1);
    });

    it('a failing webhook is recorded, never throws, and the next run that day retries', async () => {
      hook.status = 500;
      const warnings: string[] = [];
      const failed = await notifyDeskPackReady(loop.store, hookEnv(), NOW, { info() {}, warn: (m) => warnings.push(m) });
      expect(failed).toMatchObject({ status: 'failed', detail: expect.stringContaining('HTTP 500') });
      expect(warnings.join('\n')).toContain('retries it');
      expect(await readLog(loop.store, 'desk_pack_ready', LOOP_DATE)).toMatchObject({ status: 'failed', detail: expect.objectContaining({ attempts: 1 }) });
      hook.status = 200;
      expect(await notifyDeskPackReady(loop.store, hookEnv(), NOW, quiet)).toMatchObject({ status: 'sent' });
      expect(await readLog(loop.store, 'desk_pack_ready', LOOP_DATE)).toMatchObject({ status: 'sent', detail: expect.objectContaining({ attempts: 2 }) });
    });

    it('an unreachable webhook is a failed status, not an exception', async () => {
      const result = await notifyDeskPackReady(loop.store, loadConfig({ DESK_NOTIFY_WEBHOOK: 'http://127.0.0.1:1/hook' }), NOW, quiet);
      expect(result.status).toBe('failed');
    });

    it('unconfigured: nothing sent, nothing recorded', async () => {
      expect(await notifyDeskPackReady(loop.store, loadConfig({}), NOW, quiet)).toEqual({ status: 'not_configured', detail: expect.stringContaining('DESK_NOTIFY_WEBHOOK') });
      expect(await readLog(loop.store, 'desk_pack_ready', LOOP_DATE)).toBeNull();
    });

    it('a pack with nothing ready is not announced', async () => {
      const t = tempStore();
      try {
        expect(await notifyDeskPackReady(t.store, hookEnv(), NOW, quiet)).toMatchObject({ status: 'nothing_ready' });
        expect(hook.requests).toHaveLength(0);
      } finally {
        t.cleanup();
      }
    });
  });
});
