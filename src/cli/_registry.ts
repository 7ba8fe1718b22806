import type { Command } from 'commander';
import type { CliIO } from './_io.js';
import { registerBackfill } from './backfill.js';
import { registerBacktest } from './backtest.js';
import { registerBilling } from './billing.js';
import { registerCombat } from './combat.js';
import { registerDb } from './db.js';
import { registerDesk } from './desk.js';
import { registerDevig } from './devig.js';
import { registerDrafts } from './drafts.js';
import { registerFeeds } from './feeds.js';
import { registerFutures } from './futures.js';
import { registerImport } from './import.js';
import { registerLedger } from './ledger.js';
import { registerLive } from './live.js';
import { registerNewsletter } from './newsletter.js';
import { registerNews } from './news.js';
import { registerParlay } from './parlay.js';
import { registerParseSlip } from './parse-slip.js';
import { registerRecord } from './record.js';
import { registerScan } from './scan.js';
import { registerServe } from './serve.js';
import { registerSettle } from './settle.js';
import { registerSlate } from './slate.js';
import { registerSnapshot } from './snapshot.js';
import { registerTicker } from './ticker.js';
import { registerUsers } from './users.js';

/** A subcommand module registers itself on the program. Heavy imports stay inside actions. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

/** Help lists commands in this order: the runs first, then analysis, operations, tools. */
export const COMMANDS: RegisterCommand[] = [
  registerSnapshot,
  registerSlate,
  registerScan,
  registerParlay,
  registerSettle,
  registerLedger,
  registerRecord,
  registerTicker,
  registerLive,
  registerNews,
  registerFutures,
  registerCombat,
  registerParseSlip,
  registerNewsletter,
  registerDesk,
  registerDrafts,
  registerServe,
  registerUsers,
  registerBilling,
  registerFeeds,
  registerImport,
  registerBackfill,
  registerBacktest,
  registerDevig,
  registerDb,
];
