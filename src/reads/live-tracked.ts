import { entryAsOf } from '../domain/ledger.js';
import type { PropRef } from '../domain/prop-ref.js';
import type { GradedSport } from '../domain/sports.js';
import type { Store } from '../store/db.js';
import { publicEntriesOfDate } from '../store/repo/ledger.js';
import { slateSnapshotAsOf, type GradedRowRecord } from '../store/repo/snapshots.js';
import { rowsOfSnapshot } from './snapshot-rows.js';
import { compareRows, SLATE_CARD_SIZE } from './slate.js';

/**
 * What live tracking follows (docs/live.md): the day's public ledger entries and the slate card's
 * props the ledger does not hold. Reads the store only.
 */

export interface TrackedProp extends PropRef {
  source: 'ledger' | 'slate';
  commenceTime: string;
  player: string;
  team: string | null;
  opponent: string | null;
  grade: string | null;
  /** Ledger rows: the entry's outcome (pending until settlement decides it); slate rows: null. */
  outcome: string | null;
  /** Ledger rows: the settled actual value (null while pending or void); slate rows: null. */
  actualValue: number | null;
}

/**
 * What is tracked on an ET date, as of `now`: public ledger entries (locked at or before now, each
 * outcome as it stood then: settled later reads pending) and the card of the newest snapshot of
 * that slate taken at or before now (one row per player and stat, six per game) for props the
 * ledger does not hold. Users' own scans stay private.
 */
export async function trackedProps(store: Store, sport: GradedSport, date: string, now: Date): Promise<TrackedProp[]> {
  const at = now.toISOString();
  const ledger = (await publicEntriesOfDate(store, sport, date, at)).map((e) => entryAsOf(e, now));
  const out: TrackedProp[] = ledger.map((e) => ({
    source: 'ledger',
    eventId: e.eventId,
    commenceTime: e.commenceTime,
    player: e.player,
    playerKey: e.playerKey,
    team: e.team,
    opponent: e.opponent,
    statType: e.statType,
    line: e.line,
    side: e.side,
    grade: e.grade,
    outcome: e.outcome,
    actualValue: e.actualValue,
  }));
  const covered = new Set(out.map((p) => `${p.eventId}|${p.playerKey}|${p.statType}`));
  const snap = await slateSnapshotAsOf(store, sport, date, at);
  if (!snap) return out;
  const byGame = new Map<string, GradedRowRecord[]>();
  for (const r of await rowsOfSnapshot(store, snap.id)) {
    const list = byGame.get(r.eventId) ?? [];
    list.push(r);
    byGame.set(r.eventId, list);
  }
  for (const rows of byGame.values()) {
    rows.sort(compareRows);
    const seen = new Set<string>();
    for (const r of rows) {
      const k = `${r.playerKey}|${r.statType}`;
      if (seen.has(k)) continue;
      seen.add(k);
      if (!covered.has(`${r.eventId}|${k}`) && (r.side === 'over' || r.side === 'under')) {
        out.push({
          source: 'slate',
          eventId: r.eventId,
          commenceTime: r.commenceTime,
          player: r.player,
          playerKey: r.playerKey,
          team: r.team,
          opponent: r.opponent,
          statType: r.statType,
          line: r.line,
          side: r.side,
          grade: r.grade,
          outcome: null,
          actualValue: null,
        });
      }
      if (seen.size === SLATE_CARD_SIZE) break;
    }
  }
  return out;
}
