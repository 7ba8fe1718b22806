import type { Command } from 'commander';
import { z } from 'zod';
import { tierSchema } from '../domain/tiers.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, type CliIO } from './_io.js';

const addOptionsSchema = z.object({
  email: z.string({ error: 'required: --email <address>' }).trim().min(1, 'required: --email <address>'),
  tier: tierSchema,
});

/** Runs `fn` on the store named by --db / PROPGRADE_DB, then closes it. */
async function withStore<T>(ctx: ReturnType<typeof contextFor>, fn: (store: import('../store/db.js').Store) => T): Promise<T> {
  const { openStore, DEFAULT_DB_PATH } = await import('../store/db.js');
  const store = openStore(ctx.dbPath() ?? DEFAULT_DB_PATH);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

export function registerUsers(program: Command, io: CliIO): void {
  const users = program
    .command('users')
    .description('API users and their bearer tokens (only a hash of each token is stored)')
    .addHelpText('after', '\nExamples:\n  $ propgrade users add --email ana@example.com --tier analyst\n  $ propgrade users list\n  $ propgrade users set-tier ana@example.com desk\n  $ propgrade users revoke ana@example.com');

  users
    .command('add')
    .description('Create a user and print its API token once (it cannot be shown again)')
    .option('--email <address>', 'the user email')
    .option('--tier <tier>', 'free | analyst | desk', 'free')
    .addHelpText('after', '\nExample:\n  $ propgrade users add --email ana@example.com --tier analyst --json   # {"token": "pg_...", ...}')
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(addOptionsSchema, raw);
      const { createUser } = await import('../pipeline/users.js');
      const { user, token } = await withStore(ctx, (store) => createUser(store, opts, ctx.now()));
      ctx.result({ id: user.id, email: user.email, tier: user.tier, created_at: user.createdAt, token }, (d) =>
        [`Created ${d.email} (${d.tier}).`, `Token (shown once; store it now): ${d.token}`, 'Send it as: Authorization: Bearer <token>'].join('\n'),
      );
    });

  users
    .command('list')
    .description('List users with their tier and token counts (never tokens)')
    .addHelpText('after', '\nExample:\n  $ propgrade users list --json')
    .action(async (_raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { listUsers } = await import('../pipeline/users.js');
      const list = await withStore(ctx, (store) => listUsers(store));
      ctx.result(
        list.map((u) => ({ id: u.id, email: u.email, tier: u.tier, created_at: u.createdAt, active_tokens: u.activeTokens, revoked_tokens: u.revokedTokens })),
        (rows) =>
          rows.length === 0
            ? 'No users yet. Add one with `propgrade users add --email <e> --tier <tier>`.'
            : renderTable(['Id', 'Email', 'Tier', 'Created', 'Active tokens', 'Revoked'], rows.map((u) => [u.id, u.email, u.tier, u.created_at, u.active_tokens, u.revoked_tokens]), ctx.color),
      );
    });

  users
    .command('revoke')
    .description("Revoke every active token of a user (the user and its ledger stay)")
    .argument('<email>', 'the user email')
    .addHelpText('after', '\nExample:\n  $ propgrade users revoke ana@example.com')
    .action(async (email: string, _raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { revokeUser } = await import('../pipeline/users.js');
      const { user, revoked } = await withStore(ctx, (store) => revokeUser(store, email, ctx.now()));
      ctx.result({ email: user.email, revoked }, (d) => `Revoked ${d.revoked} token${d.revoked === 1 ? '' : 's'} of ${d.email}.`);
    });

  users
    .command('set-tier')
    .description("Change a user's tier")
    .argument('<email>', 'the user email')
    .argument('<tier>', 'free | analyst | desk')
    .addHelpText('after', '\nExample:\n  $ propgrade users set-tier ana@example.com desk')
    .action(async (email: string, tierArg: string, _raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const tier = parseOptions(tierSchema, tierArg);
      const { setUserTier } = await import('../pipeline/users.js');
      const { user, previousTier } = await withStore(ctx, (store) => setUserTier(store, email, tier));
      ctx.result({ email: user.email, tier: user.tier, previous_tier: previousTier }, (d) => `${d.email}: ${d.previous_tier} -> ${d.tier}`);
    });
}
