/**
 * Baseball Savant leaderboard CSVs (no key needed). What it offers:
 * - pitch-arsenal-stats: per pitcher x pitch type usage %, whiff %, per-pitch K%
 * - pitch-arsenals avg_speed: per pitcher velocity by pitch type
 * - the join on MLBAM id into a pitcher arsenal ranked by usage (`{found:false}` when unknown)
 */
export {
  arsenalStatsUrl,
  avgSpeedUrl,
  parseArsenalStatsCsv,
  parseAvgSpeedCsv,
  buildArsenalIndex,
  pitcherArsenal,
  fetchArsenalIndex,
  fetchArsenalRows,
  arsenalStatRowSchema,
  avgSpeedRowSchema,
  arsenalPitchSchema,
  pitcherArsenalSchema,
  type ArsenalStatRow,
  type AvgSpeedRow,
  type ArsenalPitch,
  type PitcherArsenal,
  type ArsenalIndex,
} from './arsenal.js';
