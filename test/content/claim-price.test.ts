import { readdirSync, readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDraftDocuments } from '../../src/jobs/publish/drafts.js';
import { buildDeskPack, templateParts, type DeskPack, type ReadyTemplate } from '../../src/content/pack.js';
import { readContentFacts } from '../../src/store/repo/content-facts.js';
import { buildDailyReport } from '../../src/content/report.js';
import { normalizeName } from '../../src/domain/names.js';
import { parseEventPropQuotes } from '../../src/feeds/odds-api/parse.js';
import { gradedRows, gradeLocks, ledgerEntries } from '../../src/store/schema.js';
import { LOOP_DATE, loopStore, NOON, type LoopStore } from './_loop.js';

/**
 * Issue 25, content: a grade is quoted with the price it was computed on. On the README loop (the
 * 15:05Z and 17:05Z snapshots of 2025-11-05, then the settle), every price printed beside a grade in
 * every document is checked against the grade lock, the graded row of the snapshot that made the
 * lock, and the raw recorded odds of that snapshot; a projection on the other side of the line is
 * never offered as support; the close counts only closes read on the one yardstick.
 */

const NOW = new Date(NOON);
const GRADE = String.raw`(A\+|A|B|C|F)`;
const PRICE = String.raw`([+-]\d{3,4})`;
const CLOCK = String.raw`(\d{1,2}:\d{2} [AP]M) ET`;
/** readSentence: "A+ Jalen Brunson (NY) under 2.5 rebounds at +155 (bovada), graded 12:05 PM ET". */
const READ = new RegExp(String.raw`${GRADE} ([A-Z][^();]*?)(?: \([A-Z]{2,4}\))? (over|under) (\d+(?:\.\d)?) [a-z0-9 -]+? at ${PRICE} \(([a-z0-9_]+)\), graded ${CLOCK}`, 'g');
/** LINE DISPATCH: "over F at +136 (draftkings) as graded 10:05 AM ET"; SIGNAL's headline: "A+ at +155 (bovada) as graded 12:05 PM ET". */
const SIDE = new RegExp(String.raw`(?:(over|under) )?${GRADE} at ${PRICE} \(([a-z0-9_]+)\) as graded ${CLOCK}`, 'g');

const american = (v: number) => (Math.round(v) > 0 ? `+${Math.round(v)}` : String(Math.round(v)));
const clock = (iso: string) => new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
const dec = (a: number) => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);
const unescape = (html: string) => html.replace(/<[^>]+>/g, '\n').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Every book's price per (event, player key, stat, line, side) in the recorded event odds of one snapshot (15:05 reads the 15:00 recording). */
function recorded(gradedAt: string): Map<string, Map<string, number>> {
  const stamp = `${new Date(gradedAt).toISOString().slice(0, 13)}-00-00Z`;
  const out = new Map<string, Map<string, number>>();
  const log = { warn: () => undefined, info: () => undefined };
  for (const f of readdirSync('data/replay/odds-api').filter((n) => n.startsWith('nba-event-odds-') && n.endsWith(`${stamp}.json`))) {
    for (const q of parseEventPropQuotes(JSON.parse(readFileSync(`data/replay/odds-api/${f}`, 'utf8')), { log })) {
      if (q.line === null || q.price === null) continue;
      const k = `${q.eventId}|${normalizeName(q.player).key}|${q.stat}|${q.line}|${q.side}`;
      const books = out.get(k) ?? new Map<string, number>();
      books.set(q.book, q.price);
      out.set(k, books);
    }
  }
  return out;
}

type Lock = typeof gradeLocks.$inferSelect;
type Row = typeof gradedRows.$inferSelect;

