import { MIN_SAMPLE } from '../../domain/record-gate.js';
import { Brief, list, paragraph, rowsSource, type Block, type FigureSource } from '../document.js';
import type { ContentFacts, LedgerFact, SportRecordWindow } from '../../domain/facts.js';
import { american, building, clockET, count, dayText, lineText, listJoin, percent, plural, shortDay, signedPercent, statWords, units } from '../format.js';
import { dayRecord, isDecided, MIN_STREAK, settledDates, streaks, windowsRecord } from '../select.js';
import { yardstickVerdict } from '../../domain/records.js';
import { CLOSE_LEAD_BANDS, CLOSE_LEAD_LABEL, closeLeadBand } from '../../domain/close-lead.js';
import { GRADE_BANDS, type TemplateResult } from '../template.js';
import { rateText, recordText } from './common.js';
import { bandsClause, CONSENSUS_CLOSE, PINNACLE_CLOSE, PINNACLE_IS, rowsWithClose, shareNumber, shareText, tierBandsTail } from './beat-close.js';

/**
 * The templates written from the public ledger: STREAK WATCH (current runs), THE SETTLE (the last
 * settled day) and RECEIPTS (the record, in `propgrade record`'s windows). Every rate passes the n >= 20 gate; below it the
 * copy shows counts and "record building".
 */

/** Runs written out in full; the rest are named in one line, so a list never drops an item. */
const SHOWN_IN_FULL = 6;

/** Units at the price the grade was given at, and ROI only at n >= 20. */
function unitsText(brief: Brief, key: string, label: string, u: { n: number; units: number | null; roiPct: number | null }, rows: LedgerFact[], where: string): string | null {
  if (u.units === null || u.n === 0) return null;
  const src = rowsSource('ledger_entries', rows, where);
  const sum = brief.add(`${key}.units`, `${label}: profit of a 1-unit stake on each settled read at its graded price`, u.units, units(u.units), u.n, src);
  const roi = u.roiPct === null ? `ROI ${brief.add(`${key}.roi`, `${label} ROI (below the n >= ${MIN_SAMPLE} gate)`, `n=${u.n}`, building(u.n), u.n, src)}` : `ROI ${brief.add(`${key}.roi`, `${label} ROI`, u.roiPct, signedPercent(u.roiPct), u.n, src)}`;
  const stakes = brief.add(`${key}.stakes`, `${label}: one-unit stakes counted`, u.n, plural(u.n, 'one-unit stake'), u.n, src);
  return `${sum} over ${stakes}, ${roi}`;
}

/** A close the record counts: a verdict read on the one yardstick (a legacy own-book close never counts). */
const hasYardstickClose = (e: LedgerFact): boolean => yardstickVerdict(e) !== null;

/**
 * The graded prices' mean EV at the close (clv_pct), the standard beat-the-closing-line measure, as
 * a rate: only at n >= 20 (the record gate); below it nothing is printed (the verdict counts say it).
 */
function meanClvText(brief: Brief, key: string, span: string, rows: readonly LedgerFact[], src: FigureSource): string | null {
  const pcts = rows.map((e) => e.clvPct).filter((v): v is number => v !== null && Number.isFinite(v));
  if (pcts.length < MIN_SAMPLE) return null;
  const mean = pcts.reduce((a, b) => a + b, 0) / pcts.length;
  const shown = brief.add(`${key}.mean_clv_pct`, `mean EV of the graded price at the closing fair (clv_pct) ${span}`, mean, signedPercent(mean), pcts.length, src);
  return `On average the graded price was worth ${shown} at the close (n=${count(pcts.length)}).`;
}

/** What "the close" is, truthfully: the last read before the start, however long before it that was. */
const CLOSE_IS = "the market's no-vig fair at the graded line in the last snapshot before the game started, read the way the grade was";

/**
 * The beat-close count split by how long before the start each close was taken (domain/close-lead.ts):
 * a close hours out and one minutes out are different measures, so the copy names the band of each.
 */
