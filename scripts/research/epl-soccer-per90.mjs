#!/usr/bin/env node
/**
 * Issue 42 part C: where the six soccer archetype thresholds sit on real EPL data
 * (src/domain/archetypes/registry.ts quotes this run).
 *
 *   node scripts/research/epl-soccer-per90.mjs [--history ../shared/history] [--season 2024-25]
 *
 * Reads `epl_player_match_stats_2024-25_2025-26.csv.gz` (NOTES.md §8). A player-season counts when
 * he appeared (minutes > 0) in at least MIN_GAMES matches with at least MIN_MINUTES per appearance,
 * the floors classify applies; 0-minute rows (unused substitutes) are not appearances. Per player:
 * the same profile the archetypes read (mean minutes per appearance; shots, SOT and goals per 90
 * over his minutes; SOT / shots; goals / shots). Prints the deciles of each feature and, for
 * each archetype rule, the share of players it fires on.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const HISTORY = opt('--history', new URL('../../../shared/history', import.meta.url).pathname);
const SEASON = opt('--season', '2024-25');
/** classify.ts MIN_GAMES and MIN_SOCCER_MINUTES. */
const MIN_GAMES = 5;
const MIN_MINUTES = 10;

const raw = gunzipSync(readFileSync(`${HISTORY}/epl_player_match_stats_2024-25_2025-26.csv.gz`)).toString('utf8');
const lines = raw.split('\n').filter(Boolean);
const header = lines[0].split(',');
const col = Object.fromEntries(header.map((h, i) => [h, i]));
// NOTES.md §8 quotes no field; a comma split is exact (checked: no '"' in the file).
if (raw.includes('"')) throw new Error('quoted field: a comma split would be wrong');

const players = new Map();
for (const line of lines.slice(1)) {
  const f = line.split(',');
  if (f[col.season] !== SEASON) continue;
  const minutes = Number(f[col.minutes_played]);
  if (!(minutes > 0)) continue;
  const key = f[col.player_id];
  const p = players.get(key) ?? { name: f[col.player_name], games: 0, minutes: 0, shots: 0, sot: 0, goals: 0, tackles: 0, starts: 0 };
  p.games += 1;
  p.minutes += minutes;
  p.shots += Number(f[col.total_shots]);
  p.sot += Number(f[col.shots_on_target]);
  p.goals += Number(f[col.goals]);
  p.tackles += Number(f[col.tackles]);
  if (Number(f[col.start_min]) === 0) p.starts += 1;
  players.set(key, p);
}

const rows = [...players.values()]
  .filter((p) => p.games >= MIN_GAMES && p.minutes / p.games >= MIN_MINUTES)
  .map((p) => ({
    name: p.name,
    minutes: p.minutes / p.games,
    shots90: (90 * p.shots) / p.minutes,
    sot90: (90 * p.sot) / p.minutes,
    goals90: (90 * p.goals) / p.minutes,
    tackles90: (90 * p.tackles) / p.minutes,
    sot_share: p.shots > 0 ? p.sot / p.shots : null,
    goals_per_shot: p.shots > 0 ? p.goals / p.shots : null,
  }));

const quantile = (xs, q) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
};
const features = ['minutes', 'shots90', 'sot90', 'goals90', 'tackles90', 'sot_share', 'goals_per_shot'];
console.log(`EPL ${SEASON}: ${rows.length} players with >= ${MIN_GAMES} appearances and >= ${MIN_MINUTES} min per appearance`);
console.log(['feature', 'p10', 'p25', 'p50', 'p75', 'p90'].join('\t'));
for (const f of features) {
  const xs = rows.map((r) => r[f]);
  console.log([f, ...[0.1, 0.25, 0.5, 0.75, 0.9].map((q) => quantile(xs, q).toFixed(3))].join('\t'));
}
// The same share among shooters only (2+ shots per 90), where the finishing rules apply.
const shooters = rows.filter((r) => r.shots90 >= 2);
console.log(`shooters (shots90 >= 2): ${shooters.length}`);
for (const f of ['sot_share', 'goals_per_shot', 'goals90']) {
  const xs = shooters.map((r) => r[f]);
  console.log([f, ...[0.1, 0.25, 0.5, 0.75, 0.9].map((q) => quantile(xs, q).toFixed(3))].join('\t'));
}

/** The rules before this run (set on "league norms", not on data) and the refit registry.ts holds. */
const RULES = {
  before: {
    POACHER: (r) => r.goals90 >= 0.45 && r.goals_per_shot !== null && r.goals_per_shot >= 0.15,
    VOLUME_SHOOTER: (r) => r.shots90 >= 3,
    MARKSMAN: (r) => r.sot_share !== null && r.sot_share >= 0.45 && r.shots90 >= 1.5,
    SPECULATOR: (r) => r.shots90 >= 2 && r.sot_share !== null && r.sot_share <= 0.3,
    IMPACT_SUB: (r) => r.shots90 >= 2 && r.minutes <= 45,
    HOLDER: (r) => r.shots90 <= 0.8 && r.minutes >= 60,
  },
  refit: {
    POACHER: (r) => r.goals90 >= 0.38 && r.goals_per_shot !== null && r.goals_per_shot >= 0.15,
    VOLUME_SHOOTER: (r) => r.shots90 >= 2.8,
    MARKSMAN: (r) => r.sot_share !== null && r.sot_share >= 0.45 && r.shots90 >= 1.5,
    SPECULATOR: (r) => r.shots90 >= 2 && r.sot_share !== null && r.sot_share <= 0.3,
    IMPACT_SUB: (r) => r.shots90 >= 2 && r.minutes <= 45,
    HOLDER: (r) => r.shots90 <= 0.8 && r.tackles90 >= 2.35 && r.minutes >= 60,
  },
};
for (const [set, rules] of Object.entries(RULES)) {
  for (const [id, rule] of Object.entries(rules)) {
    const n = rows.filter(rule).length;
    console.log(`${set}\t${id}\t${n}\t${((100 * n) / rows.length).toFixed(1)}%`);
  }
}
