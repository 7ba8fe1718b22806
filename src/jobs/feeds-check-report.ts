import { z } from 'zod';
import { providerIdSchema, PROVIDER_IDS } from '../feeds/check/kind.js';
import { checkEntrySchema, type CheckEntry } from '../feeds/check/probes.js';
import { creditHeadersSchema, type CreditHeaders } from '../feeds/odds-api/index.js';
import type { ProviderId } from '../feeds/transport/types.js';

/** The report of `propgrade feeds check`: the probed entries, summarised per provider and kind. */

export const kindSummarySchema = z.object({
  kind: z.string(),
  unit: z.string().nullable(),
  entries: z.number().int(),
  parsed: z.number().int(),
  /** Failed, unreachable or unknown. */
  failed: z.number().int(),
  records: z.number().int(),
  warnings: z.number().int(),
});
export type KindSummary = z.infer<typeof kindSummarySchema>;

export const providerReportSchema = z.object({
  provider: providerIdSchema,
  /** Why the provider was not probed (live mode without a key); null when it was. */
  skipped: z.string().nullable(),
  /** Every request got an answer; null when nothing was asked. */
  reachable: z.boolean().nullable(),
  ok: z.boolean(),
  entries: z.number().int(),
  parsed: z.number().int(),
  failed: z.number().int(),
  unknown: z.number().int(),
  kinds: z.array(kindSummarySchema),
  /** The latest x-requests-* headers seen (Odds API). */
  credits: creditHeadersSchema.nullable(),
});
export type ProviderReport = z.infer<typeof providerReportSchema>;

export const feedsCheckReportSchema = z.object({
  mode: z.enum(['replay', 'live']),
  /** The replay folder, or "live". */
  source: z.string(),
  /** Live: the slate date probed (ET). */
  date: z.string().nullable(),
  ok: z.boolean(),
  providers: z.array(providerReportSchema),
  entries: z.array(checkEntrySchema),
  /** Problems with the folder itself (unreadable keys). */
  warnings: z.array(z.string()),
});
export type FeedsCheckReport = z.infer<typeof feedsCheckReportSchema>;

/** `absentReason`: how to describe a provider with no entries at all (replay folders hold a subset). */
export function summarise(entries: readonly CheckEntry[], skipped: Partial<Record<ProviderId, string>>, absentReason: string | null): ProviderReport[] {
  return PROVIDER_IDS.map((provider) => {
    const mine = entries.filter((e) => e.provider === provider);
    const kinds = new Map<string, KindSummary>();
    let credits: CreditHeaders | null = null;
    for (const e of mine) {
      const k = kinds.get(e.kind) ?? { kind: e.kind, unit: e.unit, entries: 0, parsed: 0, failed: 0, records: 0, warnings: 0 };
      k.entries += 1;
      if (e.outcome === 'parsed') {
        k.parsed += 1;
        k.records += e.records ?? 0;
      } else k.failed += 1;
      k.warnings += e.warnings.length;
      kinds.set(e.kind, k);
      credits = e.credits ?? credits;
    }
    const tally = (o: CheckEntry['outcome']) => mine.filter((e) => e.outcome === o).length;
    const failed = tally('failed') + tally('unreachable');
    const unknown = tally('unknown-kind');
    const reachable = mine.length === 0 ? null : tally('unreachable') === 0;
    const skip = skipped[provider] ?? (mine.length === 0 && absentReason !== null ? absentReason : null);
    return {
      provider,
      skipped: skip,
      reachable,
      ok: skip !== null || (mine.length > 0 && failed === 0 && unknown === 0),
      entries: mine.length,
      parsed: tally('parsed'),
      failed,
      unknown,
      kinds: [...kinds.values()].sort((a, b) => a.kind.localeCompare(b.kind)),
      credits,
    };
  });
}
