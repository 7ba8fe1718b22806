import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Stripe from 'stripe';

/**
 * Realistic calls of every operation in /openapi.json, with values from the bundled data: the
 * 2025-11-05 NBA slate of data/replay (its snapshot, ledger and players), the replay's recorded
 * context answers (news, futures, fight cards, box scores, Savant CSVs) and the slip fixtures.
 * Each call names the operation it exercises as `METHOD /path/{param}`, the document's spelling;
 * the contract test fails for an operation no call exercises.
 */
export interface ContractCall {
  op: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** A raw body (the webhook signs its bytes). */
  raw?: string;
  headers?: Record<string, string>;
}

export const WEBHOOK_SECRET = 'whsec_contract_test_secret';
export const FOUNDER_CODE = 'FOUNDING50';
export const DESK_EMAIL = 'founder@contract.test';

const SLIP_TEXT = readFileSync(join('test', 'fixtures', 'slips', 'text', 'fanduel_straight_points.txt'), 'utf8');

/** A signed Stripe event for a customer the store does not know: recorded, acknowledged, ignored. */
function stripeEvent(n: number, at: Date): { raw: string; headers: Record<string, string> } {
  const raw = JSON.stringify({
    id: `evt_contract_${n}`,
    object: 'event',
    type: 'customer.subscription.updated',
    created: Math.floor(at.getTime() / 1000),
    data: { object: { id: `sub_contract_${n}`, object: 'subscription', customer: 'cus_unknown', status: 'active', items: { data: [] } } },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: WEBHOOK_SECRET, timestamp: Math.floor(at.getTime() / 1000) });
  return { raw, headers: { 'content-type': 'application/json', 'stripe-signature': signature } };
}

/** A graded and a refused row of the stored slate, as a scan or a parlay leg asks for them. */
export interface SlateRows {
  graded: { player: string; stat: string; line: number; side: 'over' | 'under' };
  refused: { player: string; stat: string; line: number; side: 'over' | 'under' };
}

let eventSeq = 0;

