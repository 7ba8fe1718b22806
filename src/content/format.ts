import { archetypeById } from '../domain/archetypes/index.js';
import { MIN_SAMPLE } from '../domain/record-gate.js';
import { STATS, type StatType } from '../domain/stats.js';

/**
 * How the content desk writes figures. One place, so the copy, the variants and the data brief
 * show a figure the same way (the brief's `display` is what the copy printed).
 */

/** American odds with a sign: +130, -115. */
export function american(v: number): string {
  const r = Math.round(v);
  return r > 0 ? `+${r}` : String(r);
}

/** A prop line as books print it: 2.5, 27.5, 3. */
export function lineText(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 10) / 10);
}

/** A count with thousands separators: 4,162. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** One decimal: 3.0, 14.9. */
export function oneDecimal(v: number): string {
  return (Math.round(v * 10) / 10).toFixed(1);
}

/** Signed units with two places: +0.70 units, -28.54 units. */
export function units(u: number): string {
  const r = Math.round(u * 100) / 100;
  return `${r > 0 ? '+' : r < 0 ? '-' : ''}${Math.abs(r).toFixed(2)} units`;
}

/** A percentage the record gate already allowed: 49.8%. */
export function percent(p: number): string {
  return `${p.toFixed(1)}%`;
}

/** A signed percentage: +3.2%, -9.2%. */
export function signedPercent(p: number): string {
  const r = Math.round(p * 10) / 10;
  return `${r > 0 ? '+' : ''}${r.toFixed(1)}%`;
}

/** Below the record gate: counts only. */
export function building(n: number): string {
  return `record building: ${n} of ${MIN_SAMPLE}`;
}

/** A record line: "154-155" (hits-misses). */
export function wonLost(hits: number, misses: number): string {
  return `${hits}-${misses}`;
}

const STAT_WORDS: Readonly<Record<StatType, string>> = {
  points: 'points',
  rebounds: 'rebounds',
  assists: 'assists',
  threes: '3-pointers made',
  pra: 'points + rebounds + assists',
  blocks: 'blocks',
  steals: 'steals',
  hits: 'hits',
  total_bases: 'total bases',
  home_runs: 'home runs',
  strikeouts: 'strikeouts',
  pitcher_outs: 'outs recorded',
  shots: 'shots',
  shots_on_target: 'shots on target',
  goals: 'goals',
  tackles: 'tackles',
};

/** The stat as a sentence says it ("3-pointers made"); an unknown stat keeps its stored name. */
export function statWords(stat: string): string {
  return STAT_WORDS[stat as StatType] ?? STATS[stat as StatType]?.label.toLowerCase() ?? stat.replace(/_/g, ' ');
}

/** "Jalen Brunson under 2.5 rebounds". */
export function propText(p: { player: string; side: string; line: number; statType: string }): string {
  return `${p.player} ${p.side} ${lineText(p.line)} ${statWords(p.statType)}`;
}

/** The archetype's label ("Spot-Up Shooter"); an id the registry does not know stays as stored. */
export function archetypeLabel(id: string): string {
  return archetypeById(id)?.label ?? id;
}

const DAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
const SHORT_DAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
const CLOCK = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', minute: '2-digit' });

function calendarDate(date: string): Date {
  return new Date(`${date}T12:00:00Z`);
}

/** "Wed Nov 5" for an ET calendar date. */
export function dayText(date: string): string {
  return DAY.format(calendarDate(date)).replace(',', '');
}

/** "Nov 5" for an ET calendar date. */
export function shortDay(date: string): string {
  return SHORT_DAY.format(calendarDate(date));
}

/** "7:10 PM ET" for an instant. */
export function clockET(iso: string): string {
  return `${CLOCK.format(new Date(iso))} ET`;
}

/** The sports' display names. */
export function sportName(sport: string): string {
  return sport === 'soccer' ? 'Soccer' : sport.toUpperCase();
}

/** "a, b and c". */
export function listJoin(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "1 game" / "11 games". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}
