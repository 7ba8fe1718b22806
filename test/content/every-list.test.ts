import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeskPack, type DeskPack, type ReadyTemplate } from '../../src/content/pack.js';
import { buildDailyReport } from '../../src/content/report.js';
import { archetypeWatch, lineDispatch } from '../../src/content/templates/slate.js';
import type { TemplateResult } from '../../src/content/template.js';
import type { ContentFacts } from '../../src/domain/facts.js';
import { readContentFacts } from '../../src/store/repo/content-facts.js';
import { LOOP_DATE, loopStore, NOON, type LoopStore } from './_loop.js';

/**
 * A list that says "every" lists every item, and a list cut for length names the rest (issue 41
 * item 2): THE SETTLE's "Every A+ read of the day, win or lose" printed 6 of the README loop day's
 * 7, in the desk pack, its thread, the wire and the newsletter; the one left out was a hit.
 */
const NOW = new Date(NOON);

interface Row {
  id: number;
  player: string;
  outcome: string;
}

describe('lists on the README loop day (2025-11-05, settled)', () => {
  let loop: LoopStore;
  let facts: ContentFacts;
  let pack: DeskPack;
  let aPlus: Row[];
  beforeAll(async () => {
    loop = await loopStore('settled');
    facts = await readContentFacts(loop.store, { now: NOW });
    pack = buildDeskPack(facts);
    aPlus = loop.store.sqlite
      .prepare("select id, player, outcome from ledger_entries where user_id is null and grade = 'A+' and game_date = ? and outcome != 'pending' order by id")
      .all(LOOP_DATE) as Row[];
  }, 120_000);
  afterAll(() => loop?.cleanup());

  const settle = () => pack.templates.find((t): t is ReadyTemplate => t.id === 'the_settle' && t.status === 'ready')!;

  it('THE SETTLE lists every settled A+ read of the day, each from its own ledger row', () => {
    expect(aPlus).toHaveLength(7);
    // The old list took the first six of the facts' order; the seventh, the one it dropped, is a hit.
    const inFactsOrder = facts.settle.filter((e) => e.grade === 'A+' && (e.outcome === 'hit' || e.outcome === 'miss'));
    expect(inFactsOrder[6]?.outcome).toBe('hit');
    const t = settle();
    expect(t.long).toContain('Every A+ read of the day, win or lose, all 7:');
    const priced = t.brief.filter((f) => /^a_plus_\d+\.line$/.test(f.key));
    expect(priced.map((f) => f.source.ids[0]).sort((a, b) => a! - b!)).toEqual(aPlus.map((r) => r.id));
    expect(t.brief.find((f) => f.key === 'a_plus.n')?.value).toBe(7);
  });

  it('the thread, the wire and the newsletter carry all seven too', () => {
    const t = settle();
    const items = t.long.split('\n').filter((l) => aPlus.some((r) => l.includes(r.player)) && /, (hit|miss|push|void)\.$/.test(l));
    expect(items).toHaveLength(7);
    const thread = t.thread.map((p) => p.text).join('\n');
    const report = buildDailyReport(facts).text;
    for (const item of items) {
      const text = item.replace(/^\W+/, '');
      expect(t.wire, text).toContain(text);
      expect(thread, text).toContain(text);
      expect(report, text).toContain(text);
    }
  });
});

describe('a list cut for length names every item it does not write out (real loop facts, a small cut)', () => {
  let loop: LoopStore;
  let facts: ContentFacts;
  beforeAll(async () => {
    loop = await loopStore('settled');
    facts = await readContentFacts(loop.store, { now: NOW });
  }, 120_000);
  afterAll(() => loop?.cleanup());

  const draft = (r: TemplateResult) => {
    if (!('draft' in r)) throw new Error(`omitted: ${r.omit}`);
    return r.draft;
  };

  it('LINE DISPATCH: the largest moves in full, then "the other N" naming each; the wire lists every move', () => {
    const all = draft(lineDispatch(facts));
    expect(all.wire).toHaveLength(4);
    const cut = draft(lineDispatch(facts, 2));
    const long = cut.body.map((b) => ('text' in b ? b.text : b.items.join('\n'))).join('\n');
    expect(long).toContain('4 main lines moved between');
    expect(long).toContain('the 2 largest in full, then the other 2');
    expect(long).toMatch(/The other 2, smaller: .+ to .+ and .+ to .+\./);
    for (const name of ['Duncan Robinson', 'Keyonte George', 'Darius Garland', 'Josh Hart']) {
      expect(long, name).toContain(name);
      expect(cut.thread.join('\n'), name).toContain(name);
      expect(cut.wire.join('\n'), name).toContain(name);
    }
  });

  it('ARCHETYPE WATCH: every player type with a read is named, the rest with their counts', () => {
    const all = draft(archetypeWatch(facts));
    const types = all.numbers.length;
    expect(types).toBeGreaterThan(1);
    const cut = draft(archetypeWatch(facts, 1));
    const long = cut.body.map((b) => ('text' in b ? b.text : b.items.join('\n'))).join('\n');
    expect(long).toContain(`(the 1 with the most in full, then the other ${types - 1})`);
    expect(cut.numbers).toEqual(all.numbers);
    for (const line of all.numbers) {
      const label = line.split(':')[0]!;
      expect(long, label).toContain(label);
    }
  });
});
