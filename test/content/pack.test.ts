import { inArray, sql } from 'drizzle-orm';
import twitter from 'twitter-text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeskPack, templateParts, type DeskPack, type ReadyTemplate } from '../../src/content/pack.js';
import { readContentFacts } from '../../src/store/repo/content-facts.js';
import { checkEditorial } from '../../src/content/rules.js';
import { TEMPLATE_NAMES } from '../../src/content/template.js';
import { gradedRows, gradeLocks, ledgerEntries, snapshots } from '../../src/store/schema.js';
import { tempStore } from '../helpers/replay-store.js';
import { LOOP_DATE, loopStore, NOON, type LoopStore } from './_loop.js';

const NOW = new Date(NOON);
const ready = (pack: DeskPack, id: string) => pack.templates.find((t): t is ReadyTemplate => t.id === id && t.status === 'ready');

describe('desk pack on the replay loop (two snapshots of 2025-11-05, then the settle)', () => {
  let loop: LoopStore;
  let pack: DeskPack;
  beforeAll(async () => {
    loop = await loopStore('settled');
    pack = buildDeskPack(await readContentFacts(loop.store, { now: NOW }));
  }, 120_000);
  afterAll(() => loop?.cleanup());

  it('lists all seven templates in order, each ready or omitted with a reason', () => {
    expect(pack.date).toBe(LOOP_DATE);
    expect(pack.templates.map((t) => t.name)).toEqual(['MORNING WIRE', 'SIGNAL', 'STREAK WATCH', 'THE SETTLE', 'RECEIPTS', 'ARCHETYPE WATCH', 'LINE DISPATCH']);
    const status = Object.fromEntries(pack.templates.map((t) => [t.name, t.status]));
    expect(status).toEqual({
      'MORNING WIRE': 'ready',
      SIGNAL: 'ready',
      'STREAK WATCH': 'omitted',
      'THE SETTLE': 'ready',
      RECEIPTS: 'ready',
      'ARCHETYPE WATCH': 'ready',
      'LINE DISPATCH': 'ready',
    });
    // One settled game date cannot hold a run of three games: omitted, with that reason, never padded.
    expect(pack.omitted).toEqual([{ id: 'streak_watch', name: 'STREAK WATCH', reason: expect.stringContaining('settled game dates in the window: 1') }]);
  });

  it('every post is at most 280 as twitter-text weighs it, and every thread ends with the responsible-gambling line', () => {
    for (const t of pack.templates) {
      if (t.status !== 'ready') continue;
      expect(t.thread.length).toBeGreaterThan(0);
      for (const tweet of t.thread) {
        expect(twitter.parseTweet(tweet.text).weightedLength).toBe(tweet.weighted);
        expect(tweet.weighted).toBeLessThanOrEqual(280);
      }
      expect(t.thread.at(-1)?.text).toContain('1-800-GAMBLER');
    }
  });

  it('breaks no editorial rule in any part, and never prints the model EV or win probability', () => {
    for (const t of pack.templates) {
      if (t.status !== 'ready') continue;
      for (const [part, text] of Object.entries(templateParts(t))) expect(checkEditorial(text), `${t.name} ${part}`).toEqual([]);
      expect(t.long).not.toMatch(/\bEV\b|p_win|win probability/);
    }
    const signal = ready(pack, 'signal');
    const row = loop.store.db.select().from(gradedRows).where(inArray(gradedRows.id, signal?.brief[0]?.source.ids ?? [])).get();
    expect(row?.evPct).not.toBeNull();
    expect(signal?.long).not.toContain(`${(row?.evPct ?? 0).toFixed(1)}%`);
  });

  it('MORNING WIRE and SIGNAL carry the stored board: counts and the top read as the snapshot holds them', () => {
    const snap = loop.store.db.select().from(snapshots).where(sql`${snapshots.takenAt} = '2025-11-05T17:05:00.000Z'`).get();
    const wire = ready(pack, 'morning_wire');
    expect(wire?.long).toContain(`${snap?.gradedCount.toLocaleString('en-US')} graded`);
    expect(wire?.long).toContain('11 games');
    const signal = ready(pack, 'signal');
    const ids = signal?.brief.find((f) => f.key === 'signal.line')?.source.ids ?? [];
    const row = loop.store.db.select().from(gradedRows).where(inArray(gradedRows.id, ids)).get();
    expect(row?.grade).toBe('A+');
    expect(signal?.headline).toContain(`${row?.player} ${row?.side}`);
    // The claim's own price and book (the lock's), with the time it was graded.
    expect(signal?.long).toContain(`The price: +${Math.round(row?.lockedOdds ?? 0)} (${row?.lockedBook}), graded`);
  });

  it('records under n = 20 show counts only: the A+ tier says "record building: 3 of 20", and every % has n >= 20', () => {
    const settle = ready(pack, 'the_settle');
    const aPlus = loop.store.db
      .select({ outcome: ledgerEntries.outcome })
      .from(ledgerEntries)
      .where(sql`${ledgerEntries.gameDate} = ${LOOP_DATE} and ${ledgerEntries.grade} = 'A+' and ${ledgerEntries.outcome} in ('hit', 'miss')`)
      .all();
    const hits = aPlus.filter((e) => e.outcome === 'hit').length;
    expect(aPlus.length).toBeLessThan(20);
    expect(settle?.long).toContain(`A+ ${hits}-${aPlus.length - hits}, record building: ${aPlus.length} of 20`);
    for (const t of pack.templates) {
      if (t.status !== 'ready') continue;
      for (const f of t.brief) {
        if (/%$/.test(f.display)) expect(f.n ?? 0, `${t.name} ${f.key}`).toBeGreaterThanOrEqual(20);
        if (f.display.startsWith('record building')) expect(f.n ?? 0).toBeLessThan(20);
      }
      // No percentage in the copy sits next to a small sample.
      for (const m of t.long.matchAll(/(\d+\.\d)% \(n=([\d,]+)\)/g)) expect(Number(m[2]?.replace(/,/g, ''))).toBeGreaterThanOrEqual(20);
    }
  });

  it('the data brief names real rows: every source id exists in its table', () => {
    for (const t of pack.templates) {
      if (t.status !== 'ready') continue;
      expect(t.brief.length).toBeGreaterThan(0);
      for (const f of t.brief) {
        const ids = [...new Set(f.source.ids)];
        expect(ids.length, `${t.name} ${f.key}`).toBeGreaterThan(0);
        const table = { graded_rows: gradedRows, grade_locks: gradeLocks, ledger_entries: ledgerEntries, snapshots }[f.source.table];
        const found = loop.store.db.select({ n: sql<number>`count(*)` }).from(table).where(inArray(table.id, ids)).get();
        expect(found?.n, `${t.name} ${f.key}`).toBe(ids.length);
      }
    }
  });

  it('every number the long copy prints is a figure of the brief (or a date, time, grade band or the helpline)', () => {
    const fixed = /(\d{1,2}:\d{2} [AP]M ET|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}\b|\d{4}-\d{2}-\d{2}|1-800-GAMBLER|21\+|3-pointers|3-and-D|[+-]?\d+% to [+-]?\d+%|\b0 to \+2%|at least \+5%|\(-4% to 0\)|n of 20|of 20\b|\bn=[\d,]+|\b\d+\/\d+\b|one-unit stakes?)/g;
    for (const t of pack.templates) {
      if (t.status !== 'ready') continue;
      const displays = t.brief.map((f) => f.display).join(' | ');
      const rest = t.long.replace(fixed, ' ');
      for (const m of rest.matchAll(/\d+-\d+|[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|[+-]?\d+(?:\.\d+)?%?/g)) {
        expect(displays, `${t.name}: '${m[0]}' in the copy is not in the brief`).toContain(m[0]);
      }
    }
  });

  it('LINE DISPATCH lists the four main lines that moved between the boards', () => {
    const dispatch = ready(pack, 'line_dispatch');
    expect(dispatch?.headline).toContain('4 main lines moved');
    for (const name of ['Duncan Robinson', 'Keyonte George', 'Darius Garland', 'Josh Hart']) expect(dispatch?.long).toContain(name);
  });

  it('has a wire-only and a numbers-only variant for every ready template', () => {
    for (const t of pack.templates) {
      if (t.status !== 'ready') continue;
      expect(t.wire.length, t.name).toBeGreaterThan(0);
      expect(t.numbers.length, t.name).toBeGreaterThan(0);
      expect(t.numbers.join('\n'), t.name).toMatch(/\d/);
    }
  });

  it('refuses a template whose copy would break the rules and keeps the rest of the pack', async () => {
    const facts = await readContentFacts(loop.store, { now: NOW });
    const signal = ready(pack, 'signal');
    const id = signal?.brief[0]?.source.ids[0];
    const slate = facts.slates[0];
    const row = slate?.rows.find((r) => r.id === id);
    if (!row) throw new Error('signal row missing');
    row.player = 'Jalen Lock';
    const refused = buildDeskPack(facts);
    const t = refused.templates.find((x) => x.id === 'signal');
    expect(t?.status).toBe('omitted');
    expect(t?.status === 'omitted' && t.reason).toMatch(/refused by the editorial rules: SIGNAL .* banned term 'Lock'/);
    expect(refused.templates.find((x) => x.id === 'the_settle')?.status).toBe('ready');
  });
});

