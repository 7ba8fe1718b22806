import { classifyPlayer } from '../domain/archetypes/index.js';
import type { GameEvent, PlayerGameStat } from '../domain/entities.js';
import { lineMovement, NO_MOVEMENT } from '../domain/line-movement.js';
import { FITTED_PARAMS, gradeProp, marketDispersionFor } from '../domain/model/index.js';
import { assembleSlate, currentTeam, groupQuotes, joinInvariant, marketPricingOf, opponentOf, type PricedRow } from '../domain/slate.js';
import type { GradedSport } from '../domain/sports.js';
import { STATS, type StatType } from '../domain/stats.js';
import { edgeNow, evNowPct, projectionAgrees } from '../domain/claim.js';
import type { FairSource } from '../domain/model/market.js';
import { easternDate } from '../domain/time.js';
import type { Store } from '../store/db.js';
import { historyForPlayers, latestTeams } from '../store/repo/game-stats.js';
import { acquireRunLock, holderText, processOwner } from '../store/repo/run-lock.js';
import { finishRun, startRun } from '../store/repo/runs.js';
import { transaction, transactionFailure } from '../store/repo/tx.js';
import {
  insertLocks,
  insertSnapshot,
  lockKey,
  lockedGrades,
  mainLineRows,
  snapshotBefore,
  type LockedGrade,
  type NewGradeLock,
  type SlateRow,
} from '../store/repo/snapshots.js';
import { insertTickerEvents, type NewTickerEvent } from '../store/repo/ticker.js';
import { recordPreGrades, captureClosings } from './ledger-writes.js';
import { fetchSlate } from './snapshot-fetch.js';
import { displayState } from '../domain/display-state.js';
import { deepFreeze } from '../domain/freeze.js';
import type { OddsSource, RunLogger, StatusSource } from '../feeds/sources.js';

export interface SnapshotOptions {
  store: Store;
  odds: OddsSource;
  /** Injury and lineup feeds for display chips; omitted = no chips. */
  status?: StatusSource;
  /** The run's clock (injected: --now, PROPGRADE_NOW or the system clock). */
  now: Date;
  allowedBooks: readonly string[] | null;
  log: RunLogger;
  /** Identifies this process for the run lock. */
  owner?: string;
  /** Wall clock for the lock lease (not the run's clock, which may be a replayed past). */
  wallClock?: () => Date;
  concurrency?: number;
  /** Where the odds came from: a recorded replay folder or the live providers. */
  source?: 'live' | 'replay';
  /** Replay: when the recording read at `now` for an event's odds was made (close-due.ts recordedOddsClock), its close's stamp; absent or null (live; an untimed recording): `now`. */
  oddsRecordedAt?: (eventId: string, now: Date) => string | null;
}

export interface SnapshotSummary {
  sport: GradedSport;
  runId: number;
  /** not_recorded: a replay folder holds nothing for the sport, so no run was made (not a failure). */
  status: 'ok' | 'empty' | 'failed' | 'locked' | 'not_recorded';
  slateDate: string;
  snapshotId: number | null;
  events: number;
  rows: number;
  graded: number;
  refused: number;
  dropped: number;
  newLocks: number;
  moves: number;
  ledgerInserted: number;
  closingsCaptured: number;
  message: string | null;
}

/**
 * The snapshot run for one sport, in the spec's order: fetch odds; grade; classify archetypes;
 * lock gradedAt; line deltas vs the previous snapshot; write snapshot + grades cache; ticker
 * events; ledger pre-grades; closing capture. All writes share one transaction, so a crash
 * leaves the last good snapshot intact; a failed or empty fetch never replaces it.
 */
