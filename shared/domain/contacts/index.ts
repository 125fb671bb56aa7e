// The contacts cleaning engine: pure TypeScript (no Node, no DOM), used by the CLI (Node
// worker_threads) and the app (Web Workers). See docs in each module; the flow is runClean.ts.
export * from './types.ts';
export { ContactsError } from './errors.ts';
export type { ContactsErrorCode } from './errors.ts';
export {
  BUCKET,
  BUCKET_NAMES,
  ISSUE,
  ISSUE_CODES,
  ALL_FLAGS,
  ERRORS,
  WARNINGS,
  REASON_SEPARATOR,
  bucketOf,
  duplicateReason,
  flagCodes,
  isClean,
  quoteReason,
} from './issues.ts';
export { applyLateDuplicates, lateDuplicateEdits, withDuplicateReason } from './lateDuplicates.ts';
export type { ReasonsEdit } from './lateDuplicates.ts';
export type { Bucket, FlagCode, IssueCode } from './issues.ts';
export { createDecoder, detectEncoding, parseEncoding, utf8Length } from './encoding.ts';
export type { EncodingGuess, StreamDecoder } from './encoding.ts';
export { detectDelimiter, detectNewline, parseDelimiter } from './delimiter.ts';
export {
  autoMatchVariables,
  columnRef,
  duplicateColumns,
  detectNameColumn,
  detectPhoneColumn,
  normaliseName,
  resolveColumn,
  SERVICE_PHONE_HEADER,
} from './columns.ts';
export { cleanName, firstNamePreview } from './names.ts';
export { defuseFormula, formulaCellIndexes, isFormulaCell } from './formulaCells.ts';
export { csvCell, csvLine, neutralise, safeCell, safePhoneCell } from './csvWrite.ts';
export {
  countLines,
  createRecordStream,
  eachRecord,
  firstRecord,
  parseRecords,
  readStrayLine,
} from './parseRecords.ts';
export { createBlockSplitter, findCut } from './splitBlocks.ts';
export type { BlockSplitter, SplitterOptions } from './splitBlocks.ts';
export { createRowRules } from './rowRules.ts';
export type { RowCheck, RowRules } from './rowRules.ts';
export { createBlockProcessor, transferablesOf } from './blockProcessor.ts';
export type { BlockProcessor, BlockResult, ProcessOptions } from './blockProcessor.ts';
export { createBlockLane, laneFailure } from './blockLane.ts';
export type { LaneRequest } from './blockLane.ts';
export { createNumberTable } from './numberTable.ts';
export type { NumberTable } from './numberTable.ts';
export {
  createMerger,
  rejectsHeader,
  uploadColumnNames,
  uploadHeader,
  UPLOAD_PHONE_HEADER,
} from './merger.ts';
export type { MergeCounts, MergedBlock, Merger, MergerOptions } from './merger.ts';
export { resolveSetup, sniff } from './sniff.ts';
export type { Sniffed } from './sniff.ts';
export { cleanReportSchema } from './report.ts';
export type { CleanReport } from './report.ts';
export { runClean } from './runClean.ts';
export type { ChunkSource, CleanSink, Executor, Progress, RunOptions, RunResult } from './runClean.ts';
export { createLocalExecutor } from './localExecutor.ts';
export { cleanInMemory } from './cleanInMemory.ts';
export type { InMemoryOptions, InMemoryResult } from './cleanInMemory.ts';
export { createPhoneRecheck, createRowRevalidator } from './revalidateRow.ts';
export type { PhoneRecheck } from './revalidateRow.ts';
export type { RowOutcome } from './revalidateRow.ts';
