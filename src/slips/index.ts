export { SlipReader, languageDataFolder, type SlipReaderOptions } from './ocr.js';
export { readSlipImage, readSlipText, gradeLegs, NO_GRADER_REASON, type GradeLeg, type GradableLeg, type ReadSlipOptions } from './reader.js';
export { parseOcrPage, parseSlipText, parseRows, type BookChoice } from './parse.js';
export { checkImage, UPLOAD_CAP_BYTES } from './image.js';
export * from './schema.js';
