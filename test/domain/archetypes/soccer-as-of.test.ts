/**
 * The six soccer archetypes on real EPL player match stats (issue 42 part C): the profile is read
 * from the matches before the date only, a later match changes nothing, and its figures equal the
 * raw CSV lines counted here.
 */
import { describe, expect, it } from 'vitest';
import { archetypeBefore } from '../../../src/domain/archetypes/as-of.js';
import { profileFromGameStats } from '../../../src/domain/archetypes/profiles.js';
import { dateOf, field, historyOf, linesOf } from '../model/soccer-fixture.js';

/** The store hands a player's lines newest first. */
const newestFirst = (name: string) => historyOf(name).reverse();
const played = (name: string, season: string) => linesOf(name).filter((l) => field(l, 'season') === season && Number(field(l, 'minutes_played')) > 0);
const sum = (ls: readonly string[], name: string) => ls.reduce((s, l) => s + Number(field(l, name)), 0);

describe('soccer archetypes as of a match, on EPL player match stats', () => {
  it('the profile before 2025-08-01 is his 2024-25 appearances, per game as in the raw lines', () => {
    const season = played('Mohamed Salah', '2024-25');
    const before = historyOf('Mohamed Salah').filter((r) => r.date < '2025-08-01');
    const p = profileFromGameStats('soccer', before);
    expect(p).toEqual({
      games: season.length,
      minutes: sum(season, 'minutes_played') / season.length,
      shots: sum(season, 'total_shots') / season.length,
      shots_on_target: sum(season, 'shots_on_target') / season.length,
      goals: sum(season, 'goals') / season.length,
      tackles: sum(season, 'tackles') / season.length,
    });
    // 29 goals from 130 shots in 38 matches (the raw file).
    expect([season.length, sum(season, 'goals'), sum(season, 'total_shots')]).toEqual([38, 29, 130]);
    expect(archetypeBefore('soccer', newestFirst('Mohamed Salah'), '2025-08-01').classification?.blend.map((b) => b.id).slice(0, 2)).toEqual(['POACHER', 'VOLUME_SHOOTER']);
  });

  it('a later match in the lines changes nothing', () => {
    const lines = newestFirst('Mohamed Salah');
    for (const l of linesOf('Mohamed Salah').filter((x) => field(x, 'season') === '2025-26')) {
      const date = dateOf(l);
      expect(archetypeBefore('soccer', lines, date), date).toEqual(archetypeBefore('soccer', lines.filter((r) => r.date < date), date));
    }
    // A match's own line does not count for that match.
    const first = linesOf('Mohamed Salah').find((x) => field(x, 'season') === '2025-26') as string;
    const onDate = archetypeBefore('soccer', lines, dateOf(first));
    expect(onDate).toEqual(archetypeBefore('soccer', lines.filter((r) => r.date < '2025-08-01'), dateOf(first)));
  });

  it('a substitute is an Impact Sub; a 0-minute row is not an appearance', () => {
    const season = played('Enes Ünal', '2024-25');
    const p = profileFromGameStats('soccer', historyOf('Enes Ünal').filter((r) => r.date < '2025-08-01'));
    expect(p?.games).toBe(season.length);
    expect(p?.minutes).toBeLessThan(45);
    expect(archetypeBefore('soccer', newestFirst('Enes Ünal'), '2025-08-01').classification?.primary).toBe('IMPACT_SUB');
    const salah = newestFirst('Mohamed Salah');
    const unused = salah.find((r) => r.minutes === 0);
    expect(unused).toBeDefined();
    expect(profileFromGameStats('soccer', salah)?.games).toBe(salah.length - 1);
  });

  it('without tackles (an ESPN roster line) HOLDER cannot fire, the other rules still read', () => {
    const noTackles = historyOf('Mohamed Salah').map((r) => ({ ...r, stats: { ...r.stats, tackles: null } }));
    const p = profileFromGameStats('soccer', noTackles.filter((r) => r.date < '2025-08-01'));
    expect(p?.tackles).toBeNull();
    expect(archetypeBefore('soccer', noTackles.reverse(), '2025-08-01').classification?.primary).toBe('POACHER');
  });
});