export async function runSnapshot(sport: GradedSport, opts: SnapshotOptions): Promise<SnapshotSummary> {
  const { store, now, log } = opts;
  const slateDate = easternDate(now);
  const base = { sport, slateDate, snapshotId: null, events: 0, rows: 0, graded: 0, refused: 0, dropped: 0, newLocks: 0, moves: 0, ledgerInserted: 0, closingsCaptured: 0 };
  const owner = opts.owner ?? processOwner();
  const lock = await acquireRunLock(store, `snapshot:${sport}`, owner, opts.wallClock ?? (() => new Date()));
  if ('heldBy' in lock) {
    const message = `a ${sport} snapshot run holds the lock (${holderText(lock)})`;
    // Said on stderr too: cron mails what a run prints there.
    log.warn(message, { sport });
    return { ...base, runId: 0, status: 'locked', message };
  }
  const runId = await startRun(store, 'snapshot', sport, now.toISOString());
  try {
    const fetched = await fetchSlate(sport, opts, slateDate);
    if (fetched.kind === 'failed') {
      await finishRun(store, runId, { status: 'failed', finishedAt: now.toISOString(), slateDate, message: fetched.message, ...credits(opts) });
      log.warn(`${sport}: ${fetched.message}; keeping the last snapshot`, { sport, runId });
      return { ...base, runId, status: 'failed', message: fetched.message };
    }
    const { events, quotes } = fetched;
    if (quotes.length === 0) {
      const message = events.length === 0 ? `no ${sport} events on ${slateDate}` : `no prop prices for ${events.length} ${sport} events on ${slateDate}`;
      await finishRun(store, runId, { status: 'empty', finishedAt: now.toISOString(), slateDate, eventsCount: events.length, message, ...credits(opts) });
      log.info(`${sport}: ${message}; keeping the last snapshot`, { sport, runId });
      return { ...base, runId, status: 'empty', events: events.length, message };
    }

    const books = groupQuotes(quotes, { allowedBooks: opts.allowedBooks });
    const dispersionFor = (stat: StatType) => marketDispersionFor(FITTED_PARAMS, sport, stat);
    // Read before grading: the lineups name the team a traded player now plays for.
    const [injuries, lineups] = opts.status ? await Promise.all([opts.status.injuries(sport), opts.status.lineups(sport, slateDate)]) : [null, null];
    const graded = await gradeSlate(sport, events, assembleSlate(books, dispersionFor, sport), opts, slateDate, lineups?.teams ?? null);
    // The previous snapshot is the newest one taken before this run's clock (a replay may run out of order).
    const previous = await snapshotBefore(store, sport, now.toISOString());
    const previousMainLines = previous ? mainLinesOf(await mainLineRows(store, previous.id)) : new Map<string, number>();
    // Chips are display state: they never touch the locked grade or the ledger.
    // Movement and chips fill fields every row already has (same keys, same order): set in place.
    const rows = graded.rows;
    for (const r of rows) Object.assign(r, movementOf(r, previousMainLines), displayState(r.playerKey, r.team ?? null, r.statType, injuries, lineups));
    const moves = moveEvents(sport, rows, events, runId, now);

    const result = await transaction(store, async (tx) => {
      // Two independent chains (the slate's tables; the ledger's), each in its own order: on
      // PostgreSQL one's statements are built while the server runs the other's. Both end before
      // the transaction does, whatever fails.
      const [slate, ledger] = await Promise.allSettled([
        (async () => {
          const snapshotId = await insertSnapshot(tx, { sport, runId, takenAt: now.toISOString(), source: opts.source ?? 'live', slateDate, gradedCount: rows.filter((r) => r.grade !== null).length, rowCount: rows.length }, rows);
          await insertLocks(tx, graded.newLocks.map((l) => ({ ...l, snapshotId })));
          await insertTickerEvents(tx, moves);
          return snapshotId;
        })(),
        (async () => {
          const ledgerInserted = await recordPreGrades(tx, sport, rows, events, now);
          return { ledgerInserted, closingsCaptured: await captureClosings(tx, sport, rows, books, now, dispersionFor, (eventId) => opts.oddsRecordedAt?.(eventId, now) ?? now.toISOString()) };
        })(),
      ]);
      const failures = [slate, ledger].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      if (slate.status === 'rejected' || ledger.status === 'rejected') throw transactionFailure(tx, failures);
      return { snapshotId: slate.value, ...ledger.value };
    }, { exclusive: false });

    const gradedCount = rows.filter((r) => r.grade !== null).length;
    const summary: SnapshotSummary = {
      ...base,
      runId,
      status: 'ok',
      snapshotId: result.snapshotId,
      events: events.length,
      rows: rows.length,
      graded: gradedCount,
      refused: rows.length - gradedCount,
      dropped: graded.dropped,
      newLocks: graded.newLocks.length,
      moves: moves.length,
      ledgerInserted: result.ledgerInserted,
      closingsCaptured: result.closingsCaptured,
      message: null,
    };
    await finishRun(store, runId, {
      status: 'ok',
      finishedAt: now.toISOString(),
      slateDate,
      eventsCount: events.length,
      gradedCount,
      refusedCount: summary.refused,
      droppedCount: graded.dropped,
      details: { rows: rows.length, newLocks: summary.newLocks, moves: moves.length, ledgerInserted: result.ledgerInserted, closingsCaptured: result.closingsCaptured, dropReasons: graded.dropReasons },
      ...credits(opts),
    });
    return summary;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await finishRun(store, runId, { status: 'failed', finishedAt: now.toISOString(), slateDate, message });
    throw error;
  } finally {
    await lock.release();
  }
}

