import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createGhostDrafts, draftBody, ghostConfig, type DraftContent } from '../../src/publish/ghost.js';
import { ghostStandIn, type GhostStandIn } from './_standins.js';

const content: DraftContent = { title: 'Slate preview, Wed Nov 5', html: '<h2>MORNING WIRE</h2><p>11 games.</p>' };

describe('Ghost adapter (official @tryghost/admin-api client) against a loopback Ghost Admin API', () => {
  let ghost: GhostStandIn;
  beforeEach(async () => {
    ghost = await ghostStandIn();
  });
  afterEach(() => ghost.close());

  it('is configured with GHOST_URL and GHOST_ADMIN_KEY only', () => {
    expect(ghostConfig(loadConfig({ GHOST_URL: ghost.url }))).toEqual({ configured: false, missing: ['GHOST_ADMIN_KEY'] });
    expect(ghostConfig(loadConfig({ GHOST_URL: `${ghost.url}/`, GHOST_ADMIN_KEY: ghost.key }))).toEqual({ configured: true, config: { url: ghost.url, key: ghost.key } });
  });

  it('creates a draft: POST /ghost/api/admin/posts/?source=html, Authorization "Ghost <jwt>" signed with the key (kid, aud /admin/, 5 minutes)', async () => {
    const post = await createGhostDrafts({ url: ghost.url, key: ghost.key }).add(content);
    const req = ghost.requests[0];
    expect(req).toMatchObject({ method: 'POST', path: '/ghost/api/admin/posts/' });
    expect(req?.query.get('source')).toBe('html');
    expect(req?.headers['accept-version']).toBe('v5.0');
    // Documented body: a `posts` array of one post object.
    expect(req?.body).toEqual({ posts: [{ title: content.title, html: content.html, status: 'draft' }] });
    expect(ghost.tokens[0]?.header).toMatchObject({ alg: 'HS256', kid: ghost.key.split(':')[0] });
    expect(ghost.tokens[0]?.payload).toMatchObject({ aud: '/admin/' });
    expect(post).toMatchObject({ status: 'draft', id: expect.stringMatching(/^[0-9a-f]{24}$/) });
  });

  it('always writes status draft, whatever the content carries', () => {
    const sneaky = { ...content, status: 'published' } as DraftContent;
    expect(draftBody(sneaky)['status']).toBe('draft');
  });

  it('edits with the post\'s updated_at (PUT /ghost/api/admin/posts/{id}/) and reads a deleted post as null', async () => {
    const client = createGhostDrafts({ url: ghost.url, key: ghost.key });
    const post = await client.add(content);
    const edited = await client.edit(post.id, post.updatedAt, { ...content, title: 'Slate preview, Wed Nov 5 (2)' });
    const put = ghost.requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe(`/ghost/api/admin/posts/${post.id}/`);
    expect(put?.body).toEqual({ posts: [{ updated_at: post.updatedAt, title: 'Slate preview, Wed Nov 5 (2)', html: content.html, status: 'draft' }] });
    expect(edited.updatedAt > post.updatedAt).toBe(true);
    // A stale updated_at is Ghost's UpdateCollisionError (409): UPSTREAM for us.
    await expect(client.edit(post.id, post.updatedAt, content)).rejects.toMatchObject({ code: 'UPSTREAM', message: expect.stringContaining('UpdateCollisionError') });
    ghost.deleteInGhost(post.id);
    expect(await client.read(post.id)).toBeNull();
  });

  it('a wrong key is refused by Ghost (401) and reported as UPSTREAM; a malformed key before any call', async () => {
    const other = `${'a'.repeat(24)}:${'b'.repeat(64)}`;
    await expect(createGhostDrafts({ url: ghost.url, key: other }).add(content)).rejects.toMatchObject({ code: 'UPSTREAM', message: expect.stringContaining('UnauthorizedError') });
    expect(() => createGhostDrafts({ url: ghost.url, key: 'abc:def' })).toThrow(/GHOST_URL or GHOST_ADMIN_KEY is not usable/);
  });
});
