/** The grading model's public surface: the snapshot and the back-test both call gradeProp. */
export { gradeProp, type GradeDetail, type GradeInput, type GradeOutput } from './grade-prop.js';
export { FITTED_PARAMS } from './fitted-params.js';
export { GRADE_RULES, gradeFor, isTakeable } from './grading.js';
export { modelParamsSchema, paramsFor, type ModelParams, type StatParams } from './params.js';
