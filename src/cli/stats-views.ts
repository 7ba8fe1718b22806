import type { StatAverage } from '../domain/leaders.js';
import { STATS, type StatType } from '../domain/stats.js';
import type { ArsenalView } from '../reads/arsenal.js';
import type { CascadeView } from '../reads/stats-cascade.js';
import { unresolvedMessage, type UnresolvedName } from '../reads/stats-common.js';
import type { DepthView } from '../reads/stats-depth.js';
import type { GameView } from '../reads/stats-game.js';
import type { LeadersView } from '../reads/stats-leaders.js';
import type { LineupView } from '../reads/stats-lineup.js';
import type { PlayerStatsView } from '../reads/stats-player.js';
import type { CliContext } from './_context.js';
import { renderTable, show, signedAmerican, teamText } from './_io.js';
import { freshnessLine } from './live.js';

/** Renderers of `propgrade stats <view>`: each takes the object --json prints. Absent values show "-". */

const unit = (stat: string) => STATS[stat as StatType]?.unit ?? stat;
const label = (stat: string) => STATS[stat as StatType]?.label ?? stat;
const avg = (v: number) => String(Math.round(v * 100) / 100);
const fixed = (v: number, d = 1) => v.toFixed(d);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "29 (7)": the average with its n when n differs from the row's game count. */
function cell(s: StatAverage | undefined, games: number): string {
  if (!s) return '-';
  return s.n === games ? avg(s.avg) : `${avg(s.avg)} (n=${s.n})`;
}

function unresolved(v: UnresolvedName, what: string): string {
  const head = unresolvedMessage(v, what);
  return `${head}${head.endsWith('?') ? '' : '.'}`;
}

export function renderPlayer(ctx: CliContext, v: PlayerStatsView): string {
  if ('status' in v) return unresolved(v, 'player');
  const props =
    v.props.length === 0
      ? ctx.c.dim(`No graded main-line props on today's (${v.asOf}) snapshot.`)
      : [
          ctx.c.bold(`Tonight's graded props (main lines, ${v.props[0]!.game})`),
          renderTable(
            ['Stat', 'Line', 'Side', 'Grade', 'Book', 'Price', 'Fair', 'Proj'],
            v.props.map((r) => [label(r.statType), r.line, r.side, show(r.grade), show(r.book), show(r.bookOdds, signedAmerican), show(r.fairOdds, signedAmerican), show(r.projection, (p) => p.toFixed(1))]),
            ctx.color,
          ),
        ].join('\n');
  if (!v.available) return [`${v.player} (${v.sport}): ${v.reason}.`, props].join('\n');
  const stats = v.seasons[0]?.stats.map((s) => s.stat) ?? v.form.stats.map((s) => s.stat);
  const a = v.archetype;
  const head = [
    ctx.c.bold(`${v.player} — ${teamText(v.profile.team)} (${v.sport}), ${plural(v.profile.games, 'stored game')} ${v.profile.firstGame} to ${v.profile.lastGame}, ${v.profile.played} played`),
    a ? `Archetype: ${a.primary}${a.secondary ? ` / ${a.secondary}` : ''} (${a.blend.map((b) => `${b.id} ${Math.round(b.weight * 100)}%`).join(', ')})` : `Archetype: - (${v.archetypeNote ?? 'none'})`,
    ctx.c.dim(`From the stored game lines before ${v.asOf} (ET); a stat average's n is its played games unless shown.`),
  ];
  const seasons = renderTable(
    ['Season', 'Played', 'Min', ...stats.map((s) => unit(s))],
    v.seasons.map((s) => [s.season, `${s.played} of ${s.games}`, show(s.minutes?.avg, fixed), ...stats.map((st) => cell(s.stats.find((x) => x.stat === st), s.played))]),
    ctx.color,
  );
  const form = renderTable(
    ['Date', 'Team', 'Opp', 'Min', ...stats.map((s) => unit(s))],
    [
      ...v.form.games.map((g) => [g.date, show(g.team), show(g.opponent), show(g.minutes), ...stats.map((s) => show(g.values[s]))]),
      [`last ${v.form.n} avg`, '', '', '', ...stats.map((st) => cell(v.form.stats.find((x) => x.stat === st), v.form.n))],
    ],
    ctx.color,
  );
  return [...head, ctx.c.bold('Season averages per played game'), seasons, ctx.c.bold(`Recent form: ${v.form.window}`), form, props].join('\n');
}

export function renderLeaders(ctx: CliContext, v: LeadersView): string {
  if (!v.available) return `No ${v.sport} ${v.stat} leaders for ${v.season}: ${v.reason}.`;
  const table = renderTable(
    ['Rank', 'Player', 'Team', 'Games', `${unit(v.stat)}/game`, 'Total'],
    v.leaders.map((l) => [l.rank, l.player, show(l.team), l.games, avg(l.avg), l.total]),
    ctx.color,
  );
  return [
    ctx.c.bold(`${v.sport.toUpperCase()} ${v.label} leaders ${v.season} (games before ${v.until})`),
    `Qualified: ${v.qualified} of ${plural(v.players, 'player')} with ${v.minGames}+ played games — ${v.minGamesRule}.`,
    ctx.c.dim(v.coverage),
    table,
  ].join('\n');
}

