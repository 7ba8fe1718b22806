/**
 * The ledger listing (issue 39): the filtered entries, newest first and at most `limit`, the count of
 * every entry the filters match, and each entry's CLV status with its close lead band. `propgrade
 * ledger` and GET /api/ledger/model both print this one composition, so the two cannot drift; each
 * caller only parses its input and renders (the route shapes each entry for the caller's tier).
 */
import { closeLeadBand } from '../domain/close-lead.js';
import { normalizeName } from '../domain/names.js';
import { clvStatus, type ClvStatus } from '../domain/settlement.js';
import type { Store } from '../store/db.js';
import { closeContexts, countLedger, listLedger, type LedgerEntry, type LedgerFilter } from '../store/repo/ledger.js';

export interface LedgerListingQuery {
  /** One ET game date; or a window `from`..`to` (inclusive), which the route takes from the record's. */
  date?: string;
  from?: string;
  to?: string;
  team?: string;
  /** A player's name, matched by its normalized key. */
  player?: string;
  sport?: string;
  /** Only unsettled entries. */
  pending?: boolean;
  /** A user's own scans; without it, the public record (entries of no user). */
  userId?: number;
}

export type ListedLedgerEntry = LedgerEntry & { closeLeadBand: ReturnType<typeof closeLeadBand>; clvStatus: ClvStatus };

export interface LedgerListing {
  entries: ListedLedgerEntry[];
  /** Every entry the filters match; `shown` of them are listed (at most `limit`). */
  total: number;
  shown: number;
  limit: number;
}

/** The query as the store filters it: a team upper-cased, a player as his key, the public record unless a user is named. */
export function ledgerFilter(q: LedgerListingQuery): LedgerFilter {
  return {
    ...(q.date ? { date: q.date } : {}),
    ...(q.from ? { from: q.from } : {}),
    ...(q.to ? { to: q.to } : {}),
    ...(q.team ? { team: q.team.trim().toUpperCase() } : {}),
    ...(q.sport ? { sport: q.sport } : {}),
    ...(q.player ? { playerKey: normalizeName(q.player).key } : {}),
    ...(q.pending ? { pending: true } : {}),
    ...(q.userId !== undefined ? { userId: q.userId } : { publicOnly: true }),
  };
}

/**
 * `now` gives each sport's data clock: pending or started is read on the entry's own sport's clock
 * (a replayed store's sports were recorded on different days).
 */
export async function readLedgerListing(store: Store, query: LedgerListingQuery, limit: number, now: (sport: string) => Date): Promise<LedgerListing> {
  const filter = ledgerFilter(query);
  const rows = await listLedger(store, filter, limit);
  // A short page is the whole match; only a full one needs the count.
  const [contexts, total] = await Promise.all([closeContexts(store, rows, now), rows.length < limit ? rows.length : countLedger(store, filter)]);
  const entries = rows.map((e) => ({ ...e, closeLeadBand: closeLeadBand(e.closeLeadMinutes), clvStatus: clvStatus(e, now(e.sport), contexts.get(e.id) ?? null) }));
  return { entries, total, shown: entries.length, limit };
}

/**
 * The listing over per-sport windows (the record's `windows`): each sport's entries in its own
 * window, merged in the store's listing order (newest game date, then player by bytes, then id) and
 * cut at `limit`; `total` sums the sports'. One window per sport, as the record counted them.
 */
export async function readLedgerListingIn(
  store: Store,
  query: Omit<LedgerListingQuery, 'date' | 'from' | 'to' | 'sport'>,
  windows: ReadonlyArray<{ sport: string; from: string; to: string }>,
  limit: number,
  now: (sport: string) => Date,
): Promise<LedgerListing> {
  const parts = await Promise.all(windows.map((w) => readLedgerListing(store, { ...query, sport: w.sport, from: w.from, to: w.to }, limit, now)));
  const order = (a: ListedLedgerEntry, b: ListedLedgerEntry) =>
    a.gameDate !== b.gameDate ? (a.gameDate < b.gameDate ? 1 : -1) : Buffer.compare(Buffer.from(a.player), Buffer.from(b.player)) || a.id - b.id;
  const entries = parts.flatMap((p) => p.entries).sort(order).slice(0, limit);
  return { entries, total: parts.reduce((s, p) => s + p.total, 0), shown: entries.length, limit };
}
