/**
 * The propgrade HTTP API wire types, generated from /openapi.json by openapi-typescript.
 * Do not edit: `npm run api:types` rewrites this file (test/server/api-types.test.ts checks it).
 */

export interface paths {
    "/api/snapshot/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Real graded count and last pipeline run, with sync status
         * @description Reads the store only. sync_status compares the time since the last successful snapshot run with SNAPSHOT_EXPECTED_INTERVAL minutes: under 1.5x normal, 1.5x or more amber, 3x or more stale. Before any run: ran false, no time, no status.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getSnapshotSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/snapshot/{sport}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The latest snapshot of graded rows for a sport
         * @description Cache only, never a provider. Serialized and gzipped once per stored snapshot and tier; gzip when Accept-Encoding allows it (Vary: Accept-Encoding). Strong ETag per representation (the gzip one ends in -gz); If-None-Match with either gets a 304. Free callers get rows without the projection view (projection_prob, projection_odds, projection_ev_pct, projection_record) and with model_price_locked true. Views (optional query): view=card gives the slate card (at most 6 graded props per game, one per player and stat, A+ to F, with hidden = graded rows not shown); game, player, stat, min_grade and main=true keep only matching rows (any combination, with either view). A view answers in brotli when Accept-Encoding takes br at least as much as gzip, else gzip, else plain; its ETags end in -br / -gz; it carries view and filters in the body. Without parameters (or view=full alone) the answer is the full snapshot, unchanged.
         *
         *     Tier-shaped: answers everyone; without an analyst or desk token (none, unknown or revoked) the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record; a parlay's projection_payout) is withheld and model_price_locked is true. The market's side (grade, p_win, ev_pct, fair prices) is free.
         */
        get: operations["getSnapshotBySport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ticker": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ticker: snapshot line moves (MOVE) and manual pins
         * @description Hidden (visible false, no items) when fewer than 4 real items exist. Clients poll every 30 s.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getTicker"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/hero-prop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The hero prop: the A or B prop with the largest |projection - line|
         * @description Today's slate first; with no qualifying prop today, the most recent real graded read flagged latest: true; nothing stored: {available:false}. A projection on the other side of the line, or an edge gone now, never competes. `claim` is the grade with the price, book, fair and time it was computed on (the lock's), `claim.now` the market now. Model fields are tier-shaped.
         *
         *     Tier-shaped: answers everyone; without an analyst or desk token (none, unknown or revoked) the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record; a parlay's projection_payout) is withheld and model_price_locked is true. The market's side (grade, p_win, ev_pct, fair prices) is free.
         */
        get: operations["getHeroProp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accuracy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Accuracy by grade tier over the rolling 30 days
         * @description Public record only. Each sport's 30 days end on its own data clock (a replayed store's sports were recorded on different days), the same windows as GET /api/ledger/model and `propgrade record`; `windows` names each sport's, `window` is their span. A tier below 20 decided entries is in the learning state: counts, no percentage. Each tier carries units: flat 1-unit stakes at the locked price (units at n >= 1, roi_pct at n >= 20). Each tier, and beat_close for every entry together, carries beat close on both yardsticks (beat_close against the other books' no-vig consensus, beat_close_pinnacle against Pinnacle's own no-vig close where Pinnacle priced the locked line), pooled and by how long before the start the close was taken (*_by_lead: within_30m, 30m_to_3h, over_3h; n and a Wilson 95% interval, pct at n >= 20): the same figures as GET /api/ledger/model. settled_elsewhere says where settled entries are when the window holds none.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getAccuracy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ledger/accuracy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Accuracy by grade tier over the rolling 30 days
         * @description Public record only. Each sport's 30 days end on its own data clock (a replayed store's sports were recorded on different days), the same windows as GET /api/ledger/model and `propgrade record`; `windows` names each sport's, `window` is their span. A tier below 20 decided entries is in the learning state: counts, no percentage. Each tier carries units: flat 1-unit stakes at the locked price (units at n >= 1, roi_pct at n >= 20). Each tier, and beat_close for every entry together, carries beat close on both yardsticks (beat_close against the other books' no-vig consensus, beat_close_pinnacle against Pinnacle's own no-vig close where Pinnacle priced the locked line), pooled and by how long before the start the close was taken (*_by_lead: within_30m, 30m_to_3h, over_3h; n and a Wilson 95% interval, pct at n >= 20): the same figures as GET /api/ledger/model. settled_elsewhere says where settled entries are when the window holds none.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getLedgerAccuracy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ledger/model": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public model record: entries and the 30-day aggregate
         * @description The same record as `propgrade record`: each sport's entries in the 30 days ending on its own data clock (`windows` names each, aggregate.window is their span); the entries listed are the ones counted. Filters date (one ET game date, replaces the window), team, player (matched by normalized key), sport. Percentages (hit rate, beat close, ROI) are null below n = 20; beat_close_by_lead splits beat close by how long before the start each close was taken (within_30m, 30m_to_3h, over_3h), n >= 20 per band for a pct; beat_close_pinnacle and beat_close_pinnacle_by_lead read the locked price against Pinnacle's own no-vig close instead (issue 43); each entry carries close_lead_minutes and close_lead_band, close_books (the books that formed the close) and, only where Pinnacle priced the locked line, pinnacle_closing_fair_prob, pinnacle_close_lead_minutes, pinnacle_close_lead_band, pinnacle_clv, pinnacle_clv_pct and pinnacle_clv_verdict (absent, never null, where it did not); units (profit of 1-unit stakes at the locked price) show at n >= 1. total is every entry the filters match, count the ones returned (at most limit). Entries carry p_win only for entitled callers, and clv_status (CLV with its verdict, or why there is no close).
         *
         *     Tier-shaped: answers everyone; without an analyst or desk token (none, unknown or revoked) the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record; a parlay's projection_payout) is withheld and model_price_locked is true. The market's side (grade, p_win, ev_pct, fair prices) is free.
         */
        get: operations["getLedgerModel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedule/{sport}/lineups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Lineup status per player (CONFIRMED with batting slot, NOT_IN, PROJECTED)
         * @description From what the latest snapshot stored; no provider call. Nothing stored: available false. Rate-limited.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getScheduleBySportLineups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedule/{sport}/injuries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Injury chips (OUT, GTD, PROB) per player
         * @description From what the latest snapshot stored; an unknown status has no chip. Nothing stored: available false. Rate-limited.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getScheduleBySportInjuries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedule/{sport}/pitchers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Probable starting pitchers per game (MLB only), with a best-effort ERA
         * @description A pitcher is listed when the latest MLB snapshot priced his strikeouts (books post that market for the probable starter). ERA is 9 x ER / IP over his stored box-score lines, null when they don't carry both. Other sports: 404. Rate-limited.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getScheduleBySportPitchers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/team/{abbr}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Team hub: roster, per-player season averages, archetype, tonight's graded props
         * @description abbr is any known spelling (ESPN, NBA.com or Savant code, full name). sport picks the league when the code exists in several; without it the league with stored players wins. Unknown team: 404. Cached 15 minutes (kv_cache); props are tier-shaped per caller.
         *
         *     Tier-shaped: answers everyone; without an analyst or desk token (none, unknown or revoked) the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record; a parlay's projection_payout) is withheld and model_price_locked is true. The market's side (grade, p_win, ev_pct, fair prices) is free.
         */
        get: operations["getTeamByAbbr"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/players/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Player search over stored names
         * @description Ranked exact normalized key, then surname prefix, then folded substring. MLB searches every stored MLB player; other sports search cached names only (players the stored snapshots graded). No provider call.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getPlayersSearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Scan one player/stat/line/direction
         * @description Public. Grade plus intel and the book/fair prices recovered from the latest snapshot by exact join. With a valid token the graded read is written to that user's ledger; anonymous scans never are. A refused read (no projection) writes nothing and is not metered. Graded reads are metered per rolling 24 h (free 5, analyst 100, desk unlimited); over the meter: 429 with Retry-After.
         *
         *     Tier-shaped: answers everyone; without an analyst or desk token (none, unknown or revoked) the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record; a parlay's projection_payout) is withheld and model_price_locked is true. The market's side (grade, p_win, ev_pct, fair prices) is free.
         */
        post: operations["postScan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/scan-meter": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's scan meter: graded reads in the rolling 24 hours
         * @description Auth required (no, unknown or revoked token: 401). Read from the same usage_events rows the POST /api/scan limiter counts. Limited tiers: `{ unlimited: false, used, limit, remaining, window_hours: 24, window_start, next_free_at }`; `next_free_at` is when the oldest counted read leaves the window (null when none is counted). Unlimited tiers (desk): `{ unlimited: true }` and nothing else. A refused read (insufficient_data) is never counted. Limits per tier: free 5, analyst 100, desk unlimited.
         *
         *     Auth: a valid bearer token (none, unknown or revoked: 401).
         */
        get: operations["getUserScanMeter"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analyze": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Model-price analysis of one prop (analyst and desk)
         * @description The scan engine's read with the projection's own view (projection_prob, projection_odds, projection_ev_pct, projection_record) beside the market's (p_win, model_odds, ev_pct, value, takeable), with intel and prices. Free tier: 403. Not metered, never written to the ledger.
         *
         *     Tier-gated: analyst or desk token; any other caller gets 403.
         */
        post: operations["postAnalyze"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/parlay/grade": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grade a parlay of 2 to 6 legs
         * @description Legs per tier: free 2, analyst 4, desk 6 (more than the tier allows: 403). 400 for legs that make no parlay, naming them (details.conflicts, details.unresolved): two legs on one player's stat (the same prop twice, both sides of one prop, two lines of one stat), or no leg on a line the latest snapshot prices for an upcoming game. Combined grade, correlation, per-leg grades, the estimated payout at the market's fair prices; the payout at the projection's prices (projection_payout) and each leg's projection view are for analyst and desk (free: upsell).
         *
         *     Tier-shaped: answers everyone; without an analyst or desk token (none, unknown or revoked) the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record; a parlay's projection_payout) is withheld and model_price_locked is true. The market's side (grade, p_win, ev_pct, fair prices) is free.
         */
        post: operations["postParlayGrade"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/slips/parse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Read a bet slip (screenshot or pasted text) into legs and grade each leg
         * @description Auth required (Bearer token; none or invalid: 401). multipart/form-data with an `image` file (PNG, JPEG, GIF, BMP, WebP or TIFF, at most 4 MB) and optional `book`, or application/json `{ text, book? }`. Every field carries a confidence and needs_review; each gradeable leg is graded by the scan engine, its view tier-shaped. Parses per rolling 24 h: free 1, analyst and desk 10 (429 with Retry-After beyond). Every parse is counted before it starts, whatever its end (a result, bad input, a refused upload, noise, an undecodable image, the OCR budget). One parse at a time per caller (a second meanwhile: 429 with Retry-After, not counted). The upload is judged by its first bytes as it arrives: not an image, 400; a header declaring more than 25 megapixels or 10,000 pixels a side, or over 4 MB, 413; the rest of the body is not read. An image that thresholds to noise is a 400 before OCR. OCR runs on a small pool with a bounded line and a 10 s budget per image: pool busy or a parse stopped by the budget, 503 with Retry-After (busy is not counted).
         *
         *     Auth: a valid bearer token (none, unknown or revoked: 401).
         */
        post: operations["postSlipsParse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/snapshot/all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the snapshot pipeline for every graded sport
         * @description Needs the x-internal-key header (INTERNAL_API_KEY); wrong, missing or unconfigured: 401 and nothing runs. Same pipeline and per-sport lock as `propgrade snapshot all`. On a replayed store (its newest snapshot came from a replay) without a replay folder (`serve --replay`, PROPGRADE_REPLAY): 503 UNAVAILABLE_ON_REPLAY, nothing runs and no provider is called, even with ODDS_API_KEY set.
         *
         *     Internal: the x-internal-key header (INTERNAL_API_KEY); missing, wrong or unconfigured: 401.
         */
        post: operations["postInternalSnapshotAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/snapshot/{sport}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the snapshot pipeline for one sport
         * @description Needs the x-internal-key header. 409 when another run holds the sport's lock; a failed run answers 200 with status failed (the last snapshot is kept). On a replayed store (its newest snapshot came from a replay) without a replay folder (`serve --replay`, PROPGRADE_REPLAY): 503 UNAVAILABLE_ON_REPLAY, nothing runs and no provider is called, even with ODDS_API_KEY set.
         *
         *     Internal: the x-internal-key header (INTERNAL_API_KEY); missing, wrong or unconfigured: 401.
         */
        post: operations["postInternalSnapshotBySport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/newsletter/subscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Subscribe an email to the daily report (double opt-in on listmonk)
         * @description Body `{ email, website }`: `website` is a honeypot that must stay empty. Answers `{ ok: true, status: "confirmation_sent" }` for a new address, an address listmonk already has, and a filled honeypot alike (nothing is forwarded for the honeypot). listmonk not configured: 200 `{ ok: false, reason: "not_configured" }`. listmonk failing: 502 UPSTREAM. 10 requests per minute per address.
         *
         *     Public: the same answer for everyone.
         */
        post: operations["postNewsletterSubscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/newsletter/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Build the daily report and send it as a listmonk campaign (the same code as `propgrade newsletter send`)
         * @description Query `date` (ET, default today). Answers `{ status: sent, campaign_id, ... }`, `already_sent`, `not_configured` (nothing called) or `refused` (`reason: empty | editorial`, no campaign). listmonk failing: 502 UPSTREAM.
         *
         *     Internal: the x-internal-key header (INTERNAL_API_KEY); missing, wrong or unconfigured: 401.
         */
        post: operations["postInternalNewsletterSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/ghost/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Save the slate-preview and settle drafts to Ghost (always status draft; a second call updates the same posts)
         * @description Query `date` (ET, default today). Ghost not configured: `{ status: not_configured }`, nothing called. Ghost failing: 502 UPSTREAM.
         *
         *     Internal: the x-internal-key header (INTERNAL_API_KEY); missing, wrong or unconfigured: 401.
         */
        post: operations["postInternalGhostDrafts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/desk/pack": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Founder desk: the day's pack as JSON (bearer token of a DESK_ALLOWLIST email; 401 without a valid token, 403 otherwise)
         * @description Founder desk: a valid bearer token (else 401) whose email is on DESK_ALLOWLIST (else 403), whatever the tier.
         */
        get: operations["getDeskPack"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/desk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Founder desk page (HTML, strict CSP, no external assets); same access as /api/desk/pack
         * @description Founder desk: a valid bearer token (else 401) whose email is on DESK_ALLOWLIST (else 403), whatever the tier.
         */
        get: operations["getDesk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who the token belongs to: email, tier, entitlements, onboarding, billing state
         * @description Auth required (401 without a valid token). `onboarding` is `{ required: true, redirect: "/onboarding", reason: "new_user" }` for a user created on or after ONBOARDING_CUTOFF who has not set onboarding_complete, else `{ required: false, reason: "complete" | "exempt" }`; every auth route also sends the header `x-onboarding-required: /onboarding` in that case. `entitlements`: model_price, parlay_leg_cap, scan_reads_per_day (null = unlimited), slip_parses_per_day. `billing`: customer_linked, subscription_status, grace_until (the tier becomes free when it passes).
         *
         *     Auth: a valid bearer token (none, unknown or revoked: 401).
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/preferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's preferences
         * @description Auth required (401 without a valid token). `{ sports, books, bankroll_limit, onboarding_complete, updated_at, onboarding }`. Never saved: empty lists, bankroll_limit null, onboarding_complete false, updated_at null.
         *
         *     Auth: a valid bearer token (none, unknown or revoked: 401).
         */
        get: operations["getPreferences"];
        put?: never;
        /**
         * Update the caller's preferences (partial merge)
         * @description Auth required (401 without a valid token). Every field optional; fields not sent keep their value. sports: subset of mlb, nba, wnba, soccer, mma; books: Odds API book keys (betmgm, betonlineag, betrivers, betus, bovada, draftkings, fanatics, fanduel, hardrockbet, mybookieag, prizepicks, williamhill_us); values are trimmed, lower-cased and de-duplicated, at most 50 per list. bankroll_limit: US dollars, 0.01 to 1000000, kept to the cent, null clears it. onboarding_complete: true ends the onboarding redirect. An unknown sport, book or field, or a wrong type: 400 naming it, nothing saved. Answers the merged preferences, as GET.
         *
         *     Auth: a valid bearer token (none, unknown or revoked: 401).
         */
        post: operations["postPreferences"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/stripe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stripe webhook endpoint (signed events only)
         * @description Stripe calls this; nobody else can. The raw body is verified against the Stripe-Signature header with STRIPE_WEBHOOK_SECRET (HMAC-SHA256, timestamp within 300 s of the wall clock in either direction, also on a store served as of a replay) before anything is read: a missing, forged, stale or future-dated signature, or a body altered after signing, is a 400 with one fixed message and changes nothing. No webhook secret configured: 503 NOT_CONFIGURED (Stripe retries). Handled: invoice.payment_failed (tier stays paid, 48 h grace), customer.subscription.created/updated (tier from STRIPE_PRICE_TIERS on active or trialing, status stored, grace cleared), customer.subscription.deleted (48 h grace, then free after the sweep). Idempotent by event id; an event older than the stored state is stale. Unknown event type or customer: 200, recorded in stripe_events, nothing else changes. Body cap 524288 bytes. Answer: { received: true, outcome: applied | stale | ignored | duplicate }.
         *
         *     Public: the same answer for everyone.
         */
        post: operations["postWebhooksStripe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/payments/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A Stripe billing-portal session for the caller
         * @description Auth required (401 without a valid token). Creates a Stripe billing-portal session for the Stripe customer linked to the caller, returning to BILLING_RETURN_URL, and answers `{ url }` to redirect to (short-lived; create one per visit). No customer linked: 409 CONFLICT (details.reason no_customer). STRIPE_SECRET_KEY or BILLING_RETURN_URL not set: 503 NOT_CONFIGURED. Stripe failing or refusing: 502 UPSTREAM with Stripe's error type and code.
         *
         *     Auth: a valid bearer token (none, unknown or revoked: 401).
         */
        post: operations["postPaymentsPortal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/founders/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many founders hold an active subscription
         * @description Public. `{ available: true, count, as_of }`: users with founder pricing whose subscription status is active, cached 5 minutes (as_of is when it was counted). Billing not configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET both needed) or the store failing: `{ available: false }` and nothing else. A real 0 is 0.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getFoundersCount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/founders/redeem": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeem a founder pricing code
         * @description Auth required (401 without a valid token). Body `{ code }` (case and surrounding spaces ignored). Valid through the end of FOUNDER_CODE_EXPIRY (UTC), checked at each request. Unknown code: 400 (details.reason unknown_code); past the expiry: 410 EXPIRED (reason expired); FOUNDER_CODES not set: 503 NOT_CONFIGURED; already a founder by another code: 409. Answers `{ founder_pricing: true, code, already }`; redeeming the same code again changes nothing (already: true).
         *
         *     Auth: a valid bearer token (none, unknown or revoked: 401).
         */
        post: operations["postFoundersRedeem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/live/{sport}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live tracking of today’s ledger and slate props (labelled tracking; never changes a grade)
         * @description Per player and stat with a public ledger entry or a slate-card row on the ET date: the locked line and side, the real current value from the live box score and a tracking state while the game runs (HIT, ON PACE, NEEDS N, HOLDS, LINE PASSED), a final one once it is over (HIT, MISS, PUSH, VOID: the ledger outcome once settled, else the final box score by the settlement rule; docs/live.md), with a count per state, closest to hitting first. Box scores are cached 90 s. date must lie within 7 days before to 1 day after the server's data date (ET), else 400.
         *
         *     Public: the same answer for everyone.
         *
         *     May call a provider: counts against the caller’s upstream budget, shared by every route marked x-upstream (docs/api.md "Upstream rationing"; 30 requests per 60 s by default, per user with a valid token, else per client address). Over it: 429 with Retry-After. A date outside the route’s window around the data clock: 400.
         */
        get: operations["getLiveBySport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/news/{sport}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * News wire from ESPN (athlete and team only from the item’s categories), newest first
         * @description Items deduplicated by id, newest first; cached 15 minutes.
         *
         *     Public: the same answer for everyone.
         *
         *     May call a provider: counts against the caller’s upstream budget, shared by every route marked x-upstream (docs/api.md "Upstream rationing"; 30 requests per 60 s by default, per user with a valid token, else per client address). Over it: 429 with Retry-After. A date outside the route’s window around the data clock: 400.
         */
        get: operations["getNewsBySport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/futures/{sport}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Championship futures (mlb, nba, wnba): best price across the allowed books, move vs the previous price
         * @description Only with FUTURES_ENABLED=1; one Odds API outrights call per sport per 12 hours, outside the daily snapshot budget. Selections carry prev_price and move (shortening, drifting, flat on implied probability) only when a previous price exists. WNBA has no futures key: hidden with that reason.
         *
         *     Public: the same answer for everyone.
         *
         *     May call a provider: counts against the caller’s upstream budget, shared by every route marked x-upstream (docs/api.md "Upstream rationing"; 30 requests per 60 s by default, per user with a valid token, else per client address). Over it: 429 with Retry-After. A date outside the route’s window around the data clock: 400.
         */
        get: operations["getFuturesBySport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/combat/{date}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * MMA fight cards (UFC, PFL) for an ET date with moneyline and round-total odds; empty off-card
         * @description Per bout: two fighters with tale of the tape, best moneyline and round-total prices across the allowed books (joined by normalized fighter names), style blend and a style-edge model read (not a grade). Method, round and KO markets are data-limited. date must lie within 366 days before to 60 days after the server's data date (ET), else 400.
         *
         *     Public: the same answer for everyone.
         *
         *     May call a provider: counts against the caller’s upstream budget, shared by every route marked x-upstream (docs/api.md "Upstream rationing"; 30 requests per 60 s by default, per user with a valid token, else per client address). Over it: 429 with Retry-After. A date outside the route’s window around the data clock: 400.
         */
        get: operations["getCombatByDate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/fight/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One bout by ESPN id (404 for an unknown id)
         * @description Public: the same answer for everyone.
         *
         *     May call a provider: counts against the caller’s upstream budget, shared by every route marked x-upstream (docs/api.md "Upstream rationing"; 30 requests per 60 s by default, per user with a valid token, else per client address). Over it: 429 with Retry-After. A date outside the route’s window around the data clock: 400.
         */
        get: operations["getFightById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats/player/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Player profile, season averages and recent form from stored real game lines, archetype, tonight's graded props
         * @description The name resolves through the name normalizer: ambiguous (two players, or a name in two sports) is a 404 with details.candidates, never a guess; unknown is a 404 with did-you-mean details.suggestions. Every average carries its n; a player with no stored lines gets available: false and no figures. props are the main-line graded rows of today’s snapshot, tier-shaped. Rate-limited.
         *
         *     Tier-shaped: answers everyone; without an analyst or desk token (none, unknown or revoked) the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record; a parlay's projection_payout) is withheld and model_price_locked is true. The market's side (grade, p_win, ev_pct, fair prices) is free.
         */
        get: operations["getStatsPlayerByName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats/leaders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Per-game stat leaders of a season from stored real game lines, with the documented minimum games played
         * @description Average over each player’s played games carrying the stat (basketball: minutes > 0). Qualifies with at least 70% of the most games any team has stored in the season (rounded up), or min_games. Covers the players the store holds. Rate-limited.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getStatsLeaders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats/game/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The box score of one game: stored history first, else the provider (ESPN summary; MLB Stats API live feed)
         * @description id: a provider game id, or <yyyy-mm-dd>:<TEAM> for a stored game whose source carried none (that team and its opponent on the date). Provider answers are cached 5 minutes; nothing found: available false with the reason. Rate-limited.
         *
         *     Public: the same answer for everyone.
         *
         *     May call a provider: counts against the caller’s upstream budget, shared by every route marked x-upstream (docs/api.md "Upstream rationing"; 30 requests per 60 s by default, per user with a valid token, else per client address). Over it: 429 with Retry-After. A date outside the route’s window around the data clock: 400.
         */
        get: operations["getStatsGameById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats/pitcher/{name}/arsenal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Pitcher arsenal from Baseball Savant: per pitch type usage %, whiff %, velocity, ranked by usage, and strikeout %
         * @description Both season CSVs cached 24 hours. A missing velocity or whiff value is null, never 0. An unknown pitcher, an unknown data shape or an upstream error: {found: false} with the reason (an unknown name also carries did-you-mean suggestions). Two pitchers sharing the name: 404 with details.candidates. Season: 2015 (Statcast) through the data clock’s year, else 400.
         *
         *     Public: the same answer for everyone.
         *
         *     May call a provider: counts against the caller’s upstream budget, shared by every route marked x-upstream (docs/api.md "Upstream rationing"; 30 requests per 60 s by default, per user with a valid token, else per client address). Over it: 429 with Retry-After. A date outside the route’s window around the data clock: 400.
         */
        get: operations["getStatsPitcherByNameArsenal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats/lineup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The day's lineups per team with each player's CONFIRMED (batting slot), NOT_IN or PROJECTED state (MLB)
         * @description The same rule as /api/schedule/{sport}/lineups, over the MLB Stats API: posted lineups from the schedule, and for a started game its starting nine from the live feed. Cached 10 minutes. Other sports: available false. date must lie within 30 days before to 7 days after the server's data date (ET), else 400.
         *
         *     Public: the same answer for everyone.
         *
         *     May call a provider: counts against the caller’s upstream budget, shared by every route marked x-upstream (docs/api.md "Upstream rationing"; 30 requests per 60 s by default, per user with a valid token, else per client address). Over it: 429 with Retry-After. A date outside the route’s window around the data clock: 400.
         */
        get: operations["getStatsLineup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats/depth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Depth chart per position from the provider’s team roster, with its source and time
         * @description ESPN team roster (cached one hour) by position; within a position ordered by stored minutes per game (basketball) or games (MLB) this season, then the roster’s order. Unknown team: 404.
         *
         *     Public: the same answer for everyone.
         *
         *     May call a provider: counts against the caller’s upstream budget, shared by every route marked x-upstream (docs/api.md "Upstream rationing"; 30 requests per 60 s by default, per user with a valid token, else per client address). Over it: 429 with Retry-After. A date outside the route’s window around the data clock: 400.
         */
        get: operations["getStatsDepth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats/cascade": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * With/without split: teammates’ minutes and per-stat averages in games with and without a player, from real game lines
         * @description Window: the player’s current stint with his team. A teammate is shown only when both sides reach 5 played games (min_games may raise it). Not a model guess. Ambiguous or unknown player: 404 with details. Rate-limited.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getStatsCascade"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/desk-showcase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Desk showcase: a real alternate-line ladder of an A or B prop with the most grade variation, or {available: false}
         * @description Per rung: line, book price, fair price, grade, and the edge only when plausible (within ±10%, credible price; else null with edge_note). A same-team correlation tile (0.34) only with two real same-team legs. No Kelly tile. Reads the stored board. Rate-limited.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getDeskShowcase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process answers
         * @description No store work: 200 whenever the process can answer a request. For a load balancer or systemd watchdog.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the store, its migrations and each sport’s freshness
         * @description 200 when ready: the store opens with its migrations current, some sport has a snapshot, and no live sport's newest snapshot is older than 3x SNAPSHOT_EXPECTED_INTERVAL on the wall clock (a replayed sport is ready as of its own snapshot). 503 in the error envelope otherwise, the reasons in `details`; a store that does not answer (a PostgreSQL server down) is a 503 too, `details` then `{ready: false, reasons}`. Also the last snapshot run and settle per sport and any run lock; with the x-internal-key header, the day's Odds API credits and the lock holders' hosts. Never cached.
         *
         *     Public: the same answer for everyone.
         */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description Public: the same answer for everyone.
         */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Internal: the x-internal-key header, or Authorization: Bearer <INTERNAL_API_KEY> for scrapers that can only send that; missing, wrong or unconfigured: 401. The Prometheus text exposition format: HTTP requests by route template and status, latency histograms, bytes out, cache look-ups, process figures, and the runs' own figures read from the store (last success per job and sport, run duration, snapshot rows, graded, refused, settled, Odds API credits spent and left today). Never cached.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: {
                /**
                 * @description stable machine code; the HTTP status follows from it
                 * @enum {string}
                 */
                code: "BAD_INPUT" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "TOO_LARGE" | "RATE_LIMITED" | "CONFLICT" | "UNAVAILABLE" | "UNAVAILABLE_ON_REPLAY" | "UPSTREAM" | "EXPIRED" | "NOT_CONFIGURED" | "INTERNAL";
                /** @description for people: names the bad field or the reason */
                message: string;
                /** @description per route: candidates or suggestions of a 404 name, meter use of a 429, reason of a 400/409/410 */
                details?: unknown;
            };
        };
        ProjectionRecord: {
            /** Format: date */
            held_out_from: string;
            /** Format: date */
            held_out_to: string;
            props: number;
            projection_log_loss: number;
            market_log_loss: number;
            /** @description below 0: the projection predicted the held-out props better than the market */
            projection_minus_market: number;
            /** @description 95% bootstrap interval over games of projection_minus_market; null where the back-test printed none */
            interval: [
                number,
                number
            ] | null;
            source: string;
        };
        /** @description A graded (or refused) prop, tier-shaped */
        GradedRow: {
            player: string;
            team: string | null;
            opponent: string | null;
            event_id: string;
            /** @description AWAY @ HOME */
            game: string;
            /** @description ISO 8601 instant */
            commence_time: string;
            /** @enum {string} */
            stat_type: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles";
            line: number;
            /** @description the line most books offer; false for alternate (ladder) rungs */
            main_line: boolean | null;
            /** @enum {string} */
            side: "over" | "under";
            /** @enum {string} */
            direction: "over" | "under";
            /** @description null: refused (see refusal_reason) */
            grade: ("A+" | "A" | "B" | "C" | "F") | null;
            /** @description the letter the EV earns by the bands alone; differs from grade only when cap_reason says why (null: refused, or a grade stored before caps were recorded) */
            grade_uncapped: ("A+" | "A" | "B" | "C" | "F") | null;
            /** @description why grade sits below grade_uncapped; null when the letter is not capped */
            cap_reason: ("thin_consensus" | "alternate_rung" | "not_backtested" | "outlier_price" | "own_book_only" | "one_sided_market") | null;
            flags: "insufficient_data"[];
            refusal_reason: string | null;
            projection: number | null;
            book: string | null;
            over_odds: number | null;
            under_odds: number | null;
            book_odds: number | null;
            fair_odds: number | null;
            fair_prob: number | null;
            overround: number | null;
            devig_method: string | null;
            fair_source: ("consensus" | "market_implied" | "book") | null;
            consensus_books: number | null;
            thin_consensus: boolean | null;
            outlier_price: boolean | null;
            outlier: {
                book: string;
                odds: number;
            } | null;
            model_odds: number | null;
            p_win: number | null;
            ev_pct: number | null;
            value: number | null;
            takeable: boolean | null;
            archetype: string | null;
            /** @description ISO 8601 instant */
            gradedAt: string;
            line_delta: {
                delta: number;
                previous_line: number | null;
                direction: ("toward" | "away") | null;
            } | null;
            lineup_status: ("CONFIRMED" | "NOT_IN" | "PROJECTED") | null;
            batting_slot: number | null;
            injury_status: ("OUT" | "GTD" | "PROB") | null;
            /** @description the book the grade, p_win and ev_pct were computed on (its lock), at gradedAt */
            locked_book: string | null;
            /** @description the American price the grade was computed on: ev_pct = p_win x decimal(locked_odds) - 1 */
            locked_odds: number | null;
            /** @description the market's fair probability of the side when the grade was locked */
            locked_fair_prob: number | null;
            /** @description the current best price (book_odds) at the current fair (fair_prob), by the grade's rule */
            ev_now_pct: number | null;
            /** @description whether a locked claim of positive EV (A+, A, B) still holds at the price now */
            edge_now: ("holds" | "reduced" | "gone") | null;
            /** @description false: the projection lies on the other side of the line from the graded side */
            projection_agrees: boolean | null;
            /** @description the projection's own probability of the side (no push), from its count distribution; not the market's and never in the letter; analyst and desk callers only */
            projection_prob?: number | null;
            /** @description the projection's fair American price for the side; analyst and desk callers only */
            projection_odds?: number | null;
            /** @description EV of the graded price at projection_prob, percent of stake; the letter stays the market's (ev_pct); analyst and desk callers only */
            projection_ev_pct?: number | null;
            /** @description the projection's held-out log loss against the market's for this sport and stat; null where none was run; analyst and desk callers only */
            projection_record?: components["schemas"]["ProjectionRecord"] | null;
            /** @description true: the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record) was withheld for this tier */
            model_price_locked: boolean;
        };
        SnapshotHead: {
            id: number;
            /** @description ISO 8601 instant */
            taken_at: string;
            /** Format: date */
            slate_date: string;
            graded: number;
            rows: number;
        };
        ClvStatus: {
            clv: number | null;
            /** @description the locked price's EV at the closing fair, percent of stake; the verdict follows it */
            clv_pct: number | null;
            clv_line: number | null;
            verdict: ("beat" | "faded" | "flat") | null;
            final: boolean;
            no_close_reason: ("not_captured_yet" | "no_book" | "no_snapshot_after_lock" | "game_not_in_later_snapshots" | "market_stopped_pricing" | "no_capture_before_start" | "captured_after_start" | "one_sided_market") | null;
            note: string | null;
        };
        LedgerEntry: {
            id: number;
            sport: string;
            event_id: string;
            /** Format: date */
            game_date: string;
            /** @description ISO 8601 instant */
            commence_time: string;
            player: string;
            team: string | null;
            opponent: string | null;
            /** @enum {string} */
            stat: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles";
            line: number;
            /** @enum {string} */
            side: "over" | "under";
            grade: ("A+" | "A" | "B" | "C" | "F") | null;
            /** @description the letter the locked EV earns uncapped (null: not recorded) */
            grade_uncapped: ("A+" | "A" | "B" | "C" | "F") | null;
            /** @description why grade sits below grade_uncapped; null when not capped */
            cap_reason: ("thin_consensus" | "alternate_rung" | "not_backtested" | "outlier_price" | "own_book_only" | "one_sided_market") | null;
            projection: number | null;
            p_win: number | null;
            book: string | null;
            locked_price: number | null;
            locked_fair_prob: number | null;
            locked_fair_source: ("consensus" | "market_implied" | "book") | null;
            /** @description ISO 8601 instant */
            locked_at: string;
            closing_line: number | null;
            closing_price: number | null;
            closing_fair_prob: number | null;
            closing_fair_source: ("consensus" | "market_implied" | "book") | null;
            /** @description when the close was captured */
            closing_captured_at: string | null;
            /** @description minutes from the close's capture to the game's start; null without a close */
            close_lead_minutes: number | null;
            /** @description within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h */
            close_lead_band: ("within_30m" | "30m_to_3h" | "over_3h") | null;
            /** @description own_book_devig: a close stored before the one-yardstick change, never in a beat-close rate */
            close_method: ("one_yardstick" | "own_book_devig") | null;
            clv: number | null;
            clv_pct: number | null;
            clv_line: number | null;
            clv_verdict: ("beat" | "faded" | "flat") | null;
            clv_status?: components["schemas"]["ClvStatus"];
            /** @description the book keys whose prices formed the close (the consensus yardstick's books), sorted; null without a close */
            close_books: string[] | null;
            /** @description the second yardstick (issue 43): Pinnacle's own no-vig fair for the side at the locked line, from its last two-sided price before the start; absent where Pinnacle never priced the line */
            pinnacle_closing_fair_prob?: number;
            /** @description minutes from that Pinnacle price to the game's start; absent with it */
            pinnacle_close_lead_minutes?: number;
            /**
             * @description the band of pinnacle_close_lead_minutes (edges as close_lead_band); absent with it
             * @enum {string}
             */
            pinnacle_close_lead_band?: "within_30m" | "30m_to_3h" | "over_3h";
            /** @description Pinnacle's closing fair minus the locked fair; absent where either is missing */
            pinnacle_clv?: number;
            /** @description the locked price's EV at Pinnacle's closing fair, percent of stake; absent where either is missing */
            pinnacle_clv_pct?: number;
            /**
             * @description beat, faded or flat (inside ±0.5%) against Pinnacle's close; absent where Pinnacle never priced the line
             * @enum {string}
             */
            pinnacle_clv_verdict?: "beat" | "faded" | "flat";
            /** @enum {string} */
            outcome: "pending" | "hit" | "miss" | "push" | "void";
            actual: number | null;
            settled_at: string | null;
            revised_from_grade: ("A+" | "A" | "B" | "C" | "F") | null;
            /** @description true: the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record) was withheld for this tier */
            model_price_locked: boolean;
        };
        Me: {
            /** Format: email */
            email: string;
            /** @enum {string} */
            tier: "free" | "analyst" | "desk";
            /** @description ISO 8601 instant */
            created_at: string;
            entitlements: {
                model_price: boolean;
                parlay_leg_cap: number;
                /** @description null: unlimited */
                scan_reads_per_day: number | null;
                slip_parses_per_day: number;
            };
            onboarding: {
                /** @constant */
                required: true;
                redirect: string;
                /** @constant */
                reason: "new_user";
            } | {
                /** @constant */
                required: false;
                /** @enum {string} */
                reason: "complete" | "exempt";
            };
            founder_pricing: boolean;
            billing: {
                customer_linked: boolean;
                subscription_status: string | null;
                grace_until: string | null;
            };
        };
        Preferences: {
            sports: ("mlb" | "nba" | "wnba" | "soccer" | "mma")[];
            books: ("betmgm" | "betonlineag" | "betrivers" | "betus" | "bovada" | "draftkings" | "fanatics" | "fanduel" | "hardrockbet" | "mybookieag" | "prizepicks" | "williamhill_us")[];
            /** @description US dollars; null when not set */
            bankroll_limit: number | null;
            onboarding_complete: boolean;
            updated_at: string | null;
            onboarding: {
                /** @constant */
                required: true;
                redirect: string;
                /** @constant */
                reason: "new_user";
            } | {
                /** @constant */
                required: false;
                /** @enum {string} */
                reason: "complete" | "exempt";
            };
        };
        WebhookAnswer: {
            /** @constant */
            received: true;
            event_id: string;
            /** @enum {string} */
            outcome: "applied" | "stale" | "ignored" | "duplicate";
        };
        PortalSession: {
            /** Format: uri */
            url: string;
        };
        FounderCount: {
            /** @constant */
            available: true;
            count: number;
            /** @description ISO 8601 instant */
            as_of: string;
        } | {
            /** @constant */
            available: false;
        };
        FounderRedeem: {
            /** @constant */
            founder_pricing: true;
            code: string;
            already: boolean;
        };
        SnapshotAnswer: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @constant */
            available: true;
            /** @enum {string} */
            tier: "free" | "analyst" | "desk";
            snapshot: components["schemas"]["SnapshotHead"];
            games: {
                event_id: string;
                game: string;
                /** @description ISO 8601 instant */
                commence_time: string;
                rows: components["schemas"]["GradedRow"][];
            }[];
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @constant */
            available: true;
            /** @enum {string} */
            tier: "free" | "analyst" | "desk";
            /** @enum {string} */
            view: "full" | "card";
            filters: {
                game: string | null;
                player: string | null;
                stat: ("points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles") | null;
                min_grade: ("A+" | "A" | "B" | "C" | "F") | null;
                main_only: boolean;
            };
            snapshot: components["schemas"]["SnapshotHead"];
            games: {
                event_id: string;
                game: string;
                /** @description ISO 8601 instant */
                commence_time: string;
                rows: components["schemas"]["GradedRow"][];
                /** @description card view: graded rows of the game not shown */
                hidden?: number;
            }[];
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @constant */
            available: false;
            /** @enum {string} */
            tier: "free" | "analyst" | "desk";
        };
        SnapshotSummary: {
            ran: boolean;
            last_run_at: string | null;
            last_run_sport: string | null;
            expected_interval_minutes: number;
            sync_status: ("normal" | "amber" | "stale") | null;
            graded: number;
            sports: {
                /** @enum {string} */
                sport: "mlb" | "nba" | "wnba" | "soccer";
                snapshot_id: number;
                /** @description ISO 8601 instant */
                taken_at: string;
                /** Format: date */
                slate_date: string;
                graded: number;
                rows: number;
            }[];
            message?: string;
        };
        SnapshotRuns: {
            runs: {
                /** @enum {string} */
                sport: "mlb" | "nba" | "wnba" | "soccer";
                run_id: number;
                /** @enum {string} */
                status: "ok" | "empty" | "failed" | "locked" | "not_recorded";
                /** Format: date */
                slate_date: string;
                snapshot_id: number | null;
                events: number;
                rows: number;
                graded: number;
                refused: number;
                dropped: number;
                new_locks: number;
                moves: number;
                ledger_inserted: number;
                closings_captured: number;
                message: string | null;
            }[];
        };
        Ticker: {
            /** @description false below 4 real items (and then no items) */
            visible: boolean;
            count: number;
            items: {
                /** @enum {string} */
                kind: "MOVE" | "PIN";
                text: string;
                sport: string | null;
                at: string | null;
                /** @enum {string} */
                source: "snapshot" | "manual" | "env";
            }[];
        };
        HeroProp: {
            /** @constant */
            available: true;
            latest: boolean;
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            snapshot_id: number;
            gap: number | null;
            /** @description the grade with the price, book, fair and time it was computed on (its lock) */
            claim: {
                grade: ("A+" | "A" | "B" | "C" | "F") | null;
                book: string | null;
                odds: number | null;
                fair_odds: number | null;
                /** @description ISO 8601 instant */
                graded_at: string;
                /** @description the market in the snapshot the hero was read from */
                now: {
                    book: string | null;
                    odds: number | null;
                    fair_odds: number | null;
                };
            };
            prop: components["schemas"]["GradedRow"];
        } | {
            /** @constant */
            available: false;
        };
        /** @description flat 1-unit stakes at the locked price */
        Units: {
            n: number;
            units: number | null;
            roi_pct: number | null;
            /** @enum {string} */
            state: "ok" | "building";
            /** @description 95% interval of the ROI, percent: a percentile bootstrap resampling whole games (docs/ledger.md "Intervals"); null below n = 20 or with one game */
            roi_ci95: [
                number,
                number
            ] | null;
            unpriced: number;
        };
        Accuracy: {
            window: {
                /** Format: date */
                from: string;
                /** Format: date */
                to: string;
            };
            /** @description the window each sport's entries were counted in, ending on that sport's data clock (window is their span) */
            windows: {
                /** @enum {string} */
                sport: "mlb" | "nba" | "wnba" | "soccer";
                /** Format: date */
                from: string;
                /** Format: date */
                to: string;
            }[];
            min_sample: number;
            tiers: {
                /** @enum {string} */
                grade: "A+" | "A" | "B" | "C";
                n: number;
                hits: number;
                pct: number | null;
                ci95: [
                    number,
                    number
                ] | null;
                /** @enum {string} */
                state: "ok" | "learning";
                label: string;
                units: components["schemas"]["Units"];
                /** @description share of closes (the consensus yardstick) that the locked price beat, whatever their lead time */
                beat_close: {
                    n: number;
                    successes: number;
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                    /** @enum {string} */
                    state: "ok" | "building";
                    label: string;
                };
                /** @description the beat-close verdicts by how long before the start the close was taken, nearest the start first */
                beat_close_by_lead: {
                    /**
                     * @description within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h
                     * @enum {string}
                     */
                    band: "within_30m" | "30m_to_3h" | "over_3h";
                    n: number;
                    beat: number;
                    faded: number;
                    flat: number;
                    /** @description percent of n that beat the close; null below n = 20 */
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                }[];
                /** @description share of the entries Pinnacle priced at the locked line whose locked price beat Pinnacle's own no-vig close (its last price before the start); beat_close is the consensus yardstick */
                beat_close_pinnacle: {
                    n: number;
                    successes: number;
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                    /** @enum {string} */
                    state: "ok" | "building";
                    label: string;
                };
                /** @description the Pinnacle-yardstick verdicts by how long before the start Pinnacle's close was taken, nearest the start first */
                beat_close_pinnacle_by_lead: {
                    /**
                     * @description within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h
                     * @enum {string}
                     */
                    band: "within_30m" | "30m_to_3h" | "over_3h";
                    n: number;
                    beat: number;
                    faded: number;
                    flat: number;
                    /** @description percent of n that beat the close; null below n = 20 */
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                }[];
            }[];
            /** @description every public entry in the windows together, as aggregate in GET /api/ledger/model */
            beat_close: {
                /** @description share of closes (the consensus yardstick) that the locked price beat, whatever their lead time */
                beat_close: {
                    n: number;
                    successes: number;
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                    /** @enum {string} */
                    state: "ok" | "building";
                    label: string;
                };
                /** @description the beat-close verdicts by how long before the start the close was taken, nearest the start first */
                beat_close_by_lead: {
                    /**
                     * @description within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h
                     * @enum {string}
                     */
                    band: "within_30m" | "30m_to_3h" | "over_3h";
                    n: number;
                    beat: number;
                    faded: number;
                    flat: number;
                    /** @description percent of n that beat the close; null below n = 20 */
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                }[];
                /** @description share of the entries Pinnacle priced at the locked line whose locked price beat Pinnacle's own no-vig close (its last price before the start); beat_close is the consensus yardstick */
                beat_close_pinnacle: {
                    n: number;
                    successes: number;
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                    /** @enum {string} */
                    state: "ok" | "building";
                    label: string;
                };
                /** @description the Pinnacle-yardstick verdicts by how long before the start Pinnacle's close was taken, nearest the start first */
                beat_close_pinnacle_by_lead: {
                    /**
                     * @description within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h
                     * @enum {string}
                     */
                    band: "within_30m" | "30m_to_3h" | "over_3h";
                    n: number;
                    beat: number;
                    faded: number;
                    flat: number;
                    /** @description percent of n that beat the close; null below n = 20 */
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                }[];
            };
            /** @description where settled entries are when the window holds none */
            settled_elsewhere: {
                settled: number;
                /** Format: date */
                latest_game_date: string;
                try_now: string | null;
                try_days: number | null;
                /** Format: date */
                try_date: string;
            } | null;
        };
        ModelRecord: {
            /** @description each tier against its own claim, first: the all-entries aggregate mixes claims of positive and negative EV */
            tiers: {
                /** @enum {string} */
                grade: "A+" | "A" | "B" | "C";
                counts: {
                    entries: number;
                    hits: number;
                    misses: number;
                    pushes: number;
                    voids: number;
                    pending: number;
                };
                hit_rate: {
                    n: number;
                    successes: number;
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                    /** @enum {string} */
                    state: "ok" | "building";
                    label: string;
                };
                units: components["schemas"]["Units"];
                /** @description what the tier's grades claimed: the mean EV of its settled stakes' locked prices at their p_win, percent */
                claim: {
                    n: number;
                    mean_ev_pct: number | null;
                };
                /** @description share of the tier's closes (one yardstick) that the locked price beat, whatever their lead time */
                beat_close: {
                    n: number;
                    successes: number;
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                    /** @enum {string} */
                    state: "ok" | "building";
                    label: string;
                };
                /** @description the beat-close verdicts by how long before the start the close was taken, nearest the start first */
                beat_close_by_lead: {
                    /**
                     * @description within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h
                     * @enum {string}
                     */
                    band: "within_30m" | "30m_to_3h" | "over_3h";
                    n: number;
                    beat: number;
                    faded: number;
                    flat: number;
                    /** @description percent of n that beat the close; null below n = 20 */
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                }[];
                /** @description share of the entries Pinnacle priced at the locked line whose locked price beat Pinnacle's own no-vig close (its last price before the start); beat_close is the consensus yardstick */
                beat_close_pinnacle: {
                    n: number;
                    successes: number;
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                    /** @enum {string} */
                    state: "ok" | "building";
                    label: string;
                };
                /** @description the Pinnacle-yardstick verdicts by how long before the start Pinnacle's close was taken, nearest the start first */
                beat_close_pinnacle_by_lead: {
                    /**
                     * @description within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h
                     * @enum {string}
                     */
                    band: "within_30m" | "30m_to_3h" | "over_3h";
                    n: number;
                    beat: number;
                    faded: number;
                    flat: number;
                    /** @description percent of n that beat the close; null below n = 20 */
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                }[];
                clv: {
                    beat: number;
                    faded: number;
                    flat: number;
                };
                calibration: {
                    n: number;
                    mean_p_win_pct: number | null;
                    actual: {
                        n: number;
                        successes: number;
                        pct: number | null;
                        ci95: [
                            number,
                            number
                        ] | null;
                        /** @enum {string} */
                        state: "ok" | "building";
                        label: string;
                    };
                };
            }[];
            aggregate: {
                window: {
                    /** Format: date */
                    from: string;
                    /** Format: date */
                    to: string;
                };
                scope: {
                    team: string | null;
                    player: string | null;
                    sport: string | null;
                };
                counts: {
                    entries: number;
                    hits: number;
                    misses: number;
                    pushes: number;
                    voids: number;
                    pending: number;
                };
                hit_rate: {
                    n: number;
                    successes: number;
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                    /** @enum {string} */
                    state: "ok" | "building";
                    label: string;
                };
                beat_close: {
                    n: number;
                    successes: number;
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                    /** @enum {string} */
                    state: "ok" | "building";
                    label: string;
                };
                /** @description the beat-close verdicts by how long before the start the close was taken, nearest the start first */
                beat_close_by_lead: {
                    /**
                     * @description within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h
                     * @enum {string}
                     */
                    band: "within_30m" | "30m_to_3h" | "over_3h";
                    n: number;
                    beat: number;
                    faded: number;
                    flat: number;
                    /** @description percent of n that beat the close; null below n = 20 */
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                }[];
                /** @description share of the entries Pinnacle priced at the locked line whose locked price beat Pinnacle's own no-vig close (its last price before the start); beat_close is the consensus yardstick */
                beat_close_pinnacle: {
                    n: number;
                    successes: number;
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                    /** @enum {string} */
                    state: "ok" | "building";
                    label: string;
                };
                /** @description the Pinnacle-yardstick verdicts by how long before the start Pinnacle's close was taken, nearest the start first */
                beat_close_pinnacle_by_lead: {
                    /**
                     * @description within_30m: lead <= 30 min; 30m_to_3h: 30 min < lead <= 3 h; over_3h: lead > 3 h
                     * @enum {string}
                     */
                    band: "within_30m" | "30m_to_3h" | "over_3h";
                    n: number;
                    beat: number;
                    faded: number;
                    flat: number;
                    /** @description percent of n that beat the close; null below n = 20 */
                    pct: number | null;
                    ci95: [
                        number,
                        number
                    ] | null;
                }[];
                clv: {
                    beat: number;
                    faded: number;
                    flat: number;
                };
                units: components["schemas"]["Units"];
            };
            /** @description the window's entries whose letter a cap holds below what its EV earned, per letter, uncapped letter and reason */
            capped: {
                /** @enum {string} */
                grade: "A+" | "A" | "B" | "C" | "F";
                grade_uncapped: ("A+" | "A" | "B" | "C" | "F") | null;
                /** @enum {string} */
                cap_reason: "thin_consensus" | "alternate_rung" | "not_backtested" | "outlier_price" | "own_book_only" | "one_sided_market";
                n: number;
            }[];
            /** @description where settled entries are when the window holds none */
            settled_elsewhere: {
                settled: number;
                /** Format: date */
                latest_game_date: string;
                try_now: string | null;
                try_days: number | null;
                /** Format: date */
                try_date: string;
            } | null;
            /** @description the window each sport's entries were counted in, ending on that sport's data clock (window is their span) */
            windows: {
                /** @enum {string} */
                sport: "mlb" | "nba" | "wnba" | "soccer";
                /** Format: date */
                from: string;
                /** Format: date */
                to: string;
            }[];
            total: number;
            count: number;
            limit: number;
            entries: components["schemas"]["LedgerEntry"][];
        };
        /** @description a scan read, tier-shaped */
        ScanView: {
            /** @enum {string} */
            status: "graded" | "refused" | "ambiguous" | "unknown_player";
            request: {
                player: string;
                /** @enum {string} */
                stat: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles";
                line: number;
                /** @enum {string} */
                direction: "over" | "under";
            };
            /** @enum {string} */
            sport?: "mlb" | "nba" | "wnba" | "soccer";
            player?: {
                name: string;
                key: string;
                team: string | null;
            };
            candidates?: {
                name: string;
                key: string;
                /** @enum {string} */
                sport: "mlb" | "nba" | "wnba" | "soccer";
            }[];
            suggestions?: {
                name: string;
                key: string;
                /** @enum {string} */
                sport: "mlb" | "nba" | "wnba" | "soccer";
                similarity: number;
            }[];
            game?: {
                event_id: string;
                label: string;
                /** @description ISO 8601 instant */
                commence_time: string;
                opponent: string | null;
            } | null;
            /** Format: date */
            graded_for?: string;
            grade: ("A+" | "A" | "B" | "C" | "F") | null;
            /**
             * @description the letter the EV earns by the bands alone (graded reads only)
             * @enum {string}
             */
            grade_uncapped?: "A+" | "A" | "B" | "C" | "F";
            /** @description why grade sits below grade_uncapped; null when not capped */
            cap_reason?: ("thin_consensus" | "alternate_rung" | "not_backtested" | "outlier_price" | "own_book_only" | "one_sided_market") | null;
            flags: string[];
            refusal_reason?: string;
            projection: number | null;
            p_win: number | null;
            model_odds: number | null;
            ev_pct: number | null;
            value: number | null;
            takeable: boolean | null;
            /** @description the projection's own probability of the side (no push), from its count distribution; not the market's and never in the letter; analyst and desk callers only */
            projection_prob?: number | null;
            /** @description the projection's fair American price for the side; analyst and desk callers only */
            projection_odds?: number | null;
            /** @description EV of the graded price at projection_prob, percent of stake; the letter stays the market's (ev_pct); analyst and desk callers only */
            projection_ev_pct?: number | null;
            /** @description the projection's held-out log loss against the market's for this sport and stat; null where none was run; analyst and desk callers only */
            projection_record?: components["schemas"]["ProjectionRecord"] | null;
            intel: {
                season_avg?: number;
                form?: number;
                usage?: number;
                minutes_avg?: number;
                archetype?: string;
                games?: number;
                /** Format: date */
                season_from?: string;
            };
            prices: {
                book: string | null;
                book_odds: number;
                fair_odds: number;
                fair_prob: number | null;
                overround: number | null;
                devig_method: string | null;
                fair_source: string | null;
                consensus_books: number | null;
            } | null;
            /** @description true: the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record) was withheld for this tier */
            model_price_locked: boolean;
        };
        ScanAnswer: {
            /** @enum {string} */
            status: "graded" | "refused" | "ambiguous" | "unknown_player";
            request: {
                player: string;
                /** @enum {string} */
                stat: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles";
                line: number;
                /** @enum {string} */
                direction: "over" | "under";
            };
            /** @enum {string} */
            sport?: "mlb" | "nba" | "wnba" | "soccer";
            player?: {
                name: string;
                key: string;
                team: string | null;
            };
            candidates?: {
                name: string;
                key: string;
                /** @enum {string} */
                sport: "mlb" | "nba" | "wnba" | "soccer";
            }[];
            suggestions?: {
                name: string;
                key: string;
                /** @enum {string} */
                sport: "mlb" | "nba" | "wnba" | "soccer";
                similarity: number;
            }[];
            game?: {
                event_id: string;
                label: string;
                /** @description ISO 8601 instant */
                commence_time: string;
                opponent: string | null;
            } | null;
            /** Format: date */
            graded_for?: string;
            grade: ("A+" | "A" | "B" | "C" | "F") | null;
            /**
             * @description the letter the EV earns by the bands alone (graded reads only)
             * @enum {string}
             */
            grade_uncapped?: "A+" | "A" | "B" | "C" | "F";
            /** @description why grade sits below grade_uncapped; null when not capped */
            cap_reason?: ("thin_consensus" | "alternate_rung" | "not_backtested" | "outlier_price" | "own_book_only" | "one_sided_market") | null;
            flags: string[];
            refusal_reason?: string;
            projection: number | null;
            p_win: number | null;
            model_odds: number | null;
            ev_pct: number | null;
            value: number | null;
            takeable: boolean | null;
            /** @description the projection's own probability of the side (no push), from its count distribution; not the market's and never in the letter; analyst and desk callers only */
            projection_prob?: number | null;
            /** @description the projection's fair American price for the side; analyst and desk callers only */
            projection_odds?: number | null;
            /** @description EV of the graded price at projection_prob, percent of stake; the letter stays the market's (ev_pct); analyst and desk callers only */
            projection_ev_pct?: number | null;
            /** @description the projection's held-out log loss against the market's for this sport and stat; null where none was run; analyst and desk callers only */
            projection_record?: components["schemas"]["ProjectionRecord"] | null;
            intel: {
                season_avg?: number;
                form?: number;
                usage?: number;
                minutes_avg?: number;
                archetype?: string;
                games?: number;
                /** Format: date */
                season_from?: string;
            };
            prices: {
                book: string | null;
                book_odds: number;
                fair_odds: number;
                fair_prob: number | null;
                overround: number | null;
                devig_method: string | null;
                fair_source: string | null;
                consensus_books: number | null;
            } | null;
            /** @description true: the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record) was withheld for this tier */
            model_price_locked: boolean;
            ledger: {
                written: boolean;
                reason?: string;
            };
            metered: boolean;
            /** @description null: unlimited tier */
            meter: {
                used: number;
                limit: number;
                window_hours: number;
            } | null;
        };
        ScanMeter: {
            /** @constant */
            unlimited: false;
            used: number;
            limit: number;
            remaining: number;
            window_hours: number;
            /** @description ISO 8601 instant */
            window_start: string;
            next_free_at: string | null;
        } | {
            /** @constant */
            unlimited: true;
        };
        ParlayAnswer: {
            combined: {
                grade: ("A+" | "A" | "B" | "C" | "F") | null;
                provisional: boolean;
                legs_used: number;
                legs_total: number;
                points: {
                    average: number | null;
                    penalty: number | null;
                    combined: number | null;
                };
            };
            correlation: {
                average: number | null;
                pairs: {
                    a: number;
                    b: number;
                    /** @enum {string} */
                    relationship: "same_player" | "same_team_same_game" | "same_game_opposing_teams" | "different_games" | "unknown";
                    score: number | null;
                }[];
            };
            /** @description at the legs' market fair prices less the correlation haircut (docs/parlay.md), for every tier; null when a leg has no fair price or the correlation is unknown */
            payout: {
                decimal: number;
                american: number | null;
            } | null;
            /** @description at the legs' projection prices, same haircut; analyst and desk only (absent for free: see upsell); null when a leg has no projection price */
            projection_payout?: {
                decimal: number;
                american: number | null;
            } | null;
            /** @description free tier: what the paid tiers add */
            upsell?: string;
            warnings: string[];
            legs: {
                leg: number;
                player: string;
                player_key: string | null;
                /** @enum {string} */
                stat: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles";
                line: number;
                /** @enum {string} */
                side: "over" | "under";
                sport: ("mlb" | "nba" | "wnba" | "soccer") | null;
                team: string | null;
                game: {
                    event_id: string;
                    label: string;
                    /** @description ISO 8601 instant */
                    commence_time: string;
                    opponent: string | null;
                } | null;
                archetype: string | null;
                grade: ("A+" | "A" | "B" | "C" | "F") | null;
                /** @description the letter the leg's EV earns uncapped (null: no grade) */
                grade_uncapped: ("A+" | "A" | "B" | "C" | "F") | null;
                /** @description why grade sits below grade_uncapped; null when not capped */
                cap_reason: ("thin_consensus" | "alternate_rung" | "not_backtested" | "outlier_price" | "own_book_only" | "one_sided_market") | null;
                refusal?: string;
                candidates?: {
                    name: string;
                    key: string;
                    /** @enum {string} */
                    sport: "mlb" | "nba" | "wnba" | "soccer";
                }[];
                projection: number | null;
                book_odds: number | null;
                fair_odds: number | null;
                /** @description the projection's own probability of the side (no push), from its count distribution; not the market's and never in the letter; analyst and desk callers only */
                projection_prob?: number | null;
                /** @description the projection's fair American price for the side; analyst and desk callers only */
                projection_odds?: number | null;
                /** @description EV of the graded price at projection_prob, percent of stake; the letter stays the market's (ev_pct); analyst and desk callers only */
                projection_ev_pct?: number | null;
                /** @description the projection's held-out log loss against the market's for this sport and stat; null where none was run; analyst and desk callers only */
                projection_record?: components["schemas"]["ProjectionRecord"] | null;
                /** @description true: the projection's view (projection_prob, projection_odds, projection_ev_pct, projection_record) was withheld for this tier */
                model_price_locked: boolean;
            }[];
            /** @enum {string} */
            tier: "free" | "analyst" | "desk";
        };
        PlayerSearch: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            q: string;
            results: {
                player: string;
                key: string;
                team: string | null;
                last_seen: string | null;
            }[];
        };
        TeamHub: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            team: {
                abbr: string;
                name: string;
            };
            /** Format: date */
            season_from: string;
            /** @description ISO 8601 instant */
            as_of: string;
            roster: {
                player: string;
                key: string;
                season_games: number;
                minutes_avg: number | null;
                /** @description per stat of the sport: the mean over played games */
                averages: {
                    [key: string]: number | null;
                };
                archetype: {
                    primary: string;
                    secondary: string | null;
                    blend: {
                        id: string;
                        weight: number;
                    }[];
                } | null;
            }[];
            props: components["schemas"]["GradedRow"][];
        };
        ScheduleLineups: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @constant */
            available: true;
            snapshot_id: number;
            /** @description ISO 8601 instant */
            taken_at: string;
            players: {
                player: string;
                team: string | null;
                event_id: string;
                game: string;
                /** @description ISO 8601 instant */
                commence_time: string;
                /** @enum {string} */
                lineup_status: "CONFIRMED" | "NOT_IN" | "PROJECTED";
                batting_slot: number | null;
            }[];
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @constant */
            available: false;
            reason: string;
        };
        ScheduleInjuries: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @constant */
            available: true;
            snapshot_id: number;
            /** @description ISO 8601 instant */
            taken_at: string;
            players: {
                player: string;
                team: string | null;
                event_id: string;
                game: string;
                /** @enum {string} */
                injury_status: "OUT" | "GTD" | "PROB";
            }[];
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @constant */
            available: false;
            reason: string;
        };
        SchedulePitchers: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @constant */
            available: true;
            snapshot_id: number;
            /** @description ISO 8601 instant */
            taken_at: string;
            games: {
                event_id: string;
                game: string;
                /** @description ISO 8601 instant */
                commence_time: string;
                pitchers: {
                    player: string;
                    team: string | null;
                    era: number | null;
                }[];
            }[];
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @constant */
            available: false;
            reason: string;
        };
        SlipAnswer: {
            /** @enum {string} */
            source: "image" | "text";
            book: {
                value: ("fanduel" | "draftkings" | "hardrock" | "prizepicks") | null;
                raw: string | null;
                confidence: number;
                needs_review: boolean;
                reasons: string[];
            };
            bets: {
                bet_type: string | null;
                header_leg_count: number | null;
                boosted: boolean;
                bonus_bet: boolean;
                price: {
                    value: number | null;
                    raw: string | null;
                    confidence: number;
                    needs_review: boolean;
                    reasons: string[];
                };
                stake: {
                    value: number | null;
                    raw: string | null;
                    confidence: number;
                    needs_review: boolean;
                    reasons: string[];
                };
                payout: {
                    value: number | null;
                    raw: string | null;
                    confidence: number;
                    needs_review: boolean;
                    reasons: string[];
                };
                currency: string | null;
                bet_id: {
                    value: string | null;
                    raw: string | null;
                    confidence: number;
                    needs_review: boolean;
                    reasons: string[];
                };
                legs: {
                    selection: {
                        value: string | null;
                        raw: string | null;
                        confidence: number;
                        needs_review: boolean;
                        reasons: string[];
                    };
                    player: {
                        value: string | null;
                        raw: string | null;
                        confidence: number;
                        needs_review: boolean;
                        reasons: string[];
                    };
                    market: {
                        value: string | null;
                        raw: string | null;
                        confidence: number;
                        needs_review: boolean;
                        reasons: string[];
                    };
                    stat: {
                        value: ("points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles") | null;
                        raw: string | null;
                        confidence: number;
                        needs_review: boolean;
                        reasons: string[];
                    };
                    line: {
                        value: number | null;
                        raw: string | null;
                        confidence: number;
                        needs_review: boolean;
                        reasons: string[];
                    };
                    side: {
                        value: ("over" | "under") | null;
                        raw: string | null;
                        confidence: number;
                        needs_review: boolean;
                        reasons: string[];
                    };
                    price: {
                        value: number | null;
                        raw: string | null;
                        confidence: number;
                        needs_review: boolean;
                        reasons: string[];
                    };
                    needs_review: boolean;
                    gradeable: boolean;
                    ungradeable_reason: string | null;
                    grading: ({
                        /** @constant */
                        status: "graded";
                        view: components["schemas"]["ScanView"];
                    } | {
                        /** @constant */
                        status: "refused";
                        refusal: components["schemas"]["ScanView"];
                    } | {
                        /** @constant */
                        status: "unavailable";
                        reason: string;
                    }) | null;
                }[];
                needs_review: boolean;
            }[];
            needs_review: boolean;
            warnings: string[];
            ocr: {
                ms: number;
                words: number;
                mean_confidence: number | null;
            } | null;
            meter: {
                used: number;
                limit: number;
                window_hours: number;
            };
        };
        DeskPack: {
            /** Format: date */
            date: string;
            /** @description ISO 8601 instant */
            generated_at: string;
            sources: {
                snapshots: {
                    sport: string;
                    snapshot_id: number;
                    /** @description ISO 8601 instant */
                    taken_at: string;
                }[];
                settle_date: string | null;
                window: {
                    /** Format: date */
                    from: string;
                    /** Format: date */
                    to: string;
                };
            };
            templates: ({
                /** @enum {string} */
                id: "morning_wire" | "signal" | "streak_watch" | "the_settle" | "receipts" | "archetype_watch" | "line_dispatch";
                name: string;
                /** @constant */
                status: "ready";
                headline: string;
                body: ({
                    /** @enum {string} */
                    kind: "heading" | "paragraph";
                    text: string;
                } | {
                    /** @constant */
                    kind: "list";
                    items: string[];
                })[];
                long: string;
                thread: {
                    n: number;
                    text: string;
                    weighted: number;
                }[];
                wire: string[];
                numbers: string[];
                brief: {
                    key: string;
                    label: string;
                    value: number | string;
                    display: string;
                    n: number | null;
                    source: {
                        /** @enum {string} */
                        table: "graded_rows" | "grade_locks" | "snapshots" | "ledger_entries";
                        ids: number[];
                        where: string;
                    };
                }[];
            } | {
                /** @enum {string} */
                id: "morning_wire" | "signal" | "streak_watch" | "the_settle" | "receipts" | "archetype_watch" | "line_dispatch";
                name: string;
                /** @constant */
                status: "omitted";
                reason: string;
            })[];
            ready: number;
            omitted: {
                /** @enum {string} */
                id: "morning_wire" | "signal" | "streak_watch" | "the_settle" | "receipts" | "archetype_watch" | "line_dispatch";
                name: string;
                reason: string;
            }[];
        };
        SubscribeAnswer: {
            /** @constant */
            ok: true;
            /** @constant */
            status: "confirmation_sent";
        } | {
            /** @constant */
            ok: false;
            /** @constant */
            reason: "not_configured";
        };
        NewsletterSend: {
            /** @constant */
            status: "sent";
            /** Format: date */
            date: string;
            campaign_id: number;
            list_id: number;
            subject: string;
            started: string | null;
        } | {
            /** @constant */
            status: "already_sent";
            /** Format: date */
            date: string;
            campaign_id: number | null;
            /** @description ISO 8601 instant */
            since: string;
        } | {
            /** @constant */
            status: "not_configured";
            /** Format: date */
            date: string;
            missing: string[];
            reason: string;
        } | {
            /** @constant */
            status: "refused";
            /** Format: date */
            date: string;
            /** @enum {string} */
            reason: "empty" | "editorial";
            message: string;
        };
        GhostDrafts: {
            /** @constant */
            status: "not_configured";
            /** Format: date */
            date: string;
            missing: string[];
            reason: string;
        } | {
            /** @constant */
            status: "saved";
            /** Format: date */
            date: string;
            drafts: ({
                /** @enum {string} */
                kind: "slate_preview" | "settle";
                /** @enum {string} */
                action: "created" | "updated" | "recreated";
                post_id: string;
                /** @description ISO 8601 instant */
                updated_at: string;
                status: string;
            } | {
                /** @enum {string} */
                kind: "slate_preview" | "settle";
                /** @constant */
                action: "left";
                post_id: string;
                reason: string;
            } | {
                /** @enum {string} */
                kind: "slate_preview" | "settle";
                /** @constant */
                action: "skipped";
                reason: string;
            })[];
        };
        LiveTracking: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** Format: date */
            date: string;
            /** @constant */
            available: true;
            /** @constant */
            tracking: true;
            note: string;
            games: {
                game_id: string;
                home: string | null;
                away: string | null;
                /** @enum {string} */
                status: "scheduled" | "in_progress" | "final" | "postponed" | "suspended" | "canceled" | "unknown";
                clock: string | null;
                /** @enum {string} */
                box_score: "ok" | "not_started" | "unavailable";
            }[];
            count: number;
            /** @description Rows per state in state order (HIT, ON PACE, NEEDS, HOLDS, LINE PASSED, PUSH, MISS, VOID, then null: no state) */
            state_counts: {
                state: string | null;
                count: number;
            }[];
            rows: {
                player: string;
                team: string | null;
                opponent: string | null;
                stat: string;
                line: number;
                /** @enum {string} */
                side: "over" | "under";
                grade: string | null;
                /** @enum {string} */
                source: "ledger" | "slate";
                outcome: string | null;
                /**
                 * @description tracking: the game so far; final: the final box score's outcome by the settlement rule, not yet in the ledger; settled: the ledger's outcome
                 * @enum {string}
                 */
                phase: "tracking" | "final" | "settled";
                game_id: string | null;
                game_status: ("scheduled" | "in_progress" | "final" | "postponed" | "suspended" | "canceled" | "unknown") | null;
                current: number | null;
                /** @description While the game runs: HIT, ON PACE, NEEDS, HOLDS, LINE PASSED; once final: HIT, MISS, PUSH, VOID (docs/live.md); null without a value */
                state: string | null;
                label: string | null;
                needs: number | null;
                pace_projection: number | null;
                elapsed_share: number | null;
                proximity: number | null;
                note: string | null;
            }[];
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** Format: date */
            date: string;
            /** @constant */
            available: false;
            reason: string;
        };
        NewsWire: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer" | "mma";
            /** @constant */
            available: true;
            count: number;
            items: {
                id: string;
                headline: string;
                description: string | null;
                published: string | null;
                type: string | null;
                athlete?: {
                    name: string;
                    key: string;
                };
                team?: {
                    name: string;
                    abbr: string | null;
                };
                href: string | null;
            }[];
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer" | "mma";
            /** @constant */
            available: false;
            reason: string;
        };
        Futures: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba";
            /** @constant */
            available: true;
            /** @description ISO 8601 instant */
            updated_at: string;
            markets: {
                key: string;
                title: string;
                selections: {
                    name: string;
                    price: number;
                    book: string;
                    books: number;
                    prev_price?: number;
                    /** @enum {string} */
                    move?: "shortening" | "drifting" | "flat";
                }[];
            }[];
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba";
            /** @constant */
            available: false;
            reason: string;
        };
        Bout: {
            id: string;
            league: string;
            card: {
                event_id: string;
                name: string | null;
                date: string | null;
            };
            date: string | null;
            /** @enum {string} */
            status: "scheduled" | "in_progress" | "final" | "postponed" | "suspended" | "canceled" | "unknown";
            weight_class: string | null;
            scheduled_rounds: number | null;
            fighters: {
                name: string;
                key: string;
                athlete_id: string | null;
                record: string | null;
                country: string | null;
                winner: boolean | null;
                style: {
                    primary: string;
                    secondary: string | null;
                    blend: {
                        id: string;
                        weight: number;
                    }[];
                } | null;
            }[];
            odds: {
                event_id: string;
                books: number;
                moneyline: {
                    fighter: string;
                    best: {
                        price: number;
                        book: string;
                    } | null;
                }[];
                round_totals: {
                    rounds: number;
                    over: {
                        price: number;
                        book: string;
                    } | null;
                    under: {
                        price: number;
                        book: string;
                    } | null;
                }[];
            } | null;
            odds_note: string | null;
            data_limited: string[];
            style_edge: {
                /** @constant */
                kind: "model read, not a grade";
                edge: string | null;
                score: number | null;
                reason: string;
            };
        };
        FightCards: {
            /** Format: date */
            date: string;
            /** @constant */
            available: true;
            cards: {
                league: string;
                event_id: string;
                name: string | null;
                date: string | null;
                bouts: components["schemas"]["Bout"][];
                skipped_bouts: number;
            }[];
            leagues_unavailable: string[];
            odds: {
                /** @constant */
                available: true;
                /** @description live answers: when the provider was asked (absent on a replayed answer) */
                fetched_at?: string;
                /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
                age_seconds?: number;
                /**
                 * @description present on an answer read from a recording (a replayed store)
                 * @constant
                 */
                replay?: true;
                /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
                recorded_at?: string | null;
                /** @description replayed answers: the data clock the recording was read as of */
                read_as_of?: string;
                stale: boolean;
                stale_reason?: string;
            } | {
                /** @constant */
                available: false;
                reason: string;
            };
            data_limited: string[];
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** Format: date */
            date: string;
            /** @constant */
            available: false;
            reason: string;
        };
        Fight: {
            /** @constant */
            available: true;
            bout: components["schemas"]["Bout"];
            odds: {
                /** @constant */
                available: true;
                /** @description live answers: when the provider was asked (absent on a replayed answer) */
                fetched_at?: string;
                /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
                age_seconds?: number;
                /**
                 * @description present on an answer read from a recording (a replayed store)
                 * @constant
                 */
                replay?: true;
                /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
                recorded_at?: string | null;
                /** @description replayed answers: the data clock the recording was read as of */
                read_as_of?: string;
                stale: boolean;
                stale_reason?: string;
            } | {
                /** @constant */
                available: false;
                reason: string;
            };
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            id: string;
            /** @constant */
            available: false;
            reason: string;
        };
        Health: {
            /** @constant */
            status: "ok";
        };
        Readiness: {
            ready: boolean;
            /** @description why not ready; empty when ready */
            reasons: string[];
            warnings: string[];
            migrations: {
                current: boolean;
                pending: string[];
            };
            sports: {
                sport: string;
                /** @enum {string} */
                state: "normal" | "amber" | "stale" | "replayed" | "never_run";
                newest_snapshot_at: string | null;
                /** @description minutes since the newest snapshot on the clock the sport is read by (0 for a replayed sport) */
                age_minutes: number | null;
                clock: ("replay_snapshot" | "wall") | null;
                last_run: {
                    /** @description ISO 8601 instant */
                    at: string;
                    status: string;
                } | null;
                last_settle: {
                    /** @description ISO 8601 instant */
                    at: string;
                    status: string;
                } | null;
                /** @description the newest close-capture run (propgrade close), at its data clock; null where none ran */
                last_close: {
                    /** @description ISO 8601 instant */
                    at: string;
                    status: string;
                } | null;
            }[];
            locks: {
                name: string;
                /** @description the holder; its host only with the internal key */
                owner: string;
                /** @description ISO 8601 instant */
                since: string;
                /** @description ISO 8601 instant */
                lease_until: string;
                expired: boolean;
            }[];
            /** @description Odds API credits of the wall-clock ET day; only with the internal key */
            credits?: {
                spent_today: number;
                daily_budget: number | null;
                left_today: number | null;
            };
        };
        PlayerStats: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            player: string;
            key: string;
            /** @description ISO 8601 instant */
            as_of: string;
            props: components["schemas"]["GradedRow"][];
            /** @constant */
            available: true;
            profile: {
                team: string | null;
                /** Format: date */
                first_game: string;
                /** Format: date */
                last_game: string;
                games: number;
                played: number;
            };
            seasons: {
                season: string;
                /** Format: date */
                from: string;
                games: number;
                played: number;
                minutes: {
                    avg: number;
                    n: number;
                } | null;
                stats: {
                    stat: string;
                    avg: number;
                    n: number;
                    total: number;
                }[];
            }[];
            form: {
                window: string;
                n: number;
                stats: {
                    stat: string;
                    avg: number;
                    n: number;
                    total: number;
                }[];
                games: {
                    /** Format: date */
                    date: string;
                    team: string | null;
                    opponent: string | null;
                    minutes: number | null;
                    values: {
                        [key: string]: number | null;
                    };
                }[];
            };
            archetype: {
                primary: string;
                secondary: string | null;
                blend: {
                    id: string;
                    weight: number;
                }[];
            } | null;
            archetype_note: string | null;
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            player: string;
            key: string;
            /** @description ISO 8601 instant */
            as_of: string;
            props: components["schemas"]["GradedRow"][];
            /** @constant */
            available: false;
            reason: string;
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            player: string;
            /** @constant */
            available: false;
            reason: string;
        };
        StatLeaders: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @enum {string} */
            stat: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles";
            label: string;
            season: string;
            /** Format: date */
            from: string;
            /** Format: date */
            until: string;
            /** @constant */
            available: true;
            min_games: number;
            min_games_rule: string;
            team_games_max: number;
            players: number;
            qualified: number;
            leaders: {
                rank: number;
                key: string;
                player: string;
                team: string | null;
                games: number;
                avg: number;
                total: number;
            }[];
            coverage: string;
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            stat: string;
            season?: string;
            /** @constant */
            available: false;
            reason: string;
        };
        GameBox: {
            game_id: string;
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** @enum {string} */
            source: "store" | "espn summary" | "mlb statsapi live feed";
            date: string | null;
            status: string | null;
            teams: {
                team: string | null;
                opponent: string | null;
                players: {
                    player: string;
                    key: string;
                    minutes: number | null;
                    did_not_play: boolean;
                    values: {
                        [key: string]: number | null;
                    };
                }[];
            }[];
            players: number;
            /** @constant */
            available: true;
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            game_id: string;
            sport?: ("mlb" | "nba" | "wnba" | "soccer") | null;
            /** @constant */
            available: false;
            reason: string;
        };
        PitcherArsenal: {
            /** @constant */
            found: true;
            season: number;
            pitcher: {
                name: string;
                key: string;
                mlbam_id: number;
                team: string | null;
            };
            pitches: {
                pitch_type: string;
                pitch_name: string | null;
                usage_pct: number;
                whiff_pct: number | null;
                velocity_mph: number | null;
                k_pct: number | null;
                pitches: number | null;
                pa: number | null;
            }[];
            strikeout_pct: number | null;
            pa: number | null;
            source: string;
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** @constant */
            found: false;
            season?: number;
            query: string;
            reason: string;
            suggestions?: {
                name: string;
                key: string;
                /** @enum {string} */
                sport?: "mlb" | "nba" | "wnba" | "soccer";
                similarity: number;
            }[];
        };
        TeamLineups: {
            /** @constant */
            sport: "mlb";
            /** Format: date */
            date: string;
            /** @constant */
            available: true;
            rule: string;
            games: {
                game_id: string;
                game: string;
                /** @description ISO 8601 instant */
                commence_time: string;
                status: string;
                teams: {
                    team: string | null;
                    /** @enum {string} */
                    side: "home" | "away";
                    posted: boolean | null;
                    source: string | null;
                    note: string | null;
                    players: {
                        player: string;
                        key: string;
                        /** @enum {string} */
                        state: "CONFIRMED" | "NOT_IN" | "PROJECTED";
                        batting_slot: number | null;
                    }[];
                }[];
            }[];
            counts: {
                CONFIRMED: number;
                NOT_IN: number;
                PROJECTED: number;
            };
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            /** Format: date */
            date: string;
            /** @constant */
            available: false;
            reason: string;
        };
        DepthChart: {
            /** @enum {string} */
            sport: "nba" | "wnba" | "mlb";
            team: {
                abbr: string;
                name: string;
            };
            /** @constant */
            available: true;
            source: string;
            provider_time: string | null;
            provider_season: string | null;
            stats_season: string;
            positions: {
                position: string;
                basis: string;
                players: {
                    depth: number;
                    player: string;
                    key: string;
                    jersey: string | null;
                    position: string | null;
                    injury: {
                        status: string;
                        chip: string | null;
                    } | null;
                    /** @description stored played games for the team this season; null where the store cannot say (no line stored, or MLB: starting pitchers only) */
                    games: number | null;
                    minutes_avg: number | null;
                }[];
            }[];
            players: number;
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** @enum {string} */
            sport: "nba" | "wnba" | "mlb";
            team: {
                abbr: string;
                name: string;
            };
            /** @constant */
            available: false;
            reason: string;
        } | {
            team: string;
            /** @constant */
            available: false;
            reason: string;
        };
        WithWithoutSplit: {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            player: string;
            key: string;
            /** @description ISO 8601 instant */
            as_of: string;
            /** @constant */
            available: true;
            window: {
                /** Format: date */
                from: string;
                /** Format: date */
                until: string;
            };
            rule: string;
            team: string;
            team_games: number;
            games_with: number;
            games_without: number;
            min_games: number;
            teammates: {
                player: string;
                key: string;
                with: {
                    n: number;
                    minutes: {
                        avg: number;
                        n: number;
                    } | null;
                    stats: {
                        stat: string;
                        avg: number;
                        n: number;
                        total: number;
                    }[];
                };
                without: {
                    n: number;
                    minutes: {
                        avg: number;
                        n: number;
                    } | null;
                    stats: {
                        stat: string;
                        avg: number;
                        n: number;
                        total: number;
                    }[];
                };
                delta: {
                    minutes_avg: number | null;
                    stats: {
                        stat: string;
                        delta_avg: number | null;
                    }[];
                };
            }[];
            below_minimum: number;
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** @enum {string} */
            sport: "mlb" | "nba" | "wnba" | "soccer";
            player: string;
            key: string;
            /** @description ISO 8601 instant */
            as_of: string;
            /** @constant */
            available: false;
            reason: string;
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            player: string;
            /** @constant */
            available: false;
            reason: string;
        };
        DeskShowcase: {
            /** @constant */
            available: true;
            snapshot_id: number;
            /** @description ISO 8601 instant */
            taken_at: string;
            /** Format: date */
            slate_date: string;
            latest: boolean;
            edge_rule: string;
            sport: string;
            event_id: string;
            game: string;
            /** @description ISO 8601 instant */
            commence_time: string;
            player: string;
            team: string | null;
            stat: string;
            side: string;
            prop: {
                line: number;
                grade: string;
                main_line: boolean;
                /** @description the grade with the price, book, fair and time it was computed on (its lock) */
                claim: {
                    book: string;
                    odds: number;
                    fair_odds: number | null;
                    /** @description ISO 8601 instant */
                    gradedAt: string;
                } | null;
            };
            variation: {
                distinct_grades: number;
                spread: number;
                grades: {
                    grade: string;
                    rungs: number;
                }[];
            };
            rungs: {
                line: number;
                main_line: boolean | null;
                book: string | null;
                book_odds: number | null;
                fair_odds: number | null;
                fair_prob: number | null;
                fair_source: string | null;
                consensus_books: number | null;
                thin_consensus: boolean | null;
                outlier_price: boolean | null;
                grade: string | null;
                /** @description the letter the EV earns uncapped */
                grade_uncapped: string | null;
                /** @description why grade sits below grade_uncapped (thin_consensus, alternate_rung, not_backtested, outlier_price, own_book_only, one_sided_market); null when not capped */
                cap_reason: string | null;
                /** @description the grade with the price, book, fair and time it was computed on (its lock) */
                claim: {
                    book: string;
                    odds: number;
                    fair_odds: number | null;
                    /** @description ISO 8601 instant */
                    gradedAt: string;
                } | null;
                edge_pct: number | null;
                edge_note: string | null;
            }[];
            correlation: {
                coefficient: number;
                /** @constant */
                relationship: "same_team";
                note: string;
                legs: {
                    player: string;
                    team: string | null;
                    stat: string;
                    line: number;
                    side: string;
                    grade: string | null;
                    /** @description the grade with the price, book, fair and time it was computed on (its lock) */
                    claim: {
                        book: string;
                        odds: number;
                        fair_odds: number | null;
                        /** @description ISO 8601 instant */
                        gradedAt: string;
                    } | null;
                    book: string | null;
                    book_odds: number | null;
                }[];
            } | null;
            correlation_note: string | null;
            /** @description live answers: when the provider was asked (absent on a replayed answer) */
            fetched_at?: string;
            /** @description live answers: seconds since fetched_at (absent on a replayed answer) */
            age_seconds?: number;
            /**
             * @description present on an answer read from a recording (a replayed store)
             * @constant
             */
            replay?: true;
            /** @description replayed answers: when the recording was made (the newest replay-manifest entry it read; null: the manifest gives no time) */
            recorded_at?: string | null;
            /** @description replayed answers: the data clock the recording was read as of */
            read_as_of?: string;
            stale: boolean;
            stale_reason?: string;
        } | {
            /** @constant */
            available: false;
            reason: string;
        };
        OpenApiDocument: {
            /** @constant */
            openapi: "3.1.0";
            info: Record<string, never>;
            paths: Record<string, never>;
        };
    };
    responses: {
        /** @description Bad input: the message names the field */
        BadInput: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing, unknown or revoked credentials */
        Unauthorized: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                /** @description The challenge: Bearer realm="propgrade" (RFC 9110 11.6.1, RFC 6750; error="invalid_token" when a token was sent), InternalKey on the internal routes */
                "WWW-Authenticate": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not allowed for this caller */
        Forbidden: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not found (the details may carry candidates or suggestions) */
        NotFound: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The path exists but not with this method */
        MethodNotAllowed: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                /** @description The methods the path answers (RFC 9110 10.2.1) */
                Allow: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflicts with the current state (another run holds the lock, no customer, another code) */
        Conflict: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Valid once, expired now */
        Gone: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Body over the size cap */
        TooLarge: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rate limited or metered out */
        RateLimited: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                /** @description Seconds until a request may succeed */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A bug: the envelope says `internal error` and nothing more (no stack, no internal text) */
        Internal: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An outbound platform (Stripe, listmonk, Ghost) failed or refused */
        Upstream: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not configured on this server, a dependency could not start, or (UNAVAILABLE_ON_REPLAY) a provider-backed read on a replayed store whose recording this server cannot read: no provider is called */
        Unavailable: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                Vary: components["headers"]["Vary"];
                "x-onboarding-required": components["headers"]["Onboarding"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description `public, max-age=N` (no token), `private, max-age=N` (per-caller answer to a token), or `no-store` */
        CacheControl: string;
        /** @description Authorization on per-caller routes, Accept-Encoding where the body is negotiated, Origin when CORS is configured */
        Vary: string;
        /** @description Strong validator of this representation; send it back in If-None-Match for a 304 */
        ETag: string;
        /** @description Present (value `/onboarding`) when the caller was created on or after ONBOARDING_CUTOFF and has not set onboarding_complete */
        Onboarding: "/onboarding";
        /** @description The coding negotiated by Accept-Encoding (gzip, br) when the body is compressed */
        ContentEncoding: string;
        /** @description A strict policy with a per-answer nonce: no external assets */
        ContentSecurityPolicy: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getSnapshotSummary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SnapshotSummary"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    getSnapshotBySport: {
        parameters: {
            query?: {
                /** @description full (default): every row; card: at most 6 graded props per game, one per player and stat, sorted A+ to F */
                view?: "full" | "card";
                /** @description an event id: that game only */
                game?: string;
                /** @description a player name, matched by its normalized key ("Jalen Brunson", "jalen brunson") */
                player?: string;
                /** @description a stat (points, rebounds, threes, pra, ... or an Odds API market key; case, spaces and hyphens ignored) */
                stat?: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles" | "player_points" | "player_rebounds" | "player_assists" | "player_threes" | "player_points_rebounds_assists" | "player_blocks" | "player_steals" | "batter_hits" | "batter_total_bases" | "batter_home_runs" | "pitcher_strikeouts" | "player_shots" | "player_shots_on_target" | "player_goal_scorer_anytime" | "player_tackles" | "pts" | "reb" | "rebs" | "ast" | "asts" | "3pm" | "threes_made" | "3pt" | "blk" | "stl" | "pts_reb_ast" | "points_rebounds_assists" | "tb" | "hr" | "hrs" | "k" | "ks" | "so" | "outs" | "outs_recorded" | "sog" | "sot" | "anytime_scorer" | "tkl";
                /** @description graded at least this letter (A+, A, B, C, F; write A+ as A%2B); refusals are left out */
                min_grade?: "A+" | "A" | "B" | "C" | "F";
                /** @description true: main lines only (no alternate rungs) */
                main?: "0" | "1" | "true" | "false";
            };
            header?: {
                /** @description An ETag of this URL: 304 when it still matches */
                "If-None-Match"?: string;
            };
            path: {
                sport: "mlb" | "nba" | "wnba" | "soccer";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SnapshotAnswer"];
                };
            };
            /** @description Not modified: If-None-Match matched the ETag (no body) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    getTicker: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticker"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    getHeroProp: {
        parameters: {
            query?: {
                sport?: "mlb" | "nba" | "wnba" | "soccer";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HeroProp"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    getAccuracy: {
        parameters: {
            query?: {
                sport?: "mlb" | "nba" | "wnba" | "soccer";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accuracy"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getLedgerAccuracy: {
        parameters: {
            query?: {
                sport?: "mlb" | "nba" | "wnba" | "soccer";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accuracy"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getLedgerModel: {
        parameters: {
            query?: {
                date?: string;
                /** @description team code; one two leagues share (NY: Knicks and Liberty) needs sport */
                team?: string;
                player?: string;
                sport?: "mlb" | "nba" | "wnba" | "soccer";
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelRecord"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getScheduleBySportLineups: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sport: "mlb" | "nba" | "wnba" | "soccer";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleLineups"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getScheduleBySportInjuries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sport: "mlb" | "nba" | "wnba" | "soccer";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleInjuries"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getScheduleBySportPitchers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sport: "mlb" | "nba" | "wnba" | "soccer";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchedulePitchers"];
                };
            };
            400: components["responses"]["BadInput"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getTeamByAbbr: {
        parameters: {
            query?: {
                sport?: "mlb" | "nba" | "wnba" | "soccer";
            };
            header?: never;
            path: {
                abbr: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamHub"];
                };
            };
            400: components["responses"]["BadInput"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getPlayersSearch: {
        parameters: {
            query: {
                q: string;
                sport?: "mlb" | "nba" | "wnba" | "soccer";
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerSearch"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    postScan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    player: string;
                    /**
                     * @description a stat: canonical name, Odds API market key or short alias (case, spaces and hyphens ignored)
                     * @enum {string}
                     */
                    stat: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles" | "player_points" | "player_rebounds" | "player_assists" | "player_threes" | "player_points_rebounds_assists" | "player_blocks" | "player_steals" | "batter_hits" | "batter_total_bases" | "batter_home_runs" | "pitcher_strikeouts" | "player_shots" | "player_shots_on_target" | "player_goal_scorer_anytime" | "player_tackles" | "pts" | "reb" | "rebs" | "ast" | "asts" | "3pm" | "threes_made" | "3pt" | "blk" | "stl" | "pts_reb_ast" | "points_rebounds_assists" | "tb" | "hr" | "hrs" | "k" | "ks" | "so" | "outs" | "outs_recorded" | "sog" | "sot" | "anytime_scorer" | "tkl";
                    line: number;
                    /** @enum {string} */
                    direction: "over" | "under";
                    /** @enum {string} */
                    sport?: "mlb" | "nba" | "wnba" | "soccer";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScanAnswer"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getUserScanMeter: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScanMeter"];
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    postAnalyze: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    player: string;
                    /**
                     * @description a stat: canonical name, Odds API market key or short alias (case, spaces and hyphens ignored)
                     * @enum {string}
                     */
                    stat: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles" | "player_points" | "player_rebounds" | "player_assists" | "player_threes" | "player_points_rebounds_assists" | "player_blocks" | "player_steals" | "batter_hits" | "batter_total_bases" | "batter_home_runs" | "pitcher_strikeouts" | "player_shots" | "player_shots_on_target" | "player_goal_scorer_anytime" | "player_tackles" | "pts" | "reb" | "rebs" | "ast" | "asts" | "3pm" | "threes_made" | "3pt" | "blk" | "stl" | "pts_reb_ast" | "points_rebounds_assists" | "tb" | "hr" | "hrs" | "k" | "ks" | "so" | "outs" | "outs_recorded" | "sog" | "sot" | "anytime_scorer" | "tkl";
                    line: number;
                    /** @enum {string} */
                    direction: "over" | "under";
                    /** @enum {string} */
                    sport?: "mlb" | "nba" | "wnba" | "soccer";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScanView"];
                };
            };
            400: components["responses"]["BadInput"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["TooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    postParlayGrade: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    legs: {
                        player: string;
                        /**
                         * @description a stat: canonical name, Odds API market key or short alias (case, spaces and hyphens ignored)
                         * @enum {string}
                         */
                        stat: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles" | "player_points" | "player_rebounds" | "player_assists" | "player_threes" | "player_points_rebounds_assists" | "player_blocks" | "player_steals" | "batter_hits" | "batter_total_bases" | "batter_home_runs" | "pitcher_strikeouts" | "player_shots" | "player_shots_on_target" | "player_goal_scorer_anytime" | "player_tackles" | "pts" | "reb" | "rebs" | "ast" | "asts" | "3pm" | "threes_made" | "3pt" | "blk" | "stl" | "pts_reb_ast" | "points_rebounds_assists" | "tb" | "hr" | "hrs" | "k" | "ks" | "so" | "outs" | "outs_recorded" | "sog" | "sot" | "anytime_scorer" | "tkl";
                        line: number;
                        /** @enum {string} */
                        side: "over" | "under";
                        /** @enum {string} */
                        sport?: "mlb" | "nba" | "wnba" | "soccer";
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParlayAnswer"];
                };
            };
            400: components["responses"]["BadInput"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["TooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    postSlipsParse: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    text: string;
                    /**
                     * @default auto
                     * @enum {string}
                     */
                    book?: "auto" | "fanduel" | "draftkings" | "hardrock" | "prizepicks";
                };
                "multipart/form-data": {
                    /** @description slip screenshot: PNG, JPEG, GIF, BMP, WebP or TIFF, at most 4 MB */
                    image: string;
                    /**
                     * @default auto
                     * @enum {string}
                     */
                    book?: "auto" | "fanduel" | "draftkings" | "hardrock" | "prizepicks";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlipAnswer"];
                };
            };
            400: components["responses"]["BadInput"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            /** @description Upload over the 4 MB image cap, an image whose header declares more than 25 megapixels or 10,000 pixels a side, or JSON over the body cap */
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            /** @description OCR busy (every engine thread reading and the line full; not counted), a parse stopped at its OCR budget (counted), the OCR engine could not start, or the server is shutting down */
            503: {
                headers: {
                    /** @description Seconds until an engine thread is sure to be free */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInternalSnapshotAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SnapshotRuns"];
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    postInternalSnapshotBySport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sport: "mlb" | "nba" | "wnba" | "soccer";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SnapshotRuns"];
                };
            };
            400: components["responses"]["BadInput"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    postNewsletterSubscribe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    website?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscribeAnswer"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            502: components["responses"]["Upstream"];
        };
    };
    postInternalNewsletterSend: {
        parameters: {
            query?: {
                /** @description ET date (default: today at the server clock) */
                date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsletterSend"];
                };
            };
            400: components["responses"]["BadInput"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            502: components["responses"]["Upstream"];
        };
    };
    postInternalGhostDrafts: {
        parameters: {
            query?: {
                /** @description ET date (default: today at the server clock) */
                date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GhostDrafts"];
                };
            };
            400: components["responses"]["BadInput"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            502: components["responses"]["Upstream"];
        };
    };
    getDeskPack: {
        parameters: {
            query?: {
                /** @description ET date (default: today at the server clock) */
                date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeskPack"];
                };
            };
            400: components["responses"]["BadInput"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    getDesk: {
        parameters: {
            query?: {
                /** @description ET date (default: today at the server clock) */
                date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page (strict Content-Security-Policy, no external assets) */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    "Content-Security-Policy": components["headers"]["ContentSecurityPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["BadInput"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    getPreferences: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Preferences"];
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    postPreferences: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description subset of mlb, nba, wnba, soccer, mma */
                    sports?: ("mlb" | "nba" | "wnba" | "soccer" | "mma")[];
                    /** @description Odds API book keys: betmgm, betonlineag, betrivers, betus, bovada, draftkings, fanatics, fanduel, hardrockbet, mybookieag, prizepicks, williamhill_us */
                    books?: ("betmgm" | "betonlineag" | "betrivers" | "betus" | "bovada" | "draftkings" | "fanatics" | "fanduel" | "hardrockbet" | "mybookieag" | "prizepicks" | "williamhill_us")[];
                    /** @description US dollars, 0.01 to 1000000, kept to the cent; null clears it */
                    bankroll_limit?: number | null;
                    onboarding_complete?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Preferences"];
                };
            };
            400: components["responses"]["BadInput"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["TooLarge"];
            500: components["responses"]["Internal"];
        };
    };
    postWebhooksStripe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description evt_... */
                    id: string;
                    /** @constant */
                    object: "event";
                    /** @description handled: invoice.payment_failed, customer.subscription.created, customer.subscription.updated, customer.subscription.deleted; any other type is acknowledged and ignored */
                    type: string;
                    /** @description Unix seconds; orders events */
                    created: number;
                    data: {
                        object: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookAnswer"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["TooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    postPaymentsPortal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSession"];
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["Internal"];
            502: components["responses"]["Upstream"];
            503: components["responses"]["Unavailable"];
        };
    };
    getFoundersCount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FounderCount"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    postFoundersRedeem: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FounderRedeem"];
                };
            };
            400: components["responses"]["BadInput"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["TooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getLiveBySport: {
        parameters: {
            query?: {
                /** @description ET game date (default: today at the server clock) */
                date?: string;
            };
            header?: never;
            path: {
                sport: "mlb" | "nba" | "wnba" | "soccer";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LiveTracking"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getNewsBySport: {
        parameters: {
            query?: {
                /** @description items to return, newest first (default: all) */
                limit?: number;
            };
            header?: never;
            path: {
                sport: "mlb" | "nba" | "wnba" | "soccer" | "mma";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsWire"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getFuturesBySport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sport: "mlb" | "nba" | "wnba";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Futures"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getCombatByDate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                date: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FightCards"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getFightById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Fight"];
                };
            };
            400: components["responses"]["BadInput"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getStatsPlayerByName: {
        parameters: {
            query?: {
                /** @description nba, wnba, mlb or soccer; default: every sport the store knows (a name in two sports is ambiguous) */
                sport?: "mlb" | "nba" | "wnba" | "soccer";
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    "x-onboarding-required": components["headers"]["Onboarding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerStats"];
                };
            };
            400: components["responses"]["BadInput"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getStatsLeaders: {
        parameters: {
            query: {
                sport?: "mlb" | "nba" | "wnba" | "soccer";
                /** @description a stat of the sport: points, rebounds, assists, threes, pra, blocks, steals; hits, total_bases, home_runs, strikeouts; shots, shots_on_target */
                stat: "points" | "rebounds" | "assists" | "threes" | "pra" | "blocks" | "steals" | "hits" | "total_bases" | "home_runs" | "strikeouts" | "pitcher_outs" | "shots" | "shots_on_target" | "goals" | "tackles" | "player_points" | "player_rebounds" | "player_assists" | "player_threes" | "player_points_rebounds_assists" | "player_blocks" | "player_steals" | "batter_hits" | "batter_total_bases" | "batter_home_runs" | "pitcher_strikeouts" | "player_shots" | "player_shots_on_target" | "player_goal_scorer_anytime" | "player_tackles" | "pts" | "reb" | "rebs" | "ast" | "asts" | "3pm" | "threes_made" | "3pt" | "blk" | "stl" | "pts_reb_ast" | "points_rebounds_assists" | "tb" | "hr" | "hrs" | "k" | "ks" | "so" | "outs" | "outs_recorded" | "sog" | "sot" | "anytime_scorer" | "tkl";
                /** @description 2024-25 or 2024 (nba, soccer); 2025 (mlb, wnba); default: the season of the clock */
                season?: string;
                /** @description minimum played games (default: 70% of the most games any team has stored this season, rounded up) */
                min_games?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatLeaders"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getStatsGameById: {
        parameters: {
            query?: {
                /** @description the provider to ask when the store does not hold the game (default nba) */
                sport?: "mlb" | "nba" | "wnba" | "soccer";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GameBox"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getStatsPitcherByNameArsenal: {
        parameters: {
            query?: {
                /** @description Savant season (default: the clock’s year from April, else the previous year) */
                season?: number;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PitcherArsenal"];
                };
            };
            400: components["responses"]["BadInput"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getStatsLineup: {
        parameters: {
            query?: {
                sport?: "mlb" | "nba" | "wnba" | "soccer";
                /** @description ET date (default: today at the server clock) */
                date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamLineups"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getStatsDepth: {
        parameters: {
            query: {
                /** @description any team spelling: ESPN, NBA.com or Savant code, or the full name */
                team: string;
                /** @description nba, wnba or mlb; default: the league whose store holds the team, else the first that tables it */
                sport?: "nba" | "wnba" | "mlb";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepthChart"];
                };
            };
            400: components["responses"]["BadInput"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getStatsCascade: {
        parameters: {
            query: {
                player: string;
                sport?: "mlb" | "nba" | "wnba" | "soccer";
                /** @description raise the minimum n per side (never below the documented 5) */
                min_games?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithWithoutSplit"];
                };
            };
            400: components["responses"]["BadInput"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getDeskShowcase: {
        parameters: {
            query?: {
                sport?: "mlb" | "nba" | "wnba" | "soccer";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeskShowcase"];
                };
            };
            400: components["responses"]["BadInput"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text format 0.0.4 */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["Internal"];
        };
    };
}
