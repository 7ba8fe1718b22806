import { eventHandler, type H3Event } from 'h3';
import { z } from 'zod';
import type { Env } from '../../config.js';
import { isIsoDate, easternDate } from '../../domain/time.js';
import { AppError } from '../../errors.js';
import type { Caller } from '../../accounts/users.js';
import type { ServerDeps } from '../context.js';
import { bearerChallenge } from '../envelope.js';
import { clientCaller } from '../client-address.js';
import { afterLimit, defineRoute, type Route } from '../route.js';
import { isoDateDoc } from '../wire/registry.js';
import { deskPackSchema, ghostDraftsSchema, newsletterSendSchema, subscribeSchema } from '../wire/answers-content.js';

/**
 * Content desk routes (issue 14, docs/content.md): newsletter subscribe (public), the daily report
 * send and the Ghost drafts (internal key), and the founder desk: the pack as JSON and as a page
 * (bearer token of an allowlisted email, deny by default).
 */

/** Spec Limits: newsletter subscribe, 10 per minute per IP. */
export const SUBSCRIBE_LIMIT = { perWindow: 10, windowSeconds: 60 };

/**
 * The honeypot field: a form field humans never see (hidden by CSS) and bots fill. A request that
 * fills it gets the same 200 as a real subscription, and nothing is forwarded.
 */
export const HONEYPOT_FIELD = 'website';

const subscribeBody = z.object({
  email: z.string().trim().toLowerCase().max(254, 'expected at most 254 characters').meta({ format: 'email' }).pipe(z.email('expected an email address')),
  [HONEYPOT_FIELD]: z.string().max(500).optional(),
});

const dateQuery = z.object({ date: z.string().refine(isIsoDate, 'expected a date such as 2025-11-05').meta(isoDateDoc).optional().describe('ET date (default: today at the server clock)') });

/** The founder desk gate: a valid token (else 401) whose user's email is on DESK_ALLOWLIST (else 403). */
export function requireDeskCaller(caller: Caller, config: Env): void {
  if (!caller.authenticated || caller.user === null) throw new AppError('UNAUTHORIZED', 'the desk needs a bearer token (propgrade users add)', { challenge: bearerChallenge(caller.presentedToken) });
  const allow = (config.DESK_ALLOWLIST ?? []).map((e) => e.trim().toLowerCase());
  if (!allow.includes(caller.user.email.toLowerCase())) {
    throw new AppError('FORBIDDEN', 'the desk is open only to the emails on DESK_ALLOWLIST (paid tiers included)');
  }
}

/** Runs the per-IP limit before the route reads anything, so refused and malformed requests count too. */
function limitedBeforeInput(route: Route, key: (event: H3Event, deps: ServerDeps) => string, limit: { perWindow: number; windowSeconds: number }): Route {
  return {
    ...route,
    errors: [...new Set([...route.errors, 429])],
    handler: (deps) => {
      const inner = route.handler(deps);
      return eventHandler((event) => {
        const verdict = deps.limiter.hit(key(event, deps), limit.perWindow, limit.windowSeconds, deps.wallNow());
        return afterLimit(verdict, () => `rate limit: ${limit.perWindow} requests per ${limit.windowSeconds} s per address on this route`, () => inner(event));
      });
    },
  };
}

