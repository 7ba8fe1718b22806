import GhostAdminAPI, { type GhostPost } from '@tryghost/admin-api';
import type { Env } from '../config.js';
import { AppError } from '../errors.js';
import type { Configured } from './listmonk.js';

/**
 * Ghost drafts through the official Admin API client (@tryghost/admin-api), which signs a
 * short-lived HS256 JWT from the Admin API key (`<id>:<secret>`, audience `/admin/`) and sends it
 * as `Authorization: Ghost <token>`. Every write here is `status: 'draft'`, whatever the caller
 * passes: nothing propgrade saves is ever published (spec behaviour rule 7).
 */

export interface GhostConfig {
  url: string;
  key: string;
}

export function ghostConfig(env: Env): Configured<GhostConfig> {
  const missing = (['GHOST_URL', 'GHOST_ADMIN_KEY'] as const).filter((k) => env[k] === undefined);
  if (missing.length > 0 || !env.GHOST_URL || !env.GHOST_ADMIN_KEY) return { configured: false, missing };
  return { configured: true, config: { url: env.GHOST_URL.replace(/\/+$/, ''), key: env.GHOST_ADMIN_KEY } };
}

/** What we write to a post. There is deliberately no status field: drafts only. */
export interface DraftContent {
  title: string;
  /** HTML, sent with `?source=html` so Ghost converts it to its editor format. */
  html: string;
  tags?: string[];
}

export interface SavedPost {
  id: string;
  status: string;
  updatedAt: string;
  url: string | null;
}

export interface GhostDrafts {
  /** The post, or null when Ghost has no post with that id (deleted in Ghost). */
  read(id: string): Promise<SavedPost | null>;
  add(content: DraftContent): Promise<SavedPost>;
  /** Ghost requires the post's current `updated_at` on an edit (collision detection). */
  edit(id: string, updatedAt: string, content: DraftContent): Promise<SavedPost>;
}

const API_VERSION = 'v5.0';

function saved(p: GhostPost): SavedPost {
  return { id: p.id, status: p.status, updatedAt: p.updated_at, url: typeof p.url === 'string' ? p.url : null };
}

function upstream(what: string, error: unknown): AppError {
  const e = error as { name?: string; message?: string; type?: string };
  return new AppError('UPSTREAM', `Ghost ${what} failed: ${e.type ?? e.name ?? 'Error'}: ${e.message ?? String(error)}`);
}

/** The write body: the content plus the one status propgrade ever writes. */
export function draftBody(content: DraftContent): Record<string, unknown> {
  return { title: content.title, html: content.html, ...(content.tags ? { tags: content.tags } : {}), status: 'draft' };
}

export function createGhostDrafts(cfg: GhostConfig): GhostDrafts {
  let api: ReturnType<typeof GhostAdminAPI>;
  try {
    api = GhostAdminAPI({ url: cfg.url, key: cfg.key, version: API_VERSION });
  } catch (error) {
    // The client checks the key's shape (24 hex : 64 hex) and the URL before any call.
    throw new AppError('BAD_INPUT', `GHOST_URL or GHOST_ADMIN_KEY is not usable: ${error instanceof Error ? error.message.replace(cfg.key, '<key>') : String(error)}`);
  }
  return {
    async read(id) {
      try {
        return saved(await api.posts.read({ id }));
      } catch (error) {
        if ((error as { type?: string }).type === 'NotFoundError' || (error as { name?: string }).name === 'NotFoundError') return null;
        throw upstream(`read of post ${id}`, error);
      }
    },
    async add(content) {
      try {
        return saved(await api.posts.add(draftBody(content), { source: 'html' }));
      } catch (error) {
        throw upstream('draft create', error);
      }
    },
    async edit(id, updatedAt, content) {
      try {
        return saved(await api.posts.edit({ id, updated_at: updatedAt, ...draftBody(content) }, { source: 'html' }));
      } catch (error) {
        throw upstream(`draft update of post ${id}`, error);
      }
    },
  };
}