function credits(opts: SnapshotOptions): { creditsUsed?: number | null; creditsRemaining?: number | null } {
  const c = opts.odds.credits();
  return c ? { creditsUsed: c.spent, creditsRemaining: c.remaining } : {};
}

export type { SlateRow } from '../store/repo/snapshots.js';

interface GradedSlate {
  rows: SlateRow[];
  newLocks: Array<Omit<NewGradeLock, 'snapshotId'>>;
  dropped: number;
  dropReasons: Record<string, number>;
}

async function gradeSlate(sport: GradedSport, events: GameEvent[], priced: PricedRow[], opts: SnapshotOptions, slateDate: string, gameTeams: ReadonlyMap<string, string> | null): Promise<GradedSlate> {
  const { store, now } = opts;
  const byId = new Map(events.map((e) => [e.id, e]));
  const locks = await lockedGrades(store, events.map((e) => e.id));
  const archetypes = new Map<string, string | null>();
  const rows: SlateRow[] = [];
  const newLocks: GradedSlate['newLocks'] = [];
  const dropReasons: Record<string, number> = {};
  let dropped = 0;

  // The slate's reads of the store are two, whatever its size (on PostgreSQL each read is a round
  // trip): every player's latest team, then the history of the players that need one. History is
  // read only where it is used: a fresh grade needs it and an archetype, a locked row only an
  // archetype its lock lacks (a warm run reads next to no history); a row dropped for its team, none.
  const inSlate = priced.filter((p) => byId.has(p.eventId));
  const teams = await latestTeams(store, sport, [...new Set(inSlate.map((p) => p.playerKey))], slateDate);
  const teamOf = (p: PricedRow, event: GameEvent) => currentTeam(gameTeams?.get(p.playerKey) ?? null, teams.get(p.playerKey) ?? null, event);
  const needHistory = new Set<string>();
  for (const p of inSlate) {
    if (needHistory.has(p.playerKey)) continue;
    const event = byId.get(p.eventId) as GameEvent;
    if (joinInvariant(teamOf(p, event), event) === 'mismatch') continue;
    if ((locks.get(lockKey(p.eventId, p.playerKey, p.stat, p.line, p.side))?.archetype ?? null) === null) needHistory.add(p.playerKey);
  }
  const history = await historyForPlayers(store, sport, [...needHistory], slateDate);
  const gamesOf = (playerKey: string): PlayerGameStat[] => history.get(playerKey) ?? [];
  const archetypeOf = (playerKey: string): string | null => {
    let archetype = archetypes.get(playerKey);
    if (archetype === undefined) archetypes.set(playerKey, (archetype = classifyPlayer(sport, gamesOf(playerKey))?.primary ?? null));
    return archetype;
  };

  for (const p of inSlate) {
    const event = byId.get(p.eventId) as GameEvent;
    const team = teamOf(p, event);
    if (joinInvariant(team, event) === 'mismatch') {
      dropped += 1;
      dropReasons['team not in game'] = (dropReasons['team not in game'] ?? 0) + 1;
      continue;
    }

    const k = lockKey(p.eventId, p.playerKey, p.stat, p.line, p.side);
    let lock: Omit<LockedGrade, 'modelDetail'> & { modelDetail: LockedGrade['modelDetail'] | Record<string, unknown> | null } | undefined = locks.get(k);
    let evPct: number | null = null;
    let value: number | null = null;
    let takeable: boolean | null = null;
    let refusalReason: string | null = null;
    if (!lock) {
      const out = gradeProp({
        sport,
        stat: p.stat,
        line: p.line,
        side: p.side,
        market: marketPricingOf(p),
        history: gamesOf(p.playerKey),
        gameDate: slateDate,
      });
      const archetype = archetypeOf(p.playerKey);
      // Frozen: the lock and the row write the same detail, so its JSON text is made once.
      const fresh: Omit<NewGradeLock, 'snapshotId'> = out.insufficientData
        ? { sport, eventId: p.eventId, playerKey: p.playerKey, statType: p.stat, line: p.line, side: p.side, grade: null, projection: out.projection, pWin: null, modelOdds: null, archetype, gradedAt: now.toISOString(), modelDetail: deepFreeze({ refusal: out.reason }) }
        : {
            sport, eventId: p.eventId, playerKey: p.playerKey, statType: p.stat, line: p.line, side: p.side, grade: out.grade, gradeUncapped: out.gradeUncapped, capReason: out.capReason, projection: out.projection, pWin: out.pWin, modelOdds: out.modelOdds, archetype, gradedAt: now.toISOString(),
            modelDetail: deepFreeze({ ...out.detail, evPct: out.evPct, value: out.value, takeable: out.takeable }),
            // The claim's price: the grade, p_win and ev_pct hold at this book and price only.
            lockedBook: p.book, lockedOdds: p.bookOdds, lockedFairProb: p.fairProb,
          };
      // A refusal is not locked: the player may have history by the next run.
      if (!out.insufficientData) newLocks.push(fresh);
      const d: Record<string, unknown> = fresh.modelDetail ?? {};
      lock = {
        grade: fresh.grade ?? null,
        gradeUncapped: fresh.gradeUncapped ?? null,
        capReason: fresh.capReason ?? null,
        projection: fresh.projection ?? null,
        pWin: fresh.pWin ?? null,
        modelOdds: fresh.modelOdds ?? null,
        gradedAt: fresh.gradedAt,
        modelDetail: fresh.modelDetail ?? null,
        archetype: fresh.archetype ?? null,
        lockedBook: fresh.lockedBook ?? null,
        lockedOdds: fresh.lockedOdds ?? null,
        lockedFairProb: fresh.lockedFairProb ?? null,
        detail: { evPct: d['evPct'], value: d['value'], takeable: d['takeable'], refusal: d['refusal'], nudgeWeight: d['nudgeWeight'], pModel: d['pModel'], fairSource: d['fairSource'] },
      };
      if (out.insufficientData) refusalReason = out.reason;
    }
    const detail = lock.detail;
    const evNow = evNowPct(lock.grade, p.fairProb, p.bookOdds, { nudgeWeight: numberOrNull(detail.nudgeWeight), pModel: numberOrNull(detail.pModel) });
    if (lock.grade !== null) {
      evPct = numberOrNull(detail.evPct);
      value = numberOrNull(detail.value);
      takeable = typeof detail.takeable === 'boolean' ? detail.takeable : null;
    } else {
      refusalReason = refusalReason ?? (typeof detail.refusal === 'string' ? detail.refusal : 'no projection');
    }
    rows.push({
      sport,
      eventId: p.eventId,
      commenceTime: event.commenceTime,
      homeTeam: event.homeTeam,
      awayTeam: event.awayTeam,
      player: p.player,
      playerKey: p.playerKey,
      team,
      opponent: opponentOf(team, event),
      statType: p.stat,
      line: p.line,
      side: p.side,
      grade: lock.grade,
      gradeUncapped: lock.grade === null ? null : lock.gradeUncapped,
      capReason: lock.grade === null ? null : lock.capReason,
      insufficientData: lock.grade === null,
      refusalReason: lock.grade === null ? refusalReason : null,
      projection: lock.projection,
      book: p.book,
      overOdds: p.overOdds,
      underOdds: p.underOdds,
      bookOdds: p.bookOdds,
      fairOdds: p.fairOdds,
      fairProb: p.fairProb,
      overround: p.overround,
      devigMethod: p.devigMethod,
      fairSource: p.fairSource,
      consensusBooks: p.consensusBooks,
      thinConsensus: p.thinConsensus,
      outlierPrice: p.outlierPrice,
      outlierBook: p.outlier?.book ?? null,
      outlierOdds: p.outlier?.price ?? null,
      modelOdds: lock.grade === null ? null : lock.modelOdds,
      pWin: lock.grade === null ? null : lock.pWin,
      evPct,
      value,
      takeable,
      archetype: lock.archetype ?? archetypeOf(p.playerKey),
      gradedAt: lock.gradedAt,
      previousLine: null,
      lineDelta: null,
      lineDirection: null,
      lineupStatus: null,
      battingSlot: null,
      injuryStatus: null,
      // A locked grade's detail is its stored JSON text, written into the row as is (JsonText).
      modelDetail: lock.modelDetail as Record<string, unknown> | null,
      lockedBook: lock.grade === null ? null : lock.lockedBook,
      lockedOdds: lock.grade === null ? null : lock.lockedOdds,
      lockedFairProb: lock.grade === null ? null : lock.lockedFairProb,
      evNowPct: evNow,
      edgeNow: edgeNow(lock.grade, evNow),
      projectionAgrees: lock.grade === null ? null : projectionAgrees(lock.projection, p.line, p.side),
      isMainLine: p.isMainLine,
      lockedFairSource: lock.grade === null ? null : fairSourceOrNull(detail.fairSource),
    });
  }
  return { rows, newLocks, dropped, dropReasons };
}