export function contentRoutes(deps: ServerDeps): Route[] {
  const dateOf = (date: string | undefined) => date ?? easternDate(deps.now());
  // The desk's record parts count each sport's 30 days on its own clock, as the record routes do; a date ends them all on it.
  // As of an explicit or system clock, an outcome settled later reads pending (docs/ledger.md "As of a time"), as in `propgrade desk`.
  const factsOf = (date: string | undefined) => ({
    now: deps.now(),
    date: dateOf(date),
    ...(date ? {} : { clockFor: (sport: string) => deps.now(sport) }),
    ...(deps.outcomesAsOfClock ? { asOf: deps.now() } : {}),
  });

  const subscribe = defineRoute({
    method: 'POST',
    path: '/api/newsletter/subscribe',
    tag: 'content',
    access: 'public',
    response: subscribeSchema,
    summary: 'Subscribe an email to the daily report (double opt-in on listmonk)',
    description:
      `Body \`{ email, ${HONEYPOT_FIELD} }\`: \`${HONEYPOT_FIELD}\` is a honeypot that must stay empty. Answers \`{ ok: true, status: "confirmation_sent" }\` for a new ` +
      'address, an address listmonk already has, and a filled honeypot alike (nothing is forwarded for the honeypot). ' +
      'listmonk not configured: 200 `{ ok: false, reason: "not_configured" }`. listmonk failing: 502 UPSTREAM. 10 requests per minute per address.',
    body: subscribeBody,
    errors: [429, 502],
    handle: async ({ body }) => {
      const { listmonkConfig, createSubscriber } = await import('../../publish/listmonk.js');
      const lm = listmonkConfig(deps.config);
      if (!lm.configured) return { ok: false, reason: 'not_configured' };
      const accepted = { ok: true, status: 'confirmation_sent' };
      const trap = body[HONEYPOT_FIELD];
      if (trap !== undefined && trap.trim() !== '') return accepted;
      await createSubscriber(lm.config, body.email);
      return accepted;
    },
  });

  return [
    limitedBeforeInput(subscribe, (event) => `subscribe:ip:${clientCaller(event, deps.config)}`, SUBSCRIBE_LIMIT),
    defineRoute({
      method: 'POST',
      path: '/api/internal/newsletter/send',
      tag: 'internal',
      access: 'internal',
      response: newsletterSendSchema,
      summary: 'Build the daily report and send it as a listmonk campaign (the same code as `propgrade newsletter send`)',
      description:
        'Query `date` (ET, default today). Answers `{ status: sent, campaign_id, ... }`, `already_sent`, `not_configured` (nothing called) or `refused` (`reason: empty | editorial`, no campaign). listmonk failing: 502 UPSTREAM.',
      query: dateQuery,
      errors: [502],
      handle: async ({ query }) => {
        const { sendDailyReport } = await import('../../jobs/publish/newsletter.js');
        return sendDailyReport(deps.store, deps.config, factsOf(query.date));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/internal/ghost/drafts',
      tag: 'internal',
      access: 'internal',
      response: ghostDraftsSchema,
      summary: 'Save the slate-preview and settle drafts to Ghost (always status draft; a second call updates the same posts)',
      description: 'Query `date` (ET, default today). Ghost not configured: `{ status: not_configured }`, nothing called. Ghost failing: 502 UPSTREAM.',
      query: dateQuery,
      errors: [502],
      handle: async ({ query }) => {
        const { saveGhostDrafts } = await import('../../jobs/publish/drafts.js');
        return saveGhostDrafts(deps.store, deps.config, factsOf(query.date));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/desk/pack',
      tag: 'desk',
      access: 'desk',
      response: deskPackSchema,
      summary: 'Founder desk: the day\'s pack as JSON (bearer token of a DESK_ALLOWLIST email; 401 without a valid token, 403 otherwise)',
      query: dateQuery,
      errors: [401, 403],
      handle: async ({ caller, query }) => {
        requireDeskCaller(caller, deps.config);
        const { readContentFacts } = await import('../../store/repo/content-facts.js');
        const { buildDeskPack } = await import('../../content/pack.js');
        return buildDeskPack(await readContentFacts(deps.store, factsOf(query.date)));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/desk',
      tag: 'desk',
      access: 'desk',
      response: 'html',
      summary: 'Founder desk page (HTML, strict CSP, no external assets); same access as /api/desk/pack',
      query: dateQuery,
      errors: [401, 403],
      handle: async ({ event, caller, query }) => {
        requireDeskCaller(caller, deps.config);
        const { readContentFacts } = await import('../../store/repo/content-facts.js');
        const { buildDeskPack } = await import('../../content/pack.js');
        const { renderDeskPage, deskCsp, newNonce } = await import('../../content/desk-page.js');
        const { recordChartData } = await import('../../content/record-chart.js');
        const facts = await readContentFacts(deps.store, factsOf(query.date));
        const pack = buildDeskPack(facts);
        const nonce = newNonce();
        const res = event.node.res;
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.setHeader('content-security-policy', deskCsp(nonce));
        res.setHeader('x-content-type-options', 'nosniff');
        res.setHeader('referrer-policy', 'no-referrer');
        return renderDeskPage(pack, nonce, recordChartData(facts));
      },
    }),
  ];
}
