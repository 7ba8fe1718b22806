/**
 * US calendar date of an NBA tip given in UTC. Shifting by -6 h works for every tip in the history
 * files (17:00-04:00 UTC); -4/-5 h would misdate 04:xx UTC tips (history/NOTES.md, join recipe step 1).
 */
export function nbaGameDateFromUtc(isoUtc: string): string | null {
  const t = Date.parse(isoUtc);
  if (!Number.isFinite(t)) return null;
  return new Date(t - 6 * 3_600_000).toISOString().slice(0, 10);
}
