/** The grading model's public surface: the snapshot and the back-test both call gradeProp. */
export { gradeProp, type GradeDetail, type GradeInput, type GradeOutput, type MarketPricing } from './grade-prop.js';
export { FITTED_PARAMS } from './fitted-params.js';
export { CAP_MARKER, CAP_REASON_TEXT, GRADE_RULES, capLegend, capLegendLines, capReasonSchema, markedGrade, formatEvPct, gradeFor, isTakeable, letterForEv, printedEvPct, type CapReason, type GradeVerdict } from './grading.js';
export { MARKET_RULES, priceLadder, type FairSource, type LadderLine, type RowPricing } from './market.js';
export { marketDispersionFor, modelParamsSchema, nudgeWeightFor, paramsFor, type ModelParams, type StatParams } from './params.js';