function leadBandsText(brief: Brief, key: string, span: string, rows: readonly LedgerFact[], where: string): string | null {
  const parts: string[] = [];
  for (const band of CLOSE_LEAD_BANDS) {
    const inBand = rows.filter((e) => closeLeadBand(e.closeLeadMinutes) === band);
    if (inBand.length === 0) continue;
    const beat = inBand.filter((e) => yardstickVerdict(e) === 'beat').length;
    const src = rowsSource('ledger_entries', inBand, `${where} whose close was taken ${CLOSE_LEAD_LABEL[band]} (close_lead_minutes)`);
    parts.push(`closes taken ${CLOSE_LEAD_LABEL[band]}: ${rateText(brief, `${key}.${band}`, `beat-the-close rate ${span}, closes taken ${CLOSE_LEAD_LABEL[band]}`, beat, inBand.length, src)} beat`);
  }
  return parts.length === 0 ? null : `By how long before the start the close was taken: ${parts.join('; ')}.`;
}

export function streakWatch(facts: ContentFacts, inFull = SHOWN_IN_FULL): TemplateResult {
  const runs = streaks(facts.record);
  if (runs.length === 0) {
    const dates = settledDates(facts.record);
    return {
      omit: `no player and stat has ${MIN_STREAK} or more consecutive settled results on the public record in ${windowsText(facts).perSport ?? `the 30 days to ${facts.window.to}`} (settled game dates in the window: ${dates.length})`,
    };
  }
  const brief = new Brief();
  const day = dayText(facts.date);
  const items = runs.map((s, i) => {
    const key = `streak_${i + 1}`;
    const src = rowsSource('ledger_entries', s.entries, `the run's public entries for ${s.player} ${s.statType}, newest game first`);
    const run = brief.add(`${key}.run`, `${s.player} ${s.statType} consecutive ${s.outcome === 'hit' ? 'hits' : 'misses'}`, s.run, count(s.run), s.n, src);
    const n = brief.add(`${key}.n`, `${s.player} ${s.statType} decided games in the window`, s.n, count(s.n), s.n, rowsSource('ledger_entries', facts.record.filter((e) => e.playerKey === s.playerKey && e.statType === s.statType && isDecided(e)), 'decided public entries of the prop in the window'));
    const sides = listJoin([...new Set(s.entries.map((e) => e.side))]);
    const what = s.outcome === 'hit' ? 'hits' : 'misses';
    return {
      text: `${s.player}${s.team ? ` (${s.team})` : ''} ${statWords(s.statType)}: the public read has ${s.outcome === 'hit' ? 'hit' : 'missed'} ${run} games running (${sides}; ${n} decided games in 30 days).`,
      short: `${s.player} ${statWords(s.statType)} (${run} ${what})`,
      wire: `${s.player} ${statWords(s.statType)}: ${s.run} straight ${what} on the record`,
      numbers: `${s.player} ${s.statType}: ${s.run} ${what} running, n=${s.n}`,
    };
  });
  // The longest runs in full; every other run is still named, shorter, so the list is the whole list.
  const full = items.slice(0, inFull);
  const others = items.slice(inFull);
  const total = brief.add('runs', `current runs of ${MIN_STREAK} or more games`, runs.length, plural(runs.length, 'current run'), runs.length, rowsSource('ledger_entries', runs.flatMap((s) => s.entries), 'the runs\' public entries'));
  const opening = `STREAK WATCH for ${day}: ${total} of the public record, per player and stat, counted in games${others.length > 0 ? `; the ${count(full.length)} longest in full, then the other ${count(others.length)}` : ''}.`;
  const rest = others.length > 0 ? `The other ${count(others.length)}: ${listJoin(others.map((i) => i.short))}.` : null;
  const caveat = 'A run is what happened, not what comes next: each new read is graded on its own price.';
  const lead = runs[0];
  return {
    draft: {
      headline: `STREAK WATCH, ${day}: ${lead ? `${lead.player}, ${lead.run} ${lead.outcome === 'hit' ? 'hits' : 'misses'} running` : ''}`,
      body: [paragraph(opening), list(full.map((i) => i.text)), ...(rest ? [paragraph(rest)] : []), paragraph(caveat)],
      thread: [opening, ...full.map((i) => i.text), ...(rest ? [rest] : []), caveat],
      wire: items.map((i) => i.wire),
      numbers: items.map((i) => i.numbers),
      brief,
    },
  };
}

