/**
 * The part of @tryghost/admin-api (the official Ghost Admin API client, no bundled types) that
 * propgrade uses: posts read/add/edit. Shapes follow the Ghost Admin API docs ("Posts").
 */
declare module '@tryghost/admin-api' {
  export interface GhostAdminAPIOptions {
    url: string;
    key: string;
    version: string;
    userAgent?: boolean | string;
  }
  export interface GhostPost {
    id: string;
    uuid?: string;
    title: string;
    slug?: string;
    status: string;
    updated_at: string;
    url?: string;
    html?: string | null;
    [key: string]: unknown;
  }
  export interface PostsApi {
    read(data: { id: string }, query?: Record<string, string>): Promise<GhostPost>;
    add(data: Record<string, unknown>, query?: Record<string, string>): Promise<GhostPost>;
    edit(data: Record<string, unknown> & { id: string }, query?: Record<string, string>): Promise<GhostPost>;
  }
  export interface GhostAdminAPI {
    posts: PostsApi;
  }
  const GhostAdminAPI: (options: GhostAdminAPIOptions) => GhostAdminAPI;
  export default GhostAdminAPI;
}
