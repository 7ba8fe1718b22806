import type { Command } from 'commander';
import type { CliIO } from './_io.js';
import { registerDb } from './db.js';

/** A subcommand module registers itself on the program. Heavy imports stay inside actions. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

export const COMMANDS: RegisterCommand[] = [registerDb];