export function theSettle(facts: ContentFacts): TemplateResult {
  const date = facts.settleDate;
  if (date === null) return { omit: `no public entry of ${facts.date} or the day before is settled yet (run \`propgrade settle\` after the games)` };
  const entries = facts.settle;
  const brief = new Brief();
  const { aggregate, tiers } = dayRecord(entries, date);
  const c = aggregate.counts;
  const settled = entries.filter((e) => e.outcome !== 'pending');
  const where = `public entries of games on ${date}`;
  const allSrc = rowsSource('ledger_entries', settled, `settled ${where}`);
  const decided = entries.filter(isDecided);
  const nSettled = brief.add('settled', 'entries settled against the box scores', settled.length, count(settled.length), settled.length, allSrc);
  const outcomes = [
    `${brief.add('hits', 'hits', c.hits, count(c.hits), decided.length, allSrc)} hit`,
    `${brief.add('misses', 'misses', c.misses, count(c.misses), decided.length, allSrc)} missed`,
    ...(c.pushes ? [`${brief.add('pushes', 'pushes', c.pushes, count(c.pushes), settled.length, allSrc)} pushed`] : []),
    ...(c.voids ? [`${brief.add('voids', 'voids (did not play)', c.voids, count(c.voids), settled.length, allSrc)} void (did not play)`] : []),
  ];
  const rate = rateText(brief, 'hit_rate', `hit rate on ${date}`, c.hits, c.hits + c.misses, rowsSource('ledger_entries', decided, `decided ${where}`));
  const u = unitsText(brief, 'day', `units on ${date}`, aggregate.units, decided, `decided ${where} with a graded price`);
  const tierLines = tiers
    .filter((t) => t.counts.hits + t.counts.misses > 0)
    .map((t) => {
      const rows = decided.filter((e) => e.grade === t.grade);
      const src = rowsSource('ledger_entries', rows, `decided ${where} graded ${t.grade}`);
      return `${t.grade} ${recordText(brief, `tier.${t.grade}.record`, `${t.grade} on ${date}`, t.counts.hits, t.counts.misses, src)}, ${rateText(brief, `tier.${t.grade}.hit_rate`, `${t.grade} hit rate on ${date}`, t.counts.hits, t.counts.hits + t.counts.misses, src)}`;
    });
  const clvRows = settled.filter(hasYardstickClose);
  const clvSrc = rowsSource('ledger_entries', clvRows, `settled ${where} with a close read on the one yardstick (close_method one_yardstick)`);
  const clvMean = meanClvText(brief, 'clv', `on ${date}`, clvRows, clvSrc);
  const dayBands = leadBandsText(brief, 'clv.by_lead', `on ${date}`, clvRows, `settled ${where} with a close read on the one yardstick`);
  const clv =
    clvRows.length === 0
      ? null
      : `Against the close (${CLOSE_IS}): ${brief.add('clv.beat', 'reads whose graded price beat the close', aggregate.clv.beat, count(aggregate.clv.beat), clvRows.length, clvSrc)} beat it, ${brief.add('clv.faded', 'reads the close faded', aggregate.clv.faded, count(aggregate.clv.faded), clvRows.length, clvSrc)} faded, ${brief.add('clv.flat', 'reads flat to the close', aggregate.clv.flat, count(aggregate.clv.flat), clvRows.length, clvSrc)} flat, of ${brief.add('clv.n', 'reads with a close captured', clvRows.length, count(clvRows.length), clvRows.length, clvSrc)} with a close captured.${clvMean ? ` ${clvMean}` : ''}${dayBands ? ` ${dayBands}` : ''}`;
  // Every settled A+ read, voids and pushes included: the list says "every", so it lists every one.
  const top = settled.filter((e) => e.grade === 'A+');
  const topPending = entries.filter((e) => e.grade === 'A+' && e.outcome === 'pending');
  const topItems = top.map((e, i) => {
    const src = rowsSource('ledger_entries', [e], `ledger entry ${e.id}`);
    const price = e.price === null ? '' : ` at ${brief.add(`a_plus_${i + 1}.price`, `${e.player} graded price`, e.price, american(e.price), null, src)}`;
    const when = ` graded ${brief.add(`a_plus_${i + 1}.graded_at`, `${e.player} graded at`, e.gradedAt, clockET(e.gradedAt), null, src)}`;
    const actual = e.actualValue === null ? '' : `: ${brief.add(`a_plus_${i + 1}.actual`, `${e.player} ${e.statType} in the box score`, e.actualValue, lineText(e.actualValue), null, src)}`;
    const line = brief.add(`a_plus_${i + 1}.line`, `${e.player} ${e.statType} line`, e.line, lineText(e.line), null, src);
    return `${e.player} ${e.side} ${line} ${statWords(e.statType)}${price}${e.book ? ` (${e.book})` : ''}${when}${actual}, ${e.outcome}.`;
  });
  const aPlusN = top.length === 0 ? '' : brief.add('a_plus.n', 'settled A+ reads of the day', top.length, count(top.length), top.length, rowsSource('ledger_entries', top, `settled ${where} graded A+`));
  const stillPending = topPending.length === 0 ? '' : ` settled (${brief.add('a_plus.pending', 'A+ reads of the day still pending', topPending.length, count(topPending.length), topPending.length, rowsSource('ledger_entries', topPending, `pending ${where} graded A+`))} more still pending)`;
  const topHeading = `Every A+ read of the day, win or lose, all ${aPlusN}${stillPending}:`;
  const day = dayText(date);
  const opening = `THE SETTLE for games of ${day}: ${nSettled} public reads settled against the box scores. ${listJoin(outcomes)}.`;
  const body: Block[] = [
    paragraph(opening),
    paragraph(`Hit rate: ${rate}.${u ? ` Units at the graded price: ${u}.` : ''}`),
    ...(tierLines.length ? [paragraph('By grade:'), list(tierLines)] : []),
    ...(clv ? [paragraph(clv)] : []),
    ...(topItems.length ? [paragraph(topHeading), list(topItems)] : []),
    ...(c.pending ? [paragraph(`${plural(c.pending, 'read')} of the day still pending.`)] : []),
  ];
  return {
    draft: {
      headline: `THE SETTLE, ${day}: ${c.hits}-${c.misses}`,
      body,
      thread: [opening, `Hit rate ${rate}.${u ? ` Units at the graded price: ${u}.` : ''}`, ...(tierLines.length ? [`By grade: ${tierLines.join('; ')}.`] : []), ...(clv ? [clv] : []), ...(topItems.length ? [topHeading] : []), ...topItems],
      wire: [`Settled ${shortDay(date)}: ${c.hits}-${c.misses}${c.voids ? `, ${c.voids} void` : ''} on ${settled.length} public reads`, ...topItems],
      numbers: [
        `settled: ${count(settled.length)}`,
        `hit: ${count(c.hits)}`,
        `miss: ${count(c.misses)}`,
        `push: ${count(c.pushes)}`,
        `void: ${count(c.voids)}`,
        `hit rate: ${aggregate.hitRate.pct === null ? building(aggregate.hitRate.n) : `${percent(aggregate.hitRate.pct)} (n=${aggregate.hitRate.n})`}`,
        ...(aggregate.units.units === null ? [] : [`units: ${units(aggregate.units.units)} (n=${aggregate.units.n})`]),
        ...tiers.filter((t) => t.counts.hits + t.counts.misses > 0).map((t) => `${t.grade}: ${t.counts.hits}-${t.counts.misses}${t.hitRate.pct === null ? ` (${building(t.hitRate.n)})` : ` (${percent(t.hitRate.pct)}, n=${t.hitRate.n})`}`),
      ],
      brief,
    },
  };
}

