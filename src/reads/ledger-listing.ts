/**
 * The ledger listing (issue 39): the filtered entries, newest first and at most `limit`, the count of
 * every entry the filters match, and each entry's CLV status with its close lead band. `propgrade
 * ledger` and GET /api/ledger/model both print this one composition, so the two cannot drift; each
 * caller only parses its input and renders (the route shapes each entry for the caller's tier).
 */
import { closeLeadBand, type CloseLeadBand } from '../domain/close-lead.js';
import { closeAsOf, entryAsOf } from '../domain/ledger.js';
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

/**
 * Pinnacle's own no-vig close at the locked line and the CLV against it (issue 43): each field
 * present only where the store holds it, so an entry Pinnacle never priced carries none of them
 * (absent, never null read as zero).
 */
export interface PinnacleClose {
  pinnacleClosingFairProb?: number;
  pinnacleCloseLeadMinutes?: number;
  pinnacleCloseLeadBand?: CloseLeadBand;
  pinnacleClv?: number;
  pinnacleClvPct?: number;
  pinnacleClvVerdict?: 'beat' | 'faded' | 'flat';
}
type PinnacleColumn = 'pinnacleClosingFairProb' | 'pinnacleCloseLeadMinutes' | 'pinnacleClv' | 'pinnacleClvPct' | 'pinnacleClvVerdict';

export type ListedLedgerEntry = Omit<LedgerEntry, 'closeBooks' | PinnacleColumn | 'enteredAt'> &
  PinnacleClose & {
    /** The book keys whose prices formed the close, sorted; null without a close. */
    closeBooks: string[] | null;
    closeLeadBand: ReturnType<typeof closeLeadBand>;
    clvStatus: ClvStatus;
  };

/** An entry's close as it is listed: its books as a list, and the Pinnacle fields the store holds. */
export function listedClose(e: LedgerEntry): Pick<ListedLedgerEntry, 'closeBooks'> & PinnacleClose {
  const band = closeLeadBand(e.pinnacleCloseLeadMinutes);
  return {
    closeBooks: e.closeBooks === null || e.closeBooks === '' ? null : e.closeBooks.split(','),
    ...(e.pinnacleClosingFairProb !== null ? { pinnacleClosingFairProb: e.pinnacleClosingFairProb } : {}),
    ...(e.pinnacleCloseLeadMinutes !== null ? { pinnacleCloseLeadMinutes: e.pinnacleCloseLeadMinutes } : {}),
    ...(band !== null ? { pinnacleCloseLeadBand: band } : {}),
    ...(e.pinnacleClv !== null ? { pinnacleClv: e.pinnacleClv } : {}),
    ...(e.pinnacleClvPct !== null ? { pinnacleClvPct: e.pinnacleClvPct } : {}),
    ...(e.pinnacleClvVerdict !== null ? { pinnacleClvVerdict: e.pinnacleClvVerdict } : {}),
  };
}

const PINNACLE_FIELDS = ['pinnacleClosingFairProb', 'pinnacleCloseLeadMinutes', 'pinnacleCloseLeadBand', 'pinnacleClv', 'pinnacleClvPct', 'pinnacleClvVerdict'] as const satisfies ReadonlyArray<keyof PinnacleClose>;

/** The Pinnacle fields an entry holds, and no key for one it does not. */
export function pinnacleFields(e: PinnacleClose): PinnacleClose {
  const out: Record<string, unknown> = {};
  for (const k of PINNACLE_FIELDS) if (e[k] !== undefined) out[k] = e[k];
  return out as PinnacleClose;
}

/**
 * The entry without its stored close columns, which listedClose re-states, and without entered_at:
 * the as-of filter reads it (issue 41 item 5); the listing does not print it.
 */
function withoutCloseColumns(e: LedgerEntry): Omit<LedgerEntry, 'closeBooks' | PinnacleColumn | 'enteredAt'> {
  const { closeBooks: _b, pinnacleClosingFairProb: _f, pinnacleCloseLeadMinutes: _l, pinnacleClv: _c, pinnacleClvPct: _p, pinnacleClvVerdict: _v, enteredAt: _e, ...rest } = e;
  return rest;
}

export interface LedgerListing {
  entries: ListedLedgerEntry[];
  /** Every entry the filters match; `shown` of them are listed (at most `limit`). */
  total: number;
  shown: number;
  limit: number;
}

/** The query as the store filters it: a team upper-cased, a player as his key, the public record unless a user is named; as of `asOf` when given. */
export function ledgerFilter(q: LedgerListingQuery, asOf: Date | null = null): LedgerFilter {
  return {
    ...(asOf !== null ? { asOf: asOf.toISOString() } : {}),
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
 * (a replayed store's sports were recorded on different days). `asOf` as in readModelRecord: only
 * the entries locked and entered by then, each as it stood then; null reads every outcome the store holds.
 */
export async function readLedgerListing(store: Store, query: LedgerListingQuery, limit: number, now: (sport: string) => Date, asOf: Date | null = null): Promise<LedgerListing> {
  const filter = ledgerFilter(query, asOf);
  const rows = (await listLedger(store, filter, limit)).map((e) => closeAsOf(entryAsOf(e, asOf), asOf));
  // A short page is the whole match; only a full one needs the count.
  const [contexts, total] = await Promise.all([closeContexts(store, rows, now), rows.length < limit ? rows.length : countLedger(store, filter)]);
  const entries = rows.map((e) => ({ ...withoutCloseColumns(e), ...listedClose(e), closeLeadBand: closeLeadBand(e.closeLeadMinutes), clvStatus: clvStatus(e, now(e.sport), contexts.get(e.id) ?? null) }));
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
  asOf: Date | null = null,
): Promise<LedgerListing> {
  const parts = await Promise.all(windows.map((w) => readLedgerListing(store, { ...query, sport: w.sport, from: w.from, to: w.to }, limit, now, asOf)));
  const order = (a: ListedLedgerEntry, b: ListedLedgerEntry) =>
    a.gameDate !== b.gameDate ? (a.gameDate < b.gameDate ? 1 : -1) : Buffer.compare(Buffer.from(a.player), Buffer.from(b.player)) || a.id - b.id;
  const entries = parts.flatMap((p) => p.entries).sort(order).slice(0, limit);
  return { entries, total: parts.reduce((s, p) => s + p.total, 0), shown: entries.length, limit };
}
