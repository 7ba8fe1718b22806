import type { BeatCloseByLead } from '../close-lead.js';
import type { Grade } from '../grades.js';
import type { FairSource } from '../model/market.js';
import type { CalibrationBin } from '../model/metrics.js';
import type { ModelParams } from '../model/params.js';
import type { Side } from '../sports.js';
import type { StatType } from '../stats.js';

/**
 * The back-test report's shape, shared by the NBA, WNBA and MLB back-tests (src/jobs/backtest/*):
 * every sport's run answers with these keys so one renderer and one reader serve them all.
 */

/** One graded (line, side) of the window, priced by the snapshot's rule and settled. */
export interface BacktestRow {
  date: string;
  game: string;
  player: string;
  stat: StatType;
  line: number;
  side: Side;
  isMainLine: boolean;
  fairSource: FairSource;
  thinConsensus: boolean;
  consensusBooks: number;
  outlierPrice: boolean;
  book: string;
  bookOdds: number;
  pFair: number;
  pModel: number;
  pWin: number;
  evPct: number;
  grade: Grade;
  actual: number;
  result: 'win' | 'loss' | 'push';
  /** Profit per unit staked at bookOdds. */
  profit: number;
  /** All books' consensus P(over) at this line (prop-level scoring); null when no book quotes both sides. */
  consensusOverAll: number | null;
}

export interface Interval {
  value: number | null;
  ci95: [number, number] | null;
}

export interface TierClaim {
  n: number;
  wins: number;
  hitRate: number | null;
  /** Mean EV the letters claimed, percent of stake. */
  claimedEvPct: number;
  /** Realised ROI at the graded price, percent of stake, with a 95% interval over games. */
  roiPct: Interval;
  /** The claim lies inside the realised interval (null when the interval cannot be formed). */
  claimInside: boolean | null;
}

export interface ProbabilityScore {
  n: number;
  logLoss: { final: number | null; consensus: number | null; model: number | null };
  brier: { final: number | null; consensus: number | null; model: number | null };
  /** Mean per-prop log loss minus the consensus's, with a 95% interval over games (negative = better). */
  finalMinusConsensus: Interval;
  modelMinusConsensus: Interval;
}

export interface ClvSummary {
  description: string;
  /** Early grades priced from the market alone because no projection existed (research mode). */
  marketOnly: number;
  withProjection: number;
  /** A/A+ early grades matched to a later consensus at the same line. */
  n: number;
  beat: number;
  beatShare: number | null;
  ci95: [number, number] | null;
  /** Mean of (later fair probability of the side minus the early price's implied probability), in points. */
  meanClvPts: number | null;
  /** Mean clv_pct: the early price's EV at the later fair (src/domain/clv.ts, the ledger's own function), percent. */
  meanClvPct: number | null;
  /** The verdicts by the later read's lead time before the start (domain/close-lead.ts); null where the data has no start time. */
  beatCloseByLead: BeatCloseByLead | null;
}

export interface BacktestReport {
  window: { from: string; to: string; fitBefore: string; inSample: boolean };
  params: ModelParams;
  fit: {
    exposureHalfLife: { halfLife: number; mse: number; n: number } | null;
    stats: Record<string, { trainingGames: number; mse: number; meanLogLik: number; poissonLogLik: number }>;
    nudge: Record<string, { weight: number; fittedWeight: number; examples: number; logLossMarket: number; logLossNudged: number; improvement: { mean: number; se: number } | null }>;
    /** Generosity of each main-line quote against the other books' consensus (probability points as fractions), training props. */
    outlierGap: { n: number; p99: number; p995: number; p999: number; p9999: number; beyondBound: number } | null;
    marketDispersion: { scale: number; meanLogLik: number; unscaledLogLik: number; n: number } | null;
  } | null;
  rules: { minConsensusBooks: number; outlierProbGap: number; consensusMethod: string };
  counts: {
    propRows: number;
    ladders: number;
    mainLines: number;
    graded: number;
    refused: number;
    refusalReasons: Record<string, number>;
    void: number;
    scoredRows: number;
    bySource: Record<string, number>;
  };
  logLoss: Record<string, ProbabilityScore>;
  perTier: Record<'mainLines' | 'marketImpliedRungs' | 'thinConsensus' | 'allRows', Partial<Record<Grade | 'all', TierClaim>>>;
  calibrationSlope: Record<'mainLines' | 'marketImpliedRungs' | 'allRows', Interval & { n: number }>;
  calibration: { final: CalibrationBin[]; marketImpliedRungs: CalibrationBin[] };
  clv: { nbaThrees: ClvSummary | null; mlbStrikeouts: ClvSummary | null; wnba?: ClvSummary | null };
  sampleSize: { roiHalfWidthPct: number; profitSd: number | null; designEffect: number | null; betsNeeded: number | null; betsInTopTiers: number; note: string };
  rows: BacktestRow[];
}