export function renderGame(ctx: CliContext, v: GameView): string {
  if (!v.available) return `No box score for game ${v.gameId}: ${v.reason}.`;
  const head = ctx.c.bold(`Game ${v.gameId} (${v.sport})${v.date ? ` ${v.date}` : ''} — ${v.teams.map((t) => teamText(t.team)).join(' vs ')}, ${plural(v.players, 'player line')}, from ${v.source}${v.status ? `, ${v.status}` : ''}`);
  const lines = [head, v.source === 'store' ? ctx.c.dim('stored box-score lines (final)') : freshnessLine(ctx, v, v.source)];
  // The store holds the players its history was imported or settled with, not every box score.
  if (v.source === 'store') {
    lines.push(
      ctx.c.yellow(
        `Partial history: the store keeps the players its history was imported with, not every box-score line (${v.teams.map((t) => `${teamText(t.team)} ${plural(t.players.length, 'line')}`).join(', ')}); the provider's box score may list more.`,
      ),
    );
  }
  for (const t of v.teams) {
    const stats = Object.keys(t.players[0]?.values ?? {});
    lines.push(ctx.c.bold(`${teamText(t.team)}${t.opponent ? ` vs ${t.opponent}` : ''}`));
    const minutes = v.sport !== 'mlb'; // MLB lines have no minutes
    lines.push(
      renderTable(
        ['Player', ...(minutes ? ['Min'] : []), ...stats.map(unit)],
        t.players.map((p) => [p.player, ...(minutes ? [p.didNotPlay ? 'DNP' : show(p.minutes)] : []), ...stats.map((s) => show(p.values[s]))]),
        ctx.color,
      ),
    );
  }
  return lines.join('\n');
}

/** Savant's grouped codes (the 2022 export joins curveball with knuckle-curve, sinker with two-seamer). */
const GROUPED_PITCH_CODES: Readonly<Record<string, string>> = { CUKC: 'CU+KC', SIFT: 'SI+FT' };

/** "Curveball (CU+KC)", "4-Seamer (FF)": the name, then Savant's code; the code alone without a name. */
export function pitchLabel(code: string, name: string | null): string {
  const shown = GROUPED_PITCH_CODES[code] ?? code;
  return name ? `${name} (${shown})` : shown;
}

export function renderArsenal(ctx: CliContext, v: ArsenalView): string {
  if ('status' in v) return unresolved(v, 'pitcher');
  if (!v.found) {
    const dym = v.suggestions && v.suggestions.length > 0 ? ` Did you mean ${v.suggestions.map((s) => s.name).join(', ')}?` : '';
    return `No ${v.season} arsenal for '${v.query}': ${v.reason}.${dym}`;
  }
  const table = renderTable(
    ['Pitch', 'Usage %', 'Whiff %', 'Velo (mph)', 'K %', 'Pitches', 'PA'],
    v.pitches.map((p) => [pitchLabel(p.pitchType, p.pitchName), fixed(p.usagePct), show(p.whiffPct, fixed), show(p.velocityMph, fixed), show(p.kPct, fixed), show(p.pitches), show(p.pa)]),
    ctx.color,
  );
  return [
    ctx.c.bold(`${v.pitcher.name} (${teamText(v.pitcher.team)}, MLBAM ${v.pitcher.mlbamId}) — ${v.season} arsenal, ranked by usage`),
    `Strikeout %: ${show(v.strikeoutPct, fixed)} (PA-weighted over the listed pitch types, n = ${show(v.pa)} PA)`,
    freshnessLine(ctx, v, v.source),
    table,
    ctx.c.dim(
      `Pitch: the name, then Baseball Savant's pitch code${v.pitches.some((p) => p.pitchType in GROUPED_PITCH_CODES) ? ' (CU+KC: curveballs and knuckle-curves counted together; SI+FT: sinkers and two-seamers)' : ''}.`,
    ),
  ].join('\n');
}