describe('content quotes a grade with the price it was made on (README loop, 2025-11-05)', () => {
  let loop: LoopStore;
  let pack: DeskPack;
  let locks: Lock[];
  let nameKey: Map<string, string>;
  /** Every document a reader sees, as plain text, by name. */
  let documents: Array<{ name: string; text: string }>;
  const raw = new Map<string, Map<string, Map<string, number>>>();

  beforeAll(async () => {
    loop = await loopStore('settled');
    const facts = await readContentFacts(loop.store, { now: NOW });
    pack = buildDeskPack(facts);
    const report = buildDailyReport(facts);
    locks = loop.store.db.select().from(gradeLocks).all();
    nameKey = new Map(loop.store.db.selectDistinct({ player: gradedRows.player, key: gradedRows.playerKey }).from(gradedRows).all().map((r) => [r.player, r.key]));
    documents = [
      ...pack.templates.filter((t): t is ReadyTemplate => t.status === 'ready').flatMap((t) => Object.entries(templateParts(t)).map(([part, text]) => ({ name: `${t.name} ${part}`, text }))),
      { name: 'daily report text', text: report.text },
      { name: 'daily report html', text: unescape(report.html) },
      ...buildDraftDocuments(pack).flatMap((d) => ('content' in d ? [{ name: `${d.kind} draft`, text: unescape(d.content.html) }] : [])),
    ];
  }, 120_000);
  afterAll(() => loop?.cleanup());

  const ready = (id: string) => pack.templates.find((t): t is ReadyTemplate => t.id === id && t.status === 'ready');
  const rawFor = (at: string) => raw.get(at) ?? raw.set(at, recorded(at)).get(at)!;

  /** The lock is the price the snapshot that made it saw: its graded row there, and the raw recording. */
  function expectLockIsRecorded(lock: Lock): void {
    const row = loop.store.db
      .select()
      .from(gradedRows)
      .where(and(eq(gradedRows.snapshotId, lock.snapshotId ?? -1), eq(gradedRows.eventId, lock.eventId), eq(gradedRows.playerKey, lock.playerKey), eq(gradedRows.statType, lock.statType), eq(gradedRows.line, lock.line), eq(gradedRows.side, lock.side)))
      .get() as Row | undefined;
    expect(row, `graded row of lock ${lock.id} in snapshot ${lock.snapshotId}`).toBeDefined();
    expect([row?.book, row?.bookOdds, row?.gradedAt]).toEqual([lock.lockedBook, lock.lockedOdds, lock.gradedAt]);
    const books = rawFor(lock.gradedAt).get(`${lock.eventId}|${lock.playerKey}|${lock.statType}|${lock.line}|${lock.side}`);
    expect(books?.get(lock.lockedBook ?? ''), `raw recording: ${lock.lockedBook} ${lock.playerKey} ${lock.statType} ${lock.line} ${lock.side}`).toBe(lock.lockedOdds);
  }

  it('every price printed beside a grade is its lock\'s locked_odds at locked_book, with the lock\'s time, as the locking snapshot recorded it', () => {
    let checked = 0;
    for (const doc of documents) {
      for (const m of doc.text.matchAll(READ)) {
        const [, grade, player, side, line, price, book, time] = m;
        const key = nameKey.get(player ?? '');
        expect(key, `${doc.name}: player '${player}'`).toBeDefined();
        const found = locks.filter((l) => l.playerKey === key && l.side === side && l.line === Number(line) && l.grade === grade);
        const lock = found.find((l) => american(l.lockedOdds ?? 0) === price && l.lockedBook === book && clock(l.gradedAt) === time);
        expect(lock, `${doc.name}: '${m[0]}' is not the price its grade was computed on (locks: ${found.map((l) => `${l.lockedOdds} ${l.lockedBook} ${l.gradedAt}`).join(', ')})`).toBeDefined();
        if (lock) expectLockIsRecorded(lock);
        checked++;
      }
      for (const m of doc.text.matchAll(SIDE)) {
        const [, side, grade, price, book, time] = m;
        const lock = locks.find((l) => (side === undefined || l.side === side) && l.grade === grade && american(l.lockedOdds ?? 0) === price && l.lockedBook === book && clock(l.gradedAt) === time);
        expect(lock, `${doc.name}: '${m[0]}'`).toBeDefined();
        if (lock) expectLockIsRecorded(lock);
        checked++;
      }
    }
    // Not vacuous: the board's reads (wire, report, drafts) and the line dispatch's sides were checked.
    expect(checked).toBeGreaterThan(30);
  });

  it('the line dispatch brief names each side\'s lock, and the copy prints that lock\'s price and time', () => {
    const dispatch = ready('line_dispatch');
    const claims = dispatch?.brief.filter((f) => /^move_\d+\.(over|under)\.price$/.test(f.key)) ?? [];
    expect(claims.length).toBeGreaterThanOrEqual(7);
    for (const f of claims) {
      expect(f.source.table).toBe('grade_locks');
      const lock = locks.find((l) => l.id === f.source.ids[0]);
      expect(lock).toBeDefined();
      expect(f.value).toBe(lock?.lockedOdds);
      expect(dispatch?.long).toContain(`${lock?.side} ${lock?.grade} at ${american(lock?.lockedOdds ?? 0)} (${lock?.lockedBook}) as graded ${clock(lock?.gradedAt ?? '')} ET`);
    }
    // Duncan Robinson's 3.5 was graded at 10:05 on an alternate rung; its price now is said as now.
    expect(dispatch?.long).toMatch(/Duncan Robinson .*over F at \+\d+ \(\w+\) as graded 10:05 AM ET, now \+\d+ \(\w+\)/);
  });

  it('no clause pairs a grade with a price it was not computed on: any other price in it is the fair, or the price now said as now', () => {
    let clauses = 0;
    for (const doc of documents) {
      for (const clause of doc.text.split(/(?<=[.;:])\s+|\n+/)) {
        const prices = [...clause.matchAll(/(?<![\d.])[+-]\d{3,4}\b/g)];
        if (prices.length === 0 || !new RegExp(String.raw`(?:^|[\s(])${GRADE}(?=\s)`).test(clause)) continue;
        const claims = [...clause.matchAll(READ), ...clause.matchAll(SIDE)].map((m) => m.index + m[0].indexOf(' at ') + 4);
        for (const p of prices) {
          const before = clause.slice(0, p.index);
          const ok = claims.includes(p.index) || /fair price of $/.test(before) || /\bnow $/.test(before) || /best price is (?:still )?$/.test(before);
          expect(ok, `${doc.name}: '${p[0]}' in "${clause}"`).toBe(true);
        }
        clauses++;
      }
    }
    expect(clauses).toBeGreaterThan(10);
  });

  it('SIGNAL states its grade at the lock\'s price, book, fair and time, and says the price now as now', () => {
    const signal = ready('signal');
    const f = signal?.brief.find((x) => x.key === 'signal.price');
    expect(f?.source.table).toBe('grade_locks');
    const lock = locks.find((l) => l.id === f?.source.ids[0]);
    if (!lock) throw new Error('signal lock missing');
    expectLockIsRecorded(lock);
    const price = american(lock.lockedOdds ?? 0);
    expect(signal?.headline.endsWith(`, ${lock.grade} at ${price} (${lock.lockedBook}) as graded ${clock(lock.gradedAt)} ET`)).toBe(true);
    expect(signal?.long).toContain(`The price: ${price} (${lock.lockedBook}), graded ${clock(lock.gradedAt)} ET.`);
    const fair = 1 / (lock.lockedFairProb ?? 1) - 1;
    const fairAmerican = fair >= 1 ? 100 * fair : -100 / fair;
    expect(signal?.long).toContain(`was ${american(fairAmerican)}.`);
    expect(signal?.numbers).toContain(`graded price: ${price} (${lock.lockedBook})`);
  });

  it('a projection on the other side of the line is never offered as support; the copy says it points the other way', () => {
    const noon = loop.store.db.select().from(gradedRows).where(sql`${gradedRows.snapshotId} = (select max(id) from snapshots)`).all();
    let contradicting = 0;
    for (const doc of documents) {
      for (const m of doc.text.matchAll(new RegExp(READ.source + String.raw`[^;.]*?; (projection|the projection of) (\d+\.\d)`, 'g'))) {
        const [, , player, side, line, , , , form, projection] = m;
        const row = noon.find((r) => r.player === player && r.side === side && r.line === Number(line) && r.projection !== null && r.projection.toFixed(1) === projection);
        expect(row, `${doc.name}: ${m[0]}`).toBeDefined();
        // From the stored projection and line, not the code's projection_agrees.
        const against = side === 'over' ? (row?.projection ?? 0) < Number(line) : (row?.projection ?? 0) > Number(line);
        if (against) contradicting++;
        expect(form, `${doc.name}: ${m[0]}`).toBe(against ? 'the projection of' : 'projection');
        // The projection carries the stat's own unit (never "3.0 points" on a rebounds prop).
        if (against) expect(doc.text.slice(m.index + m[0].length)).toMatch(/^ [a-z0-9 -]+ lies on the (over|under) side, so the grade rests on the price alone/);
      }
    }
    // Jalen Brunson under 2.5 rebounds (projection 3.0) is on the board: the case is exercised.
    expect(contradicting).toBeGreaterThan(0);
    const signal = ready('signal');
    const row = noon.find((r) => r.id === signal?.brief.find((x) => x.key === 'signal.line')?.source.ids[0]);
    const against = row?.projection != null && (row.side === 'over' ? row.projection < row.line : row.projection > row.line);
    if (against) expect(signal?.long).toMatch(/The model projects [\d.]+ [a-z0-9 -]+ from \d+ games of the player's history: that points to the (over|under), the other side of this read\. The grade rests on the price alone\./);
    else expect(signal?.long).not.toContain('other side of this read');
  });

  it('a read whose claimed edge is gone at the best price now is not presented as a strong read', () => {
    const noon = loop.store.db.select().from(gradedRows).where(sql`${gradedRows.snapshotId} = (select max(id) from snapshots)`).all();
    // EV now from the stored current price and fair (market-only grades: the lock's nudge weight is 0).
    const marketOnly = (r: Row) => (r.modelDetail as Record<string, unknown> | null)?.['nudgeWeight'] === 0;
    const evNow = (r: Row) => (r.fairProb ?? 0) * dec(r.bookOdds ?? 0) - 1;
    const gone = noon.filter((r) => (r.grade === 'A+' || r.grade === 'A') && r.isMainLine && r.bookOdds !== null && r.fairProb !== null && marketOnly(r) && evNow(r) <= 0);
    expect(gone.map((r) => r.player)).toContain('Kelly Oubre Jr');
    const strong = [...(ready('morning_wire')?.long.matchAll(READ) ?? []), ...(ready('signal')?.wire.join('\n').matchAll(READ) ?? [])];
    expect(strong.length).toBeGreaterThan(0);
    for (const m of strong) {
      const row = noon.find((r) => r.player === m[2] && r.side === m[3] && r.line === Number(m[4]) && r.grade === m[1] && r.isMainLine);
      expect(gone.some((g) => g.id === row?.id), `${m[0]} is shown as a strong read with its edge gone`).toBe(false);
      if (row && marketOnly(row)) expect(evNow(row)).toBeGreaterThan(0);
    }
  });

  it('THE SETTLE and RECEIPTS count only closes read on the one yardstick, and a close read the old way drops out', async () => {
    const verdicts = () =>
      loop.store.db
        .select({ v: ledgerEntries.clvVerdict, n: sql<number>`count(*)`, pct: sql<number>`avg(${ledgerEntries.clvPct})` })
        .from(ledgerEntries)
        .where(sql`${ledgerEntries.userId} is null and ${ledgerEntries.gameDate} = ${LOOP_DATE} and ${ledgerEntries.outcome} != 'pending' and ${ledgerEntries.clvVerdict} is not null and coalesce(${ledgerEntries.closeMethod}, '') != 'own_book_devig'`)
        .groupBy(ledgerEntries.clvVerdict)
        .all();
    const counts = (p: DeskPack) => Object.fromEntries((p.templates.find((t): t is ReadyTemplate => t.id === 'the_settle' && t.status === 'ready')?.brief ?? []).filter((f) => /^clv\.(beat|faded|flat|n)$/.test(f.key)).map((f) => [f.key.slice(4), f.value]));
    const expected = (rows: ReturnType<typeof verdicts>) => {
      const by = Object.fromEntries(rows.map((r) => [r.v, r.n]));
      return { beat: by['beat'] ?? 0, faded: by['faded'] ?? 0, flat: by['flat'] ?? 0, n: rows.reduce((a, r) => a + r.n, 0) };
    };
    const before = expected(verdicts());
    expect(before.n).toBeGreaterThan(20);
    expect(counts(pack)).toEqual(before);
    expect(ready('the_settle')?.long).toContain(`${before.beat} beat it, ${before.faded} faded, ${before.flat} flat, of ${before.n} with a close captured`);
    expect(ready('the_settle')?.long).not.toContain('at the same book');
    // The mean CLV quoted is the stored clv_pct's mean over the same closes (n >= 20).
    const mean = loop.store.db
      .select({ m: sql<number>`avg(${ledgerEntries.clvPct})`, n: sql<number>`count(${ledgerEntries.clvPct})` })
      .from(ledgerEntries)
      .where(sql`${ledgerEntries.userId} is null and ${ledgerEntries.gameDate} = ${LOOP_DATE} and ${ledgerEntries.clvVerdict} is not null and coalesce(${ledgerEntries.closeMethod}, '') != 'own_book_devig'`)
      .get();
    const shown = ready('the_settle')?.brief.find((f) => f.key === 'clv.mean_clv_pct');
    expect(shown?.n).toBe(mean?.n);
    expect(shown?.value).toBeCloseTo(mean?.m ?? NaN, 9);

    // Mark ten beating closes as read the old way: they leave every count and the rate.
    const ids = loop.store.db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(sql`${ledgerEntries.gameDate} = ${LOOP_DATE} and ${ledgerEntries.clvVerdict} = 'beat'`).limit(10).all().map((r) => r.id);
    expect(ids.length).toBe(10);
    loop.store.sqlite.prepare(`update ledger_entries set close_method = 'own_book_devig' where id in (${ids.join(',')})`).run();
    try {
      const after = buildDeskPack(await readContentFacts(loop.store, { now: NOW }));
      expect(counts(after)).toEqual({ ...before, beat: before.beat - 10, n: before.n - 10 });
      expect(counts(after)).toEqual(expected(verdicts()));
      const rec = after.templates.find((t): t is ReadyTemplate => t.id === 'receipts' && t.status === 'ready');
      const beat = rec?.brief.find((f) => f.key === 'beat_close');
      expect(beat?.n).toBe(before.n - 10);
      expect(beat?.value).toBeCloseTo((100 * (before.beat - 10)) / (before.n - 10), 9);
    } finally {
      loop.store.sqlite.prepare(`update ledger_entries set close_method = 'one_yardstick' where id in (${ids.join(',')})`).run();
    }
  });

  it('THE SETTLE quotes each A+ read at its ledger price, which is its lock\'s price, with the lock\'s time', () => {
    const settle = ready('the_settle');
    const items = settle?.brief.filter((f) => /^a_plus_\d+\.price$/.test(f.key)) ?? [];
    expect(items.length).toBeGreaterThan(0);
    for (const f of items) {
      const entry = loop.store.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, f.source.ids[0] ?? -1)).get();
      const lock = locks.find((l) => l.eventId === entry?.eventId && l.playerKey === entry?.playerKey && l.statType === entry?.statType && l.line === entry?.line && l.side === entry?.side);
      if (!lock) throw new Error(`no lock for entry ${entry?.id}`);
      expectLockIsRecorded(lock);
      expect(f.value).toBe(lock.lockedOdds);
      expect(settle?.long).toContain(`at ${american(lock.lockedOdds ?? 0)} (${lock.lockedBook}) graded ${clock(lock.gradedAt)} ET`);
    }
  });
});
