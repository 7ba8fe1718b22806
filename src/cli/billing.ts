import type { Command } from 'commander';
import { z } from 'zod';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, type CliIO } from './_io.js';
import { withStore } from './_run.js';

const eventsOptionsSchema = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(20) });

/** `propgrade billing`: the Stripe side of accounts (docs/accounts.md). */
export function registerBilling(program: Command, io: CliIO): void {
  const billing = program
    .command('billing')
    .description('Stripe billing: end expired graces, show a user\'s billing state, list received webhook events')
    .addHelpText('after', '\nExamples:\n  $ propgrade billing sweep --now 2025-11-07T18:00:00Z\n  $ propgrade billing show ana@example.com\n  $ propgrade billing events --limit 50');

  billing
    .command('sweep')
    .description('End every billing grace that has expired at the clock (--now): the tier becomes free on the user and its subscription record; idempotent')
    .addHelpText('after', '\nExample:\n  $ propgrade billing sweep --now 2025-11-07T18:00:00Z --json   # {"downgraded": 1, "subscriptions": 1, "now": "..."}')
    .action(async (_raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const now = ctx.now();
      const { sweepExpiredGraces } = await import('../accounts/billing.js');
      const result = await withStore(ctx, (store) => sweepExpiredGraces(store, now));
      ctx.result({ ...result, now: now.toISOString() }, (d) =>
        d.downgraded === 0 && d.subscriptions === 0
          ? `No billing grace had expired at ${d.now}.`
          : `Ended expired graces at ${d.now}: ${d.downgraded} user${d.downgraded === 1 ? '' : 's'} now free, ${d.subscriptions} subscription record${d.subscriptions === 1 ? '' : 's'} set to free.`,
      );
    });

  billing
    .command('show')
    .description("A user's billing state: tier, Stripe customer, subscription status, grace, subscription records")
    .argument('<email>', 'the user email')
    .addHelpText('after', '\nExample:\n  $ propgrade billing show ana@example.com --json')
    .action(async (email: string, _raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { billingView } = await import('../accounts/billing.js');
      const view = await withStore(ctx, (store) => billingView(store, email));
      ctx.result(view, (d) => {
        const head = [
          `${d.email}: tier ${d.tier}${d.founderPricing ? ', founder pricing' : ''}`,
          `  customer:     ${d.customerId ?? 'not linked (propgrade users link-customer <email> <cus_...>)'}`,
          `  status:       ${d.subscriptionStatus ?? '-'}`,
          `  grace until:  ${d.graceUntil ?? '-'}`,
        ].join('\n');
        if (d.subscriptions.length === 0) return `${head}\n  subscriptions: none received yet`;
        const table = renderTable(['Subscription', 'Status', 'Price', 'Tier', 'Grace until', 'Event time'], d.subscriptions.map((s) => [s.id, s.status, s.priceId ?? '-', s.tier ?? '-', s.graceUntil ?? '-', s.eventCreated]), ctx.color);
        return `${head}\n${table}`;
      });
    });

  billing
    .command('events')
    .description('The newest Stripe webhook events received, with what handling did (applied, stale, ignored and why)')
    .option('--limit <n>', 'how many (1 to 1000)', '20')
    .addHelpText('after', '\nExample:\n  $ propgrade billing events --limit 50 --json')
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(eventsOptionsSchema, raw);
      const { recentStripeEvents } = await import('../accounts/billing.js');
      const events = await withStore(ctx, (store) => recentStripeEvents(store, opts.limit));
      ctx.result(events, (rows) =>
        rows.length === 0
          ? 'No Stripe events received yet (POST /api/webhooks/stripe).'
          : renderTable(['Received', 'Event', 'Type', 'Created', 'Outcome'], rows.map((e) => [e.receivedAt, e.id, e.type, e.created, e.outcome]), ctx.color),
      );
    });
}