function fairSourceOrNull(v: unknown): FairSource | null {
  return v === 'consensus' || v === 'market_implied' || v === 'book' ? v : null;
}

function numberOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

const propKey = (eventId: string, playerKey: string, stat: string) => `${eventId}|${playerKey}|${stat}`;

/** Main line per prop in a stored snapshot (its main-line rows). */
function mainLinesOf(rows: ReadonlyArray<{ eventId: string; playerKey: string; statType: string; line: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) out.set(propKey(r.eventId, r.playerKey, r.statType), r.line);
  return out;
}

function movementOf(row: SlateRow, previousMainLines: Map<string, number>) {
  // Movement is measured on the main line; ladder rungs carry none.
  if (!row.isMainLine) return NO_MOVEMENT;
  const prev = previousMainLines.get(propKey(row.eventId, row.playerKey, row.statType)) ?? null;
  return lineMovement(row.line, prev, row.projection ?? null);
}

/** One MOVE per prop whose main line moved since the previous snapshot (from its over row). */
function moveEvents(sport: GradedSport, rows: SlateRow[], events: GameEvent[], runId: number, now: Date): NewTickerEvent[] {
  const byId = new Map(events.map((e) => [e.id, e]));
  const out: NewTickerEvent[] = [];
  for (const r of rows) {
    if (r.side !== 'over' || !r.isMainLine || r.lineDelta === null || r.lineDelta === undefined || r.lineDelta === 0 || r.previousLine === null || r.previousLine === undefined) continue;
    const event = byId.get(r.eventId);
    // Named as the slate names them: the stat's label and the game's full team names.
    const game = event ? `${event.awayTeam} @ ${event.homeTeam}` : r.eventId;
    const label = STATS[r.statType as keyof typeof STATS]?.label ?? r.statType;
    out.push({
      kind: 'MOVE',
      sport,
      createdAt: now.toISOString(),
      text: `${r.player} ${label} ${r.previousLine} → ${r.line} (${game})`,
      runId,
      expiresAt: r.commenceTime,
      payload: { eventId: r.eventId, playerKey: r.playerKey, stat: r.statType, from: r.previousLine, to: r.line, delta: r.lineDelta, direction: r.lineDirection ?? null },
    });
  }
  return out;
}