export function renderLineups(ctx: CliContext, v: LineupView): string {
  if (!v.available) return `No ${v.sport} lineups for ${v.date}: ${v.reason}.`;
  const out = [
    ctx.c.bold(
      `MLB lineups ${v.date} — ${plural(v.games.length, 'game')}; players: ${v.counts.CONFIRMED} confirmed, ${v.counts.NOT_IN} not in, ${v.counts.PROJECTED} projected`,
    ),
    ctx.c.dim(v.rule),
    freshnessLine(ctx, v, 'MLB Stats API'),
  ];
  const unknown: string[] = [];
  for (const g of v.games) {
    const teams = g.teams.filter((t) => t.posted !== null);
    if (teams.length === 0) {
      unknown.push(`${g.game} (${g.status})`);
      continue;
    }
    out.push(ctx.c.bold(`${g.game} — ${g.status}`));
    for (const t of g.teams) {
      if (t.posted === null) {
        out.push(`  ${teamText(t.team)}: ${t.note}`);
        continue;
      }
      const players = t.players.map((p) => (p.state === 'CONFIRMED' ? `${p.battingSlot}. ${p.player}` : `${p.player} (${p.state === 'NOT_IN' ? 'NOT IN' : 'PROJECTED'})`));
      out.push(`  ${teamText(t.team)} (${t.posted ? 'posted' : 'not posted'}): ${players.length > 0 ? players.join(', ') : '-'}`);
    }
  }
  if (unknown.length > 0) out.push(ctx.c.dim(`No lineup readable (no states shown) for ${plural(unknown.length, 'game')}: ${unknown.join('; ')}; --json has each reason`));
  return out.join('\n');
}

export function renderDepth(ctx: CliContext, v: Exclude<DepthView, { status: 'unknown_team' }>): string {
  if (!v.available) return `No depth chart for ${v.team.name} (${v.sport}): ${v.reason}.`;
  // MLB lines carry no minutes: no Min column there.
  const minutes = v.sport !== 'mlb';
  const rows = v.positions.flatMap((p) =>
    p.players.map((x) => [
      x.depth === 1 ? p.position : '',
      x.depth,
      x.player,
      show(x.jersey),
      show(x.games),
      ...(minutes ? [show(x.minutesAvg, fixed)] : []),
      x.injury ? (x.injury.chip ?? x.injury.status) : '-',
    ]),
  );
  const bases = [...new Set(v.positions.map((p) => p.basis))];
  const unknown = v.positions.some((p) => p.players.some((x) => x.games === null));
  const gamesLegend = `Games: stored played games for ${v.team.abbr} in ${v.statsSeason}${minutes ? '; Min: minutes per played game' : ''}${
    unknown ? `; - = the store cannot say (${v.sport === 'mlb' ? 'it holds MLB starting pitchers\' game logs only' : `no ${v.team.abbr} line stored this season`})` : ''
  }.`;
  return [
    ctx.c.bold(`${v.team.name} (${v.team.abbr}, ${v.sport}) depth chart — ${plural(v.players, 'player')}, ${plural(v.positions.length, 'position')}`),
    `Source: ${v.source}${v.providerSeason ? ` ${v.providerSeason}` : ''}, provider time ${show(v.providerTime)}; games${minutes ? ' and minutes' : ''}: stored ${v.statsSeason} lines for ${v.team.abbr}`,
    ctx.c.dim(`Order within a position: ${bases.join('; ')}`),
    freshnessLine(ctx, v, 'roster'),
    renderTable(['Pos', '#', 'Player', 'Jersey', 'Games', ...(minutes ? ['Min'] : []), 'Injury'], rows, ctx.color),
    ctx.c.dim(gamesLegend),
  ].join('\n');
}

export function renderCascade(ctx: CliContext, v: CascadeView): string {
  if ('status' in v) return unresolved(v, 'player');
  if (!v.available) return `No cascade for ${v.player} (${v.sport}): ${v.reason}.`;
  const stats = ['points', 'rebounds', 'assists', 'hits', 'total_bases'].filter((s) => v.teammates.some((t) => t.with.stats.some((x) => x.stat === s)));
  const pair = (a: number | null | undefined, b: number | null | undefined) => `${a === null || a === undefined ? '-' : fixed(a)} → ${b === null || b === undefined ? '-' : fixed(b)}`;
  const table = renderTable(
    ['Teammate', 'With n', 'Without n', 'Min', ...stats.map((s) => unit(s))],
    v.teammates.map((t) => [
      t.player,
      t.with.n,
      t.without.n,
      pair(t.with.minutes?.avg, t.without.minutes?.avg),
      ...stats.map((s) => pair(t.with.stats.find((x) => x.stat === s)?.avg, t.without.stats.find((x) => x.stat === s)?.avg)),
    ]),
    ctx.color,
  );
  return [
    ctx.c.bold(`${v.player} out: ${v.team} teammates with → without him (${v.window.from} to before ${v.window.until})`),
    `${v.team} games: ${v.teamGames} (${v.gamesWith} with him, ${v.gamesWithout} without). ${v.rule}.`,
    ctx.c.dim(`A with/without split of real game lines, not a model guess. ${plural(v.belowMinimum, 'teammate')} under ${v.minGames} games on a side not shown.`),
    v.teammates.length > 0 ? table : 'No teammate reaches the minimum on both sides.',
  ].join('\n');
}