/** "Oct 7 to Nov 5", with the year when it is not the pack's. */
function spanText(w: { from: string; to: string }, year: string): string {
  const y = (d: string) => (d.slice(0, 4) === year ? '' : `, ${d.slice(0, 4)}`);
  return `${shortDay(w.from)}${w.from.slice(0, 4) === w.to.slice(0, 4) ? '' : y(w.from)} to ${shortDay(w.to)}${y(w.to)}`;
}

/**
 * The window the record was counted in, as `propgrade record` counts it: one span when every sport
 * with an entry shares it, else each sport's 30 days ending on its own data clock, named per sport.
 */
function windowsText(facts: ContentFacts): { text: string; short: string; perSport?: string } {
  const year = facts.date.slice(0, 4);
  const used = facts.windows.filter((w) => facts.record.some((e) => e.sport === w.sport));
  const shown: SportRecordWindow[] = used.length > 0 ? used : facts.windows;
  const [first] = shown;
  if (first && shown.every((w) => w.from === first.from && w.to === first.to)) {
    const one = spanText(first, year);
    return { text: one, short: one };
  }
  const each = shown.map((w) => `${w.sport.toUpperCase()} ${spanText(w, year)}`).join('; ');
  const perSport = `each sport's 30 days to its own newest snapshot (${each})`;
  return { text: `of ${perSport}`, short: `${shown.length} sports, each its last 30 days`, perSport };
}

