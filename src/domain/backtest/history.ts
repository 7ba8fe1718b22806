import type { PlayerGameStat } from '../entities.js';
import type { StatType } from '../stats.js';

/** The history and outcome store for the run: per-player rows sorted by date. */
export class HistoryIndex {
  private readonly byPlayer = new Map<string, PlayerGameStat[]>();
  private readonly threesByKey = new Map<string, PlayerGameStat>();
  private readonly logsByKey = new Map<string, PlayerGameStat>();

  constructor(gamelogs: readonly PlayerGameStat[], threesResults: readonly PlayerGameStat[] = []) {
    for (const r of gamelogs) this.logsByKey.set(`${r.playerKey}|${r.date}`, r);
    for (const r of threesResults) this.threesByKey.set(`${r.playerKey}|${r.date}`, r);
    const merged = [...gamelogs, ...threesResults.filter((r) => !this.logsByKey.has(`${r.playerKey}|${r.date}`))];
    for (const r of merged) {
      let list = this.byPlayer.get(r.playerKey);
      if (!list) this.byPlayer.set(r.playerKey, (list = []));
      list.push(r);
    }
    for (const list of this.byPlayer.values()) list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  /** Games strictly before `date` (binary search; the array is shared, never mutated). */
  before(playerKey: string, date: string): PlayerGameStat[] {
    const list = this.byPlayer.get(playerKey);
    if (!list) return [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid] as PlayerGameStat).date < date) lo = mid + 1;
      else hi = mid;
    }
    return list.slice(0, lo);
  }

  /**
   * The settled value, or null for void (no row, 0 minutes, no stat). 2024-25 threes settle on the
   * league-wide threes file first (NOTES.md join recipe step 3), everything else on the game logs.
   */
  outcome(playerKey: string, date: string, stat: StatType): number | null {
    const key = `${playerKey}|${date}`;
    const row = (stat === 'threes' ? this.threesByKey.get(key) : undefined) ?? this.logsByKey.get(key);
    if (!row || row.minutes === null || row.minutes <= 0) return null;
    const v = row.stats[stat];
    return typeof v === 'number' ? v : null;
  }
}