/** The read calls: safe to repeat under every caller. `wallNow` signs the webhook (Stripe checks its age on the wall clock). */
export function readCalls(rows: SlateRows, wallNow: Date): ContractCall[] {
  const get = (op: string, path: string, headers?: Record<string, string>): ContractCall => ({ op: `GET ${op}`, method: 'GET', path, ...(headers ? { headers } : {}) });
  const post = (op: string, path: string, body: unknown): ContractCall => ({ op: `POST ${op}`, method: 'POST', path, body });
  const scan = (r: SlateRows['graded']) => ({ player: r.player, stat: r.stat, line: r.line, direction: r.side });
  const webhook = stripeEvent(++eventSeq, wallNow);
  return [
    get('/openapi.json', '/openapi.json'),
    get('/healthz', '/healthz'),
    get('/readyz', '/readyz'),
    get('/metrics', '/metrics'),
    get('/api/snapshot/summary', '/api/snapshot/summary'),
    get('/api/snapshot/{sport}', '/api/snapshot/nba'),
    get('/api/snapshot/{sport}', '/api/snapshot/nba', { 'accept-encoding': 'gzip' }),
    get('/api/snapshot/{sport}', '/api/snapshot/nba?view=card'),
    get('/api/snapshot/{sport}', `/api/snapshot/nba?player=${encodeURIComponent(rows.graded.player)}&stat=${rows.graded.stat}&min_grade=C&main=true`),
    get('/api/snapshot/{sport}', '/api/snapshot/mlb'),
    get('/api/snapshot/{sport}', '/api/snapshot/nfl'),
    get('/api/snapshot/{sport}', '/api/snapshot/nba?min_grade=Z'),
    get('/api/ticker', '/api/ticker'),
    get('/api/hero-prop', '/api/hero-prop'),
    get('/api/hero-prop', '/api/hero-prop?sport=wnba'),
    get('/api/accuracy', '/api/accuracy'),
    get('/api/ledger/accuracy', '/api/ledger/accuracy?sport=nba'),
    get('/api/ledger/model', '/api/ledger/model'),
    get('/api/ledger/model', '/api/ledger/model?team=IND&sport=nba&limit=50'),
    get('/api/ledger/model', '/api/ledger/model?date=2025-11-05&sport=nba'),
    get('/api/ledger/model', '/api/ledger/model?date=2025-02-30'),
    get('/api/schedule/{sport}/lineups', '/api/schedule/nba/lineups'),
    get('/api/schedule/{sport}/injuries', '/api/schedule/nba/injuries'),
    get('/api/schedule/{sport}/pitchers', '/api/schedule/mlb/pitchers'),
    get('/api/schedule/{sport}/pitchers', '/api/schedule/nba/pitchers'),
    get('/api/team/{abbr}', '/api/team/IND'),
    get('/api/team/{abbr}', '/api/team/XYZ'),
    get('/api/players/search', '/api/players/search?q=siak&sport=nba'),
    get('/api/players/search', '/api/players/search?q=a&sport=nba'),
    post('/api/scan', '/api/scan', scan(rows.graded)),
    post('/api/scan', '/api/scan', scan(rows.refused)),
    post('/api/scan', '/api/scan', { player: rows.graded.player, stat: 'nope', line: 1, direction: 'over' }),
    get('/api/user/scan-meter', '/api/user/scan-meter'),
    post('/api/analyze', '/api/analyze', scan(rows.graded)),
    post('/api/parlay/grade', '/api/parlay/grade', {
      legs: [
        { player: 'Pascal Siakam', stat: 'points', line: 26.5, side: 'under' },
        { player: 'Ben Sheppard', stat: 'points', line: 7.5, side: 'under' },
      ],
    }),
    post('/api/parlay/grade', '/api/parlay/grade', { legs: [1, 2, 3].map(() => ({ player: 'Pascal Siakam', stat: 'points', line: 26.5, side: 'under' })) }),
    post('/api/slips/parse', '/api/slips/parse', { text: SLIP_TEXT }),
    post('/api/newsletter/subscribe', '/api/newsletter/subscribe', { email: 'reader@contract.test' }),
    post('/api/newsletter/subscribe', '/api/newsletter/subscribe', { email: 'not an email' }),
    get('/api/desk/pack', '/api/desk/pack?date=2025-11-05'),
    get('/desk', '/desk?date=2025-11-05'),
    get('/api/me', '/api/me'),
    get('/api/preferences', '/api/preferences'),
    post('/api/preferences', '/api/preferences', { sports: ['nba'], books: ['fanduel'], bankroll_limit: 250 }),
    post('/api/preferences', '/api/preferences', { sports: ['cricket'] }),
    { op: 'POST /api/webhooks/stripe', method: 'POST', path: '/api/webhooks/stripe', raw: webhook.raw, headers: webhook.headers },
    { op: 'POST /api/webhooks/stripe', method: 'POST', path: '/api/webhooks/stripe', raw: webhook.raw, headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' } },
    post('/api/payments/portal', '/api/payments/portal', {}),
    get('/api/founders/count', '/api/founders/count'),
    post('/api/founders/redeem', '/api/founders/redeem', { code: FOUNDER_CODE }),
    post('/api/founders/redeem', '/api/founders/redeem', { code: 'NOT-A-CODE' }),
    get('/api/live/{sport}', '/api/live/nba?date=2025-11-05'),
    get('/api/live/{sport}', '/api/live/nba?date=2025-02-30'),
    get('/api/news/{sport}', '/api/news/nba'),
    get('/api/news/{sport}', '/api/news/mlb?limit=3'),
    get('/api/futures/{sport}', '/api/futures/nba'),
    get('/api/futures/{sport}', '/api/futures/wnba'),
    get('/api/combat/{date}', '/api/combat/2025-09-27'),
    get('/api/combat/{date}', '/api/combat/2025-12-25'),
    get('/api/fight/{id}', '/api/fight/401801745'),
    get('/api/fight/{id}', '/api/fight/12345'),
    get('/api/stats/player/{name}', '/api/stats/player/Jalen%20Brunson'),
    get('/api/stats/player/{name}', '/api/stats/player/Williams'),
    get('/api/stats/player/{name}', '/api/stats/player/Jalen%20Brunsonn'),
    get('/api/stats/leaders', '/api/stats/leaders?stat=threes&season=2024-25&limit=3'),
    get('/api/stats/leaders', '/api/stats/leaders?stat=hits&sport=mlb'),
    get('/api/stats/game/{id}', '/api/stats/game/2025-11-03:NY'),
    get('/api/stats/game/{id}', '/api/stats/game/716896?sport=mlb'),
    get('/api/stats/game/{id}', '/api/stats/game/c13de17fcb4b3e9c45de21f479151ed5'),
    get('/api/stats/pitcher/{name}/arsenal', '/api/stats/pitcher/Carlos%20Rod%C3%B3n/arsenal?season=2022'),
    get('/api/stats/pitcher/{name}/arsenal', '/api/stats/pitcher/Nobody%20Atall/arsenal?season=2022'),
    get('/api/stats/lineup', '/api/stats/lineup?sport=mlb&date=2023-08-22'),
    get('/api/stats/lineup', '/api/stats/lineup?sport=nba'),
    get('/api/stats/depth', '/api/stats/depth?team=ATL&sport=mlb'),
    get('/api/stats/depth', '/api/stats/depth?team=Nowhere'),
    get('/api/stats/cascade', '/api/stats/cascade?player=Joel%20Embiid'),
    get('/api/stats/cascade', '/api/stats/cascade?player=Williams'),
    get('/api/desk-showcase', '/api/desk-showcase'),
    post('/api/internal/newsletter/send', '/api/internal/newsletter/send?date=2025-11-05', undefined),
    post('/api/internal/ghost/drafts', '/api/internal/ghost/drafts?date=2025-11-05', undefined),
  ];
}

/** Calls that run the snapshot pipeline: made once each, last (they write new snapshots). */
export function runCalls(): ContractCall[] {
  return [
    { op: 'POST /api/internal/snapshot/{sport}', method: 'POST', path: '/api/internal/snapshot/nba' },
    { op: 'POST /api/internal/snapshot/{sport}', method: 'POST', path: '/api/internal/snapshot/cricket' },
    { op: 'POST /api/internal/snapshot/all', method: 'POST', path: '/api/internal/snapshot/all' },
  ];
}