export function receipts(facts: ContentFacts): TemplateResult {
  const settled = facts.record.filter((e) => e.outcome !== 'pending');
  const windowList = facts.windows.map((w) => `${w.sport} ${w.from} to ${w.to}`).join(', ');
  if (settled.length === 0) return { omit: `no public entry in the record's windows (${windowList}) is settled yet` };
  const brief = new Brief();
  // The record as `propgrade record` counts it: the same windows, entries, tally and intervals.
  const { aggregate, tiers } = windowsRecord(facts);
  const c = aggregate.counts;
  const where = `public entries with game dates in their sport's record window (${windowList})`;
  const decided = facts.record.filter(isDecided);
  const { text: window, short: windowShort } = windowsText(facts);
  const entries = brief.add('entries', 'public entries in the window', c.entries, count(c.entries), c.entries, rowsSource('ledger_entries', facts.record, where));
  const rate = rateText(brief, 'hit_rate', '30-day hit rate', c.hits, c.hits + c.misses, rowsSource('ledger_entries', decided, `decided ${where}`));
  const u = unitsText(brief, 'window', '30-day units', aggregate.units, decided, `decided ${where} with a graded price`);
  const clvRows = facts.record.filter(hasYardstickClose);
  const clvSrc = rowsSource('ledger_entries', clvRows, `${where} with a close read on the one yardstick (close_method one_yardstick)`);
  const beat = clvRows.length === 0 ? null : shareText(brief, 'beat_close', '30-day beat-the-close rate', aggregate.beatClose, clvSrc);
  const clvMean = meanClvText(brief, 'clv', 'over 30 days', clvRows, clvSrc);
  // Each yardstick leads with the band nearest the start that holds a close, then every lead time together.
  const windowBands = bandsClause(brief, 'beat_close.by_lead', '30-day beat-the-close rate', aggregate.beatCloseByLead, facts.record, CONSENSUS_CLOSE, where);
  const pinRows = rowsWithClose(facts.record, PINNACLE_CLOSE);
  const pinBands = bandsClause(brief, 'beat_close_pinnacle.by_lead', "30-day rate of beating Pinnacle's no-vig close", aggregate.beatClosePinnacleByLead, facts.record, PINNACLE_CLOSE, where);
  const pinPooled = pinRows.length === 0 ? null : shareText(brief, 'beat_close_pinnacle', "30-day rate of beating Pinnacle's no-vig close, every lead time", aggregate.beatClosePinnacle, rowsSource('ledger_entries', pinRows, `${where} ${PINNACLE_CLOSE.rows}`));
  const tierLines = tiers
    .filter((t) => t.counts.hits + t.counts.misses > 0)
    .map((t) => {
      const rows = decided.filter((e) => e.grade === t.grade);
      const src = rowsSource('ledger_entries', rows, `decided ${where} graded ${t.grade}`);
      const rec = recordText(brief, `tier.${t.grade}.record`, `${t.grade} 30-day record`, t.counts.hits, t.counts.misses, src);
      const r = rateText(brief, `tier.${t.grade}.hit_rate`, `${t.grade} 30-day hit rate`, t.counts.hits, t.counts.hits + t.counts.misses, src);
      const tu = unitsText(brief, `tier.${t.grade}`, `${t.grade} 30-day units`, t.units, rows, `decided ${where} graded ${t.grade} with a graded price`);
      const graded = facts.record.filter((e) => e.grade === t.grade);
      // Per lead band of the close, on both yardsticks: a close hours before the start and one minutes before it are not one rate.
      const tb = tierBandsTail(brief, `tier.${t.grade}.beat_close`, `${t.grade} 30-day beat-the-close rate`, 'the close', t.beatCloseByLead, graded, CONSENSUS_CLOSE, `${where} graded ${t.grade}`);
      const tp = tierBandsTail(brief, `tier.${t.grade}.beat_close_pinnacle`, `${t.grade} 30-day rate of beating Pinnacle's no-vig close`, "Pinnacle's close", t.beatClosePinnacleByLead, graded, PINNACLE_CLOSE, `${where} graded ${t.grade}`);
      // Each tier against its own claim first: what its letter claimed at the graded prices, then what it returned.
      return `${t.grade} claims ${GRADE_BANDS[t.grade] ?? 'no edge'} at the graded price; it went ${rec}, ${r}${tu ? `; ${tu}` : ''}${tb}${tp}`;
    });
  const allSrc = rowsSource('ledger_entries', facts.record, where);
  const tally = (key: string, label: string, v: number) => brief.add(key, label, v, count(v), c.entries, allSrc);
  const opening = `RECEIPTS, the public record ${window}: ${entries} public reads, ${tally('hits', 'hits', c.hits)} hit, ${tally('misses', 'misses', c.misses)} missed, ${tally('pushes', 'pushes', c.pushes)} pushed, ${tally('voids', 'voids (did not play)', c.voids)} void, ${tally('pending', 'pending', c.pending)} pending.`;
  const closeLine = beat === null ? '' : ` Beat the close (${CLOSE_IS}), ${windowBands ? `${windowBands}; every lead time together: ${beat}` : `every lead time together: ${beat}`}.${clvMean ? ` ${clvMean}` : ''}`;
  const rateLine = `Hit rate ${rate}.${u ? ` Units at the graded price: ${u}.` : ''}${closeLine}`;
  // Pinnacle's yardstick only where Pinnacle priced a graded line: absent, never a 0.
  const pinLine = pinPooled === null ? null : `Against ${PINNACLE_IS}: ${pinBands ? `${pinBands}; ` : ''}every lead time together: ${pinPooled}.`;
  const body: Block[] = [
    paragraph(opening),
    paragraph(rateLine),
    ...(pinLine ? [paragraph(pinLine)] : []),
    ...(tierLines.length ? [paragraph('By grade:'), list(tierLines)] : []),
    paragraph(`Every public read counts, losses included. Rates appear at n of ${MIN_SAMPLE} or more, a share with its Wilson interval in brackets; below that the record is building and shows counts only.`),
  ];
  const pinNumbers = aggregate.beatClosePinnacle.n === 0 ? [] : [...aggregate.beatClosePinnacleByLead.filter((b) => b.n > 0).map((b) => `beat Pinnacle's no-vig close, closes ${CLOSE_LEAD_LABEL[b.band]}: ${shareNumber(b)}`), `beat Pinnacle's no-vig close, every lead time: ${shareNumber(aggregate.beatClosePinnacle)}`];
  return {
    draft: {
      headline: `RECEIPTS, ${windowShort}: ${c.hits}-${c.misses}`,
      body,
      thread: [opening, rateLine, ...(pinLine ? [pinLine] : []), ...tierLines.map((t) => `${t}.`), 'Every public read counts, losses included.'],
      wire: [`Public record ${windowShort}: ${c.hits}-${c.misses}${aggregate.hitRate.pct === null ? `, ${building(aggregate.hitRate.n)}` : `, ${percent(aggregate.hitRate.pct)} (n=${aggregate.hitRate.n})`}`],
      numbers: [
        ...facts.windows.filter((w) => facts.record.some((e) => e.sport === w.sport)).map((w) => `window, ${w.sport}: ${w.from} to ${w.to}`),
        `entries: ${count(c.entries)}`,
        `hit: ${count(c.hits)}`,
        `miss: ${count(c.misses)}`,
        `push: ${count(c.pushes)}`,
        `void: ${count(c.voids)}`,
        `pending: ${count(c.pending)}`,
        `hit rate: ${shareNumber(aggregate.hitRate)}`,
        ...(aggregate.units.units === null ? [] : [`units: ${units(aggregate.units.units)} (n=${aggregate.units.n})`]),
        ...(aggregate.units.roiPct === null ? [] : [`ROI: ${signedPercent(aggregate.units.roiPct)}${aggregate.units.roiCi95 ? ` [${signedPercent(aggregate.units.roiCi95[0])} to ${signedPercent(aggregate.units.roiCi95[1])}]` : ''}`]),
        // Nearest the start first, then every lead time together; Pinnacle's yardstick beside it where it priced a line.
        ...aggregate.beatCloseByLead.filter((b) => b.n > 0).map((b) => `beat close, closes ${CLOSE_LEAD_LABEL[b.band]}: ${shareNumber(b)}`),
        ...(clvRows.length ? [`beat close, every lead time: ${shareNumber(aggregate.beatClose)}`] : []),
        ...pinNumbers,
      ],
      brief,
    },
  };
}
