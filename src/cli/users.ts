import type { Command } from 'commander';
import { z } from 'zod';
import { tierSchema } from '../domain/tiers.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, type CliIO } from './_io.js';
import { withStore } from './_run.js';

const addOptionsSchema = z.object({
  email: z.string({ error: 'required: --email <address>' }).trim().min(1, 'required: --email <address>'),
  tier: tierSchema,
  founderCode: z.string().optional(),
});

/** Customer, status and grace in one cell; `-` when the user was never linked to Stripe. */
function billingCell(u: { stripeCustomerId: string | null; subscriptionStatus: string | null; graceUntil: string | null }): string {
  if (!u.stripeCustomerId) return '-';
  return [u.stripeCustomerId, u.subscriptionStatus ?? 'no subscription yet', u.graceUntil ? `grace until ${u.graceUntil}` : null].filter(Boolean).join(', ');
}

export function registerUsers(program: Command, io: CliIO): void {
  const users = program
    .command('users')
    .description('API users and their bearer tokens (only a hash of each token is stored)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ propgrade users add --email ana@example.com --tier analyst\n  $ propgrade users add --email bo@example.com --founder-code FOUNDERS26\n  $ propgrade users list\n  $ propgrade users set-tier ana@example.com desk\n  $ propgrade users revoke ana@example.com\n  $ propgrade users link-customer ana@example.com cus_NciAYcXfLnqBoz\n  $ propgrade users prefs ana@example.com --json',
    );

  users
    .command('add')
    .description('Create a user and print its API token once (it cannot be shown again)')
    .option('--email <address>', 'the user email')
    .option('--tier <tier>', 'free | analyst | desk', 'free')
    .option('--founder-code <code>', 'give founder pricing with one of FOUNDER_CODES (refused after FOUNDER_CODE_EXPIRY)')
    .addHelpText('after', '\nExample:\n  $ propgrade users add --email ana@example.com --tier analyst --json   # {"token": "pg_...", ...}')
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(addOptionsSchema, raw);
      const { createUser } = await import('../accounts/users.js');
      const { checkFounderCode } = await import('../accounts/founders.js');
      const now = ctx.now();
      // Checked before the store opens: a refused code creates nothing.
      const founderCode = opts.founderCode === undefined ? undefined : checkFounderCode(ctx.config, opts.founderCode, now);
      const { user, token } = await withStore(ctx, (store) => createUser(store, { email: opts.email, tier: opts.tier }, now, { founderCode }), { creates: true });
      ctx.result({ id: user.id, email: user.email, tier: user.tier, createdAt: user.createdAt, founderPricing: user.founderPricing, token }, (d) =>
        [`Created ${d.email} (${d.tier}${d.founderPricing ? ', founder pricing' : ''}).`, `Token (shown once; store it now): ${d.token}`, 'Send it as: Authorization: Bearer <token>'].join('\n'),
      );
    });

  users
    .command('list')
    .description('List users with their tier and token counts (never tokens)')
    .addHelpText('after', '\nExample:\n  $ propgrade users list --json')
    .action(async (_raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { listAccounts } = await import('../accounts/users.js');
      const list = await withStore(ctx, (store) => listAccounts(store));
      ctx.result(
        list.map((u) => ({
          id: u.id,
          email: u.email,
          tier: u.tier,
          createdAt: u.createdAt,
          activeTokens: u.activeTokens,
          revokedTokens: u.revokedTokens,
          founderPricing: u.founderPricing,
          stripeCustomerId: u.stripeCustomerId,
          subscriptionStatus: u.subscriptionStatus,
          graceUntil: u.graceUntil,
        })),
        (rows) =>
          rows.length === 0
            ? 'No users yet. Add one with `propgrade users add --email <e> --tier <tier>`.'
            : renderTable(
                ['Id', 'Email', 'Tier', 'Created', 'Active tokens', 'Revoked', 'Founder', 'Billing'],
                rows.map((u) => [u.id, u.email, u.tier, u.createdAt, u.activeTokens, u.revokedTokens, u.founderPricing ? 'yes' : '-', billingCell(u)]),
                ctx.color,
              ),
      );
    });

  users
    .command('revoke')
    .description("Revoke every active token of a user (the user and its ledger stay)")
    .argument('<email>', 'the user email')
    .addHelpText('after', '\nExample:\n  $ propgrade users revoke ana@example.com')
    .action(async (email: string, _raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { revokeUser } = await import('../accounts/users.js');
      const { user, revoked } = await withStore(ctx, (store) => revokeUser(store, email, ctx.now()));
      ctx.result({ email: user.email, revoked }, (d) => `Revoked ${d.revoked} token${d.revoked === 1 ? '' : 's'} of ${d.email}.`);
    });

  users
    .command('set-tier')
    .description("Change a user's tier (a billing grace running on the user is cancelled: the tier set holds)")
    .argument('<email>', 'the user email')
    .argument('<tier>', 'free | analyst | desk')
    .addHelpText('after', '\nExample:\n  $ propgrade users set-tier ana@example.com desk')
    .action(async (email: string, tierArg: string, _raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const tier = parseOptions(tierSchema, tierArg);
      const { setUserTier } = await import('../accounts/users.js');
      const { user, previousTier, cancelledGrace } = await withStore(ctx, (store) => setUserTier(store, email, tier));
      ctx.result({ email: user.email, tier: user.tier, previousTier: previousTier, cancelledGraceUntil: cancelledGrace }, (d) =>
        d.cancelledGraceUntil ? `${d.email}: ${d.previousTier} -> ${d.tier} (billing grace until ${d.cancelledGraceUntil} cancelled)` : `${d.email}: ${d.previousTier} -> ${d.tier}`,
      );
    });

  users
    .command('link-customer')
    .description('Link a user to the Stripe customer it pays as (subscription events for that customer then apply to it)')
    .argument('<email>', 'the user email')
    .argument('<customer-id>', 'the Stripe customer id, cus_...')
    .addHelpText('after', '\nExample:\n  $ propgrade users link-customer ana@example.com cus_NciAYcXfLnqBoz')
    .action(async (email: string, customerId: string, _raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { linkCustomer } = await import('../accounts/billing.js');
      const linked = await withStore(ctx, (store) => linkCustomer(store, email, customerId));
      ctx.result({ email: linked.email, stripeCustomerId: linked.customerId, previous: linked.previous }, (d) =>
        d.previous === d.stripeCustomerId
          ? `${d.email} was already linked to ${d.stripeCustomerId}.`
          : `${d.email} -> ${d.stripeCustomerId}${d.previous ? ` (was ${d.previous})` : ''}. Subscription events for this customer now apply to this user.`,
      );
    });

  users
    .command('prefs')
    .description("Show a user's preferences and onboarding state")
    .argument('<email>', 'the user email')
    .addHelpText('after', '\nExample:\n  $ propgrade users prefs ana@example.com --json')
    .action(async (email: string, _raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { findUser } = await import('../accounts/users.js');
      const { getPreferences, onboardingFor } = await import('../accounts/preferences.js');
      const data = await withStore(ctx, async (store) => {
        const user = await findUser(store, email);
        const prefs = await getPreferences(store, user.id);
        return { email: user.email, ...prefs, onboarding: onboardingFor({ createdAt: user.createdAt, onboardingComplete: prefs.onboardingComplete }, ctx.config.ONBOARDING_CUTOFF) };
      });
      ctx.result(data, (d) =>
        [
          `${d.email}`,
          `  sports:              ${d.sports.length ? d.sports.join(', ') : '-'}`,
          `  books:               ${d.books.length ? d.books.join(', ') : '-'}`,
          `  bankroll limit:      ${d.bankrollLimit === null ? '-' : `$${d.bankrollLimit.toFixed(2)}`}`,
          `  onboarding complete: ${d.onboardingComplete ? 'yes' : 'no'}`,
          `  onboarding:          ${d.onboarding.required ? `required (redirect ${d.onboarding.redirect})` : d.onboarding.reason === 'exempt' ? `exempt (created before ONBOARDING_CUTOFF ${ctx.config.ONBOARDING_CUTOFF})` : 'done'}`,
          `  updated:             ${d.updatedAt ?? 'never saved'}`,
        ].join('\n'),
      );
    });
}
