import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig, secretValues, type Env } from '../config.js';
import { formatLogLine, type LogFields, type LogLevel } from '../log.js';
import { localDateTime } from '../domain/time.js';
import { badInput, describeZodIssues } from '../errors.js';
import { wireJson } from '../wire.js';
import { colorEnabled, makeChalk, type CliIO } from './_io.js';
import type { ChalkInstance } from 'chalk';

export const globalOptionsSchema = z.object({
  db: z.string().min(1).optional(),
  json: z.boolean().default(false),
  now: z.iso.datetime({ offset: true, message: 'expected an ISO date-time such as 2025-11-05T17:05:00Z' }).optional(),
  verbose: z.boolean().default(false),
  replay: z.string().min(1).optional(),
  record: z.string().min(1).optional(),
});
export type GlobalOptions = z.infer<typeof globalOptionsSchema>;

/** Everything a command needs from the outside world, built once per invocation. */
export class CliContext {
  readonly io: CliIO;
  readonly options: GlobalOptions;
  readonly config: Env;
  readonly color: boolean;
  readonly c: ChalkInstance;
  /** The data clock once a command has resolved it: dates of another year print their year. */
  dataNow: Date | null = null;

  constructor(io: CliIO, options: GlobalOptions) {
    this.io = io;
    this.options = options;
    this.config = loadConfig(io.env);
    this.color = colorEnabled(io, options.json);
    this.c = makeChalk(this.color);
  }

  /** The run's clock: --now, else PROPGRADE_NOW, else the system clock; read once per call site. */
  explicitNow(): Date | null {
    const iso = this.options.now ?? this.config.PROPGRADE_NOW;
    return iso ? new Date(iso) : null;
  }

  now(): Date {
    return this.explicitNow() ?? new Date();
  }

  /** An instant in the display zone, with its year when that is not the data clock's year. */
  dateTime(iso: string): string {
    return localDateTime(iso, this.config.PROPGRADE_TZ, this.dataNow ?? this.explicitNow());
  }

  dbPath(): string | undefined {
    return this.options.db ?? this.config.PROPGRADE_DB;
  }

  /** A log line on stderr (stdout stays data), in PROPGRADE_LOG_FORMAT, every secret redacted. */
  log(level: LogLevel, message: string, fields?: LogFields): void {
    const line = formatLogLine(this.config.PROPGRADE_LOG_FORMAT, { level, message, ...(fields ? { fields } : {}), time: new Date() }, secretValues(this.config));
    this.io.stderr(`${level !== 'info' && this.config.PROPGRADE_LOG_FORMAT === 'text' ? this.c.yellow(line) : line}\n`);
  }

  /** Progress and logs: stderr, so stdout stays data. */
  progress(message: string, fields?: LogFields): void {
    this.log('info', message, fields);
  }

  /** A warning line (yellow on a terminal, level warn in JSON). */
  warn(message: string, fields?: LogFields): void {
    this.log('warn', message, fields);
  }

  verbose(message: string): void {
    if (this.options.verbose) this.io.stderr(`${message}\n`);
  }

  /** Results: `--json` prints `data` in the wire style (src/wire.ts); otherwise the human rendering of the same data. */
  result<T>(data: T, human: (data: T) => string): void {
    if (this.options.json) this.io.stdout(`${wireJson(data, 2)}\n`);
    else this.io.stdout(`${human(data)}\n`);
  }
}

export function contextFor(command: Command, io: CliIO): CliContext {
  const parsed = globalOptionsSchema.safeParse(command.optsWithGlobals());
  if (!parsed.success) throw badInput(describeZodIssues(parsed.error.issues, '--', command.optsWithGlobals()));
  return new CliContext(io, parsed.data);
}

/** Parses a command's own options with its zod schema, naming the bad flag on failure. */
export function parseOptions<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw badInput(describeZodIssues(parsed.error.issues, '--', raw));
  return parsed.data;
}
