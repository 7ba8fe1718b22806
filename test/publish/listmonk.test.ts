import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import { createCampaign, createSubscriber, listmonkConfig, startCampaign, type ListmonkConfig } from '../../src/publish/listmonk.js';
import { listmonkStandIn, type ListmonkStandIn } from './_standins.js';

describe('listmonk adapter against a loopback listmonk', () => {
  let lm: ListmonkStandIn;
  let cfg: ListmonkConfig;
  beforeEach(async () => {
    lm = await listmonkStandIn();
    cfg = { url: lm.url, user: lm.user, token: lm.token, listId: 3 };
  });
  afterEach(() => lm.close());

  it('is configured only with all four variables, and names the missing ones', () => {
    expect(listmonkConfig(loadConfig({ LISTMONK_URL: lm.url, LISTMONK_USER: 'u' }))).toEqual({ configured: false, missing: ['LISTMONK_TOKEN', 'LISTMONK_LIST_ID'] });
    expect(listmonkConfig(loadConfig({ LISTMONK_URL: lm.url, LISTMONK_USER: 'u', LISTMONK_TOKEN: 't', LISTMONK_LIST_ID: '3' }))).toMatchObject({ configured: true, config: { listId: 3 } });
  });

  it('POST /api/subscribers with basic auth, the list, status enabled and preconfirm_subscriptions false (double opt-in)', async () => {
    expect(await createSubscriber(cfg, 'ana@example.com')).toEqual({ status: 'created', id: 1 });
    const req = lm.requests[0];
    expect(req).toMatchObject({ method: 'POST', path: '/api/subscribers' });
    expect(req?.headers.authorization).toBe(`Basic ${Buffer.from(`${lm.user}:${lm.token}`).toString('base64')}`);
    // Documented fields: email, name, status, lists, preconfirm_subscriptions.
    expect(req?.body).toEqual({ email: 'ana@example.com', name: 'ana', status: 'enabled', lists: [3], preconfirm_subscriptions: false });
  });

  it('an address listmonk already has (409) is `exists`, not an error', async () => {
    await createSubscriber(cfg, 'bo@example.com');
    expect(await createSubscriber(cfg, 'bo@example.com')).toEqual({ status: 'exists', id: null });
  });

  it('a listmonk failure is UPSTREAM (502) with its status and message; so is a closed port', async () => {
    lm.failNext.set('/api/subscribers', { status: 500, message: 'Error creating subscriber' });
    const error = await createSubscriber(cfg, 'cy@example.com').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(502);
    expect((error as AppError).message).toBe('listmonk subscribe failed: HTTP 500 (Error creating subscriber)');
    const down = await createSubscriber({ ...cfg, url: 'http://127.0.0.1:1' }, 'cy@example.com').catch((e: unknown) => e);
    expect((down as AppError).code).toBe('UPSTREAM');
  });

  it('creates a regular HTML campaign with its text alternative on the list, then starts it (PUT status running)', async () => {
    const { id } = await createCampaign(cfg, { name: 'propgrade daily 2025-11-05', subject: 'propgrade daily for Wed Nov 5', body: '<p>hi</p>', altbody: 'hi' });
    // POST /api/campaigns documented fields: name, subject, lists, type, content_type, body, altbody.
    expect(lm.requests[0]?.body).toEqual({ name: 'propgrade daily 2025-11-05', subject: 'propgrade daily for Wed Nov 5', lists: [3], type: 'regular', content_type: 'html', body: '<p>hi</p>', altbody: 'hi' });
    expect(await startCampaign(cfg, id)).toEqual({ status: 'running' });
    expect(lm.requests[1]).toMatchObject({ method: 'PUT', path: `/api/campaigns/${id}/status`, body: { status: 'running' } });
    // A running campaign cannot be started again (listmonk: only draft or paused campaigns start).
    await expect(startCampaign(cfg, id)).rejects.toMatchObject({ code: 'UPSTREAM' });
  });
});
