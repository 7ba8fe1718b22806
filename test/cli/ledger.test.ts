import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clvStatus, NO_CLOSE_NOTES, type LedgerEntry } from '../../src/domain/settlement.js';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';
import { REPLAY_DIR, replayLoopFiles } from '../helpers/replay-store.js';


interface WireStatus {
  clv: number | null;
  clv_pct: number | null;
  clv_line: number | null;
  verdict: string | null;
  final: boolean;
  no_close_reason: string | null;
  note: string | null;
}
interface WireEntry {
  id: number;
  player: string;
  event_id: string;
  stat_type: string;
  line: number;
  side: string;
  book: string | null;
  outcome: string;
  locked_at: string;
  locked_fair_prob: number | null;
  closing_line: number | null;
  closing_fair_prob: number | null;
  closing_captured_at: string | null;
  commence_time: string;
  close_lead_minutes: number | null;
  close_lead_band: string | null;
  clv_status: WireStatus;
}

describe('propgrade ledger (in-process CLI, the README replay loop)', () => {
  let dir: string;
  let presettle: string;
  let settled: string;
  let total: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-ledger-cli-'));
    ({ presettle, settled } = await replayLoopFiles(dir));
    const store = openStore(settled);
    total = (store.sqlite.prepare('select count(*) as n from ledger_entries where user_id is null').get() as { n: number }).n;
    void store.close();
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const listAll = async (db: string, ...extra: string[]) => JSON.parse((await runCli(['--db', db, '--json', 'ledger', '--limit', '100000', ...extra])).stdout) as { entries: WireEntry[]; total: number; shown: number; limit: number };

  it('no silent cut: the footer states the total and how to see more; --json carries it', async () => {
    expect(total).toBeGreaterThan(200);
    const r = await runCli(['--db', settled, 'ledger']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`showing 200 of ${total}; --limit N or --date/--team/--player to narrow`);
    const json = JSON.parse((await runCli(['--db', settled, '--json', 'ledger'])).stdout);
    expect(json).toMatchObject({ total, shown: 200, limit: 200 });
    expect(json.entries).toHaveLength(200);
    const all = await runCli(['--db', settled, 'ledger', '--limit', '100000']);
    expect(all.stdout).toContain(`\n${total} entries\n`);
    expect(all.stdout).not.toContain('showing');
    const narrowed = await listAll(settled, '--team', 'NY', '--sport', 'nba');
    expect(narrowed.total).toBe(narrowed.entries.length);
    expect(narrowed.total).toBeLessThan(total);
  });

  it('each entry with a close carries its lead time before the start and its band; the table prints it as Close lead', async () => {
    const { entries } = await listAll(settled);
    const closed = entries.filter((e) => e.closing_captured_at !== null);
    expect(closed.length).toBeGreaterThan(0);
    for (const e of closed) {
      expect(e.close_lead_minutes).toBe((Date.parse(e.commence_time) - Date.parse(e.closing_captured_at as string)) / 60_000);
      expect(e.close_lead_band).toBe('over_3h'); // 17:05 UTC against evening tips
    }
    for (const e of entries.filter((x) => x.closing_captured_at === null)) expect([e.close_lead_minutes, e.close_lead_band]).toEqual([null, null]);
    const text = (await runCli(['--db', settled, 'ledger', '--date', '2025-11-05', '--team', 'NY', '--sport', 'nba'])).stdout;
    expect(text).toContain('Close lead');
    expect(text).toMatch(/│ 7 h \d\d min │/);
    expect(text).toMatch(/^Close lead: how long before the start the close was taken/m);
  });

  it('a Sport column, the same as each entry\'s sport; a team code two leagues share needs --sport (exit 2 naming both)', async () => {
    const r = await runCli(['--db', settled, 'ledger', '--team', 'NY', '--sport', 'nba', '--limit', '100000']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const head = lines.find((l) => l.includes('│ Date'))!.split('│').map((c) => c.trim());
    expect(head.slice(1, 4)).toEqual(['Date', 'Sport', 'Player']);
    const rows = lines.filter((l) => /^│ \d{4}-\d{2}-\d{2} /.test(l)).map((l) => l.split('│').map((c) => c.trim()));
    const store = openStore(settled);
    const raw = store.sqlite.prepare("select count(*) as n from ledger_entries where user_id is null and team = 'NY' and sport = 'nba'").get() as { n: number };
    void store.close();
    expect(raw.n).toBeGreaterThan(0);
    expect(rows).toHaveLength(raw.n);
    expect(rows.every((c) => c[head.indexOf('Sport')] === 'nba' && c[head.indexOf('Team')] === 'NY')).toBe(true);
    expect(r.stdout.endsWith('\n')).toBe(true);

    const shared = await runCli(['--db', settled, 'ledger', '--team', 'ny']);
    expect(shared.code).toBe(2);
    expect(shared.stdout).toBe('');
    expect(shared.stderr).toContain('team NY is the New York Knicks (nba) and the New York Liberty (wnba): add --sport nba or --sport wnba');
    // A code only one graded league uses needs no sport.
    expect((await runCli(['--db', settled, 'ledger', '--team', 'LAL'])).code).toBe(0);
    expect((await runCli(['--db', settled, 'ledger', '--team', 'NY', '--sport', 'cricket'])).code).toBe(2);
  });

  it('--help describes CLV as the listing prints it: the locked price\'s EV at the close, % of stake', async () => {
    const help = await runCli(['ledger', '--help']);
    expect(help.stdout).not.toMatch(/percentage points/);
    expect(help.stdout).toContain("CLV: the locked price's EV at the closing fair");
    expect(help.stdout).toContain('--team NY --sport nba');
  });

  it('CLV is the locked price\'s EV at the closing fair, with its verdict, from the stored lock and close', async () => {
    const { entries } = await listAll(settled);
    const verdicts = entries.filter((e) => e.clv_status.verdict !== null);
    expect(verdicts.length).toBeGreaterThan(0);
    const text = (await runCli(['--db', settled, 'ledger', '--limit', '100000'])).stdout;
    const header = text.split('\n').find((l) => l.includes('│ Date'))!.split('│').map((c) => c.trim());
    const col = (name: string) => header.indexOf(name);
    // The store's full-precision probabilities (the wire rounds them to 4 places).
    const store = openStore(settled);
    const stored = new Map(
      (store.sqlite.prepare('select id, locked_price as price, locked_fair_prob as locked, closing_fair_prob as closing from ledger_entries').all() as Array<{ id: number; price: number; locked: number; closing: number }>).map((r) => [r.id, r]),
    );
    void store.close();
    for (const e of verdicts) {
      expect(e.clv_status.final).toBe(true);
      if (e.closing_line === e.line) {
        const s = stored.get(e.id)!;
        const decimal = s.price > 0 ? 1 + s.price / 100 : 1 + 100 / -s.price;
        const pct = 100 * (s.closing * decimal - 1);
        expect(e.clv_status.clv_pct ?? Number.NaN).toBeCloseTo(pct, 1);
        expect(e.clv_status.clv ?? Number.NaN).toBeCloseTo(s.closing - s.locked, 4);
        expect(e.clv_status.verdict).toBe(Math.abs(pct) < 0.5 ? 'flat' : pct > 0 ? 'beat' : 'faded');
        const shown = `${pct > 0 ? '+' : pct < 0 ? '-' : ''}${Math.abs(pct).toFixed(1)}% ${e.clv_status.verdict}`;
        // Match on the cells themselves: a moved line's close must not match the Line column.
        const row = text.split('\n').find((l) => {
          const cells = l.split('│').map((c) => c.trim());
          return cells[col('Player')] === e.player && cells[col('Stat')] === e.stat_type && cells[col('Line')] === String(e.line) && cells[col('Side')] === e.side;
        });
        expect(row, `${e.player} ${e.stat_type}`).toContain(shown);
      } else {
        expect(e.clv_status.clv).toBeNull();
        expect(e.clv_status.clv_line).toBe(e.side === 'over' ? (e.closing_line ?? 0) - e.line : e.line - (e.closing_line ?? 0));
      }
    }
    expect(text).toContain("CLV: the locked price's EV at the closing fair");
  });

  it('says why a close is missing, from stored fields only; a locked book that stopped quoting still gets the market\'s close', async () => {
    const { entries } = await listAll(settled);
    const missing = entries.filter((e) => e.clv_status.verdict === null);
    expect(missing.length).toBeGreaterThan(0);
    for (const e of missing) {
      expect(e.closing_captured_at).toBeNull();
      // Locked by the last snapshot before the start (17:05): no later snapshot could capture a close.
      expect(e.locked_at.startsWith('2025-11-05T17:05')).toBe(true);
      expect(e.clv_status.no_close_reason).toBe('no_snapshot_after_lock');
      expect(e.clv_status.note).toBe(NO_CLOSE_NOTES[e.clv_status.no_close_reason as keyof typeof NO_CLOSE_NOTES]);
    }
    // Entries whose locked book quoted the prop at 15:00 and not at 17:00 (the recording): the close
    // is the other books' market at the locked line, with no closing price at the locked book.
    const locked15 = entries.filter((e) => e.locked_at.startsWith('2025-11-05T15:05'));
    const stopped = locked15.filter((e) => bookQuotes(e.event_id, '15-00-00Z', e.book ?? '', e.stat_type, e.player).length === 2 && bookQuotes(e.event_id, '17-00-00Z', e.book ?? '', e.stat_type, e.player).length === 0);
    expect(stopped.length).toBeGreaterThan(0);
    for (const e of stopped) expect(e).toMatchObject({ closing_line: e.line, closing_book: null, closing_price: null });
    const text = (await runCli(['--db', settled, 'ledger', '--limit', '100000'])).stdout;
    expect(text).toMatch(/no close: no later snapshot/);
    expect(text).toMatch(/\d+ shown × no close: no snapshot ran between the lock and the start/);
  });

  it('before the games: CLV "so far" where a close was captured, "no close captured yet" where not', async () => {
    const r = await runCli(['--db', presettle, 'ledger', '--limit', '100000']);
    expect(r.stderr).toMatch(/clock \(each sport its own\): nba 2025-11-05T17:05:00.000Z/);
    const { entries } = await listAll(presettle);
    for (const e of entries) {
      expect(e.outcome).toBe('pending');
      expect(e.clv_status.final).toBe(false);
      if (e.closing_captured_at === null) expect(e.clv_status.no_close_reason).toBe('not_captured_yet');
      else expect(e.clv_status.verdict).not.toBeNull();
    }
    expect(entries.some((e) => e.clv_status.verdict !== null)).toBe(true);
    expect(r.stdout).toMatch(/ (beat|faded|flat) \(so far\)/);
    expect(r.stdout).toMatch(/no close captured yet: the game has not started/);
    // The same entries read after the start, unsettled: the close is final.
    const later = await listAll(presettle, '--now', '2025-11-06T12:00:00Z');
    expect(later.entries.every((e) => e.clv_status.final)).toBe(true);
  });
});

/** The entry's book's outcomes for the player in the recorded event odds at one capture time. */
function bookQuotes(eventId: string, at: string, book: string, stat: string, player: string): unknown[] {
  const market = { points: 'player_points', rebounds: 'player_rebounds', assists: 'player_assists', threes: 'player_threes', pra: 'player_points_rebounds_assists', blocks: 'player_blocks', steals: 'player_steals' }[stat];
  const body = JSON.parse(readFileSync(join(REPLAY_DIR, 'odds-api', `nba-event-odds-${eventId}-2025-11-05T${at}.json`), 'utf8')) as {
    bookmakers: Array<{ key: string; markets: Array<{ key: string; outcomes: Array<{ description?: string; point?: number }> }> }>;
  };
  const b = body.bookmakers.find((x) => x.key === book);
  const m = b?.markets.find((x) => x.key === market);
  return (m?.outcomes ?? []).filter((o) => o.description === player);
}

describe('clvStatus: why a close is missing, case by case', () => {
  const base = {
    outcome: 'pending',
    side: 'over',
    line: 14.5,
    book: 'fanduel',
    lockedPrice: 100,
    lockedFairProb: 0.5,
    closingLine: null,
    closingFairProb: null,
    closingCapturedAt: null,
    commenceTime: '2025-11-06T00:00:00Z',
    clv: null,
    clvPct: null,
    clvLine: null,
    clvVerdict: null,
  } satisfies Partial<LedgerEntry>;
  const after = new Date('2025-11-06T03:00:00Z');
  const before = new Date('2025-11-05T20:00:00Z');

  it('distinguishes every reason', () => {
    expect(clvStatus(base, before, null).noCloseReason).toBe('not_captured_yet');
    expect(clvStatus({ ...base, book: null }, after, null).noCloseReason).toBe('no_book');
    expect(clvStatus(base, after, { snapshotsAfterLock: 0, carriedGame: false }).noCloseReason).toBe('no_snapshot_after_lock');
    expect(clvStatus(base, after, { snapshotsAfterLock: 3, carriedGame: false }).noCloseReason).toBe('game_not_in_later_snapshots');
    expect(clvStatus(base, after, { snapshotsAfterLock: 3, carriedGame: true }).noCloseReason).toBe('market_stopped_pricing');
    expect(clvStatus(base, after, null).noCloseReason).toBe('no_capture_before_start');
    const late = { ...base, closingLine: 14.5, closingFairProb: 0.55, closingCapturedAt: '2025-11-06T00:05:00Z' };
    expect(clvStatus(late, after, null)).toMatchObject({ verdict: null, noCloseReason: 'captured_after_start' });
    const oneSided = { ...base, closingLine: 14.5, closingFairProb: null, closingCapturedAt: '2025-11-05T23:00:00Z' };
    expect(clvStatus(oneSided, after, null)).toMatchObject({ verdict: null, clvLine: 0, noCloseReason: 'one_sided_market' });
  });

  it('reads a pending close the way settling would, and a settled entry as stored', () => {
    const captured = { ...base, closingLine: 14.5, closingFairProb: 0.52, closingCapturedAt: '2025-11-05T23:00:00Z' };
    const soFar = clvStatus(captured, before, null);
    expect(soFar).toMatchObject({ verdict: 'beat', clvLine: 0, final: false, noCloseReason: null });
    expect(soFar.clv).toBeCloseTo(0.02, 12);
    expect(clvStatus(captured, after, null).final).toBe(true);
    const moved = clvStatus({ ...captured, closingLine: 15.5 }, after, null);
    expect(moved).toMatchObject({ clv: null, clvLine: 1, verdict: 'beat' });
    const settledRow = { ...base, outcome: 'hit', clv: -0.03, clvPct: -6, clvLine: 0, clvVerdict: 'faded' } as const;
    // Settled is final whatever the read clock (a replayed store reads as of its snapshot).
    expect(clvStatus(settledRow, before, null)).toMatchObject({ clv: -0.03, verdict: 'faded', final: true });
    expect(clvStatus({ ...base, outcome: 'miss' }, before, { snapshotsAfterLock: 0, carriedGame: false }).noCloseReason).toBe('no_snapshot_after_lock');
  });
});