describe('desk pack omits what the store cannot back', () => {
  it('after one snapshot and no settle: the settle, the receipts and the line dispatch are omitted with their reasons', async () => {
    const loop = await loopStore('morning');
    try {
      const pack = buildDeskPack(await readContentFacts(loop.store, { now: new Date('2025-11-05T15:05:00Z') }));
      const reasons = Object.fromEntries(pack.omitted.map((o) => [o.id, o.reason]));
      expect(reasons['the_settle']).toMatch(/no public entry of 2025-11-05 or the day before is settled/);
      expect(reasons['receipts']).toMatch(/is settled yet/);
      expect(reasons['line_dispatch']).toMatch(/only one snapshot/);
      expect(reasons['streak_watch']).toBeDefined();
      expect(pack.templates.find((t) => t.id === 'morning_wire')?.status).toBe('ready');
    } finally {
      loop.cleanup();
    }
  }, 120_000);

  it('an empty store: all seven omitted, none padded', async () => {
    const t = tempStore();
    try {
      const pack = buildDeskPack(await readContentFacts(t.store, { now: NOW }));
      expect(pack.ready).toBe(0);
      expect(pack.omitted.map((o) => o.name)).toEqual(Object.values(TEMPLATE_NAMES));
      for (const o of pack.omitted) expect(o.reason.length).toBeGreaterThan(10);
    } finally {
      t.cleanup();
    }
  });
});
