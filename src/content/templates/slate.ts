import { Brief, list, paragraph, rowsSource, type Block } from '../document.js';
import type { ContentFacts, SlateRowFact } from '../../domain/facts.js';
import { american, archetypeLabel, clockET, count, dayText, lineText, listJoin, oneDecimal, plural, propText, shortDay, sportName, statWords } from '../format.js';
import { gradeCounts, gradedMainLines, lineMoves, strongestReads } from '../select.js';
import { CLAIM_LINE, GRADE_BANDS, type TemplateResult } from '../template.js';
import { claimFigures, EDGE_WORDS, hasClaimPrice, nowSentence, rateText, readSentence, recordText } from './common.js';

/** Moves and player types written out in full; the rest are named in one line, so a list never drops an item. */
const MOVES_IN_FULL = 8;
const TYPES_IN_FULL = 5;

/**
 * The templates written from the day's stored snapshots: MORNING WIRE (the board), SIGNAL (the one
 * strongest read), LINE DISPATCH (main lines that moved) and ARCHETYPE WATCH (who the claims are on).
 * Public copy carries what a free API caller sees (grade, book price, fair price, consensus,
 * projection), never the model's EV or win probability.
 */

function noSlate(facts: ContentFacts): string {
  return `no snapshot of the ${facts.date} slate is stored (run \`propgrade snapshot\` first)`;
}

export function morningWire(facts: ContentFacts): TemplateResult {
  if (facts.slates.length === 0) return { omit: noSlate(facts) };
  const graded = facts.slates.filter((s) => s.gradedCount > 0);
  if (graded.length === 0) return { omit: `the stored snapshots of the ${facts.date} slate graded no row` };
  const brief = new Brief();
  const day = dayText(facts.date);
  const boards = graded.map((s) => {
    const games = new Set(s.rows.map((r) => r.eventId)).size;
    const src = rowsSource('snapshots', [{ id: s.snapshotId }], `${s.sport} snapshot of the ${s.slateDate} slate, taken ${s.takenAt}`);
    const g = brief.add(`${s.sport}.games`, `${s.sport} games on the board`, games, plural(games, 'game'), null, src);
    const rows = brief.add(`${s.sport}.rows`, `${s.sport} prop prices on the board`, s.rowCount, count(s.rowCount), null, src);
    const gr = brief.add(`${s.sport}.graded`, `${s.sport} prop prices graded`, s.gradedCount, count(s.gradedCount), s.rowCount, src);
    return {
      text: `${sportName(s.sport)} as of ${clockET(s.takenAt)}: ${g}, ${rows} prop prices, ${gr} graded`,
      wire: `${sportName(s.sport)} ${shortDay(facts.date)}: ${gr} of ${rows} prop prices graded across ${g} (${clockET(s.takenAt)} board)`,
      numbers: [`${s.sport} games: ${count(games)}`, `${s.sport} prop prices: ${rows}`, `${s.sport} graded: ${gr}`],
      headline: `${sportName(s.sport)} ${gr} prop prices graded`,
    };
  });
  const counts = gradeCounts(graded).filter((c) => c.grade !== 'F');
  const countText = counts.map((c) => `${brief.add(`grades.${c.grade}`, `main-line rows graded ${c.grade}`, c.rows.length, count(c.rows.length), c.rows.length, rowsSource('graded_rows', c.rows, `main-line rows graded ${c.grade}`))} ${c.grade}`);
  const reads = strongestReads(graded, 3).map((r, i) => `${readSentence(brief, `read_${i + 1}`, r)}.`);
  const tips = graded.flatMap((s) => s.rows.map((r) => r.commenceTime)).sort();
  const first = tips[0];
  const last = tips[tips.length - 1];
  const opening = `MORNING WIRE for ${day}. ${boards.map((b) => b.text).join('. ')}.`;
  const gradesLine = countText.length ? `On main lines the board shows ${listJoin(countText)} grades.` : null;
  const body: Block[] = [
    paragraph(opening),
    ...(gradesLine ? [paragraph(gradesLine)] : []),
    paragraph(`${CLAIM_LINE} A+ claims ${GRADE_BANDS['A+']}; A claims ${GRADE_BANDS['A']}.`),
    ...(reads.length ? [paragraph(reads.length === 1 ? 'The largest claim on the board, at the price and time it was graded:' : 'The largest claims on the board, each at the price and time it was graded:'), list(reads)] : [paragraph('No A+ or A main-line read graded against a consensus of three or more other books still holds its edge at the best price now.')]),
    ...(first && last ? [paragraph(`First tip ${clockET(first)}, last tip ${clockET(last)}.`)] : []),
  ];
  return {
    draft: {
      headline: `MORNING WIRE, ${day}: ${boards.map((b) => b.headline).join(', ')}`,
      body,
      thread: [opening, ...(gradesLine ? [gradesLine] : []), CLAIM_LINE, ...reads],
      wire: [...boards.map((b) => b.wire), ...reads],
      numbers: [...boards.flatMap((b) => b.numbers), ...counts.map((c) => `${c.grade} main-line rows: ${count(c.rows.length)}`)],
      brief,
    },
  };
}

export function signal(facts: ContentFacts): TemplateResult {
  if (facts.slates.length === 0) return { omit: noSlate(facts) };
  const [top] = strongestReads(facts.slates, 1);
  if (!top) return { omit: `no A+ or A main-line read on the ${facts.date} slate was graded against a consensus of three or more other books at a price that is not an outlier and still holds its edge at the best price now` };
  const brief = new Brief();
  const day = dayText(facts.date);
  const src = rowsSource('graded_rows', [top], `graded row ${top.id}`);
  const sentence = `${readSentence(brief, 'signal', top)}.`;
  const vs = top.opponent ? ` against ${top.opponent}` : '';
  const game = `${top.awayTeam} @ ${top.homeTeam}, ${clockET(top.commenceTime)}`;
  const band = GRADE_BANDS[top.grade ?? ''] ?? '';
  // The grade's own price, book, fair and time: the claim, never the price on the board now.
  const claim = claimFigures(brief, 'signal', top);
  const sample = top.sampleSize === null ? '' : ` from ${brief.add('signal.sample', 'games of history behind the projection', top.sampleSize, plural(top.sampleSize, 'game'), null, src)} of the player's history`;
  const projection =
    top.projection === null
      ? 'No projection figure is stored for this row.'
      : top.projectionAgrees === false
        ? `The model projects ${oneDecimal(top.projection)} ${statWords(top.statType)}${sample}: that points to the ${top.side === 'over' ? 'under' : 'over'}, the other side of this read. The grade rests on the price alone.`
        : `The model projects ${oneDecimal(top.projection)} ${statWords(top.statType)}${sample}. The grade rests on the price against the market, not on the projection alone.`;
  const fairText = claim.fair === null ? '' : ` The market's fair price for the same side then, the no-vig consensus of ${claim.books ?? 'the'} other books at ${lineText(top.line)}, was ${claim.fair}.`;
  const priceLine = `The price: ${claim.price}, graded ${claim.time}.${fairText} Grade ${top.grade}: the claim is ${band}.`;
  const now = nowSentence(brief, 'signal', top);
  const nowLine = now === null ? null : `${now}.`;
  const caveat = 'What it is not: a promise about the result. Graded prices lose often; the public record shows how each grade has done.';
  return {
    draft: {
      headline: `SIGNAL, ${day}: ${propText(top)}, ${top.grade} at ${claim.price} as graded ${claim.time}`,
      body: [paragraph(`SIGNAL for ${day}: ${propText(top)}${vs} (${game}).`), paragraph(priceLine), ...(nowLine ? [paragraph(nowLine)] : []), paragraph(projection), paragraph(caveat)],
      thread: [`SIGNAL, ${day}: ${propText(top)}${vs}, ${game}.`, priceLine, ...(nowLine ? [nowLine] : []), projection, 'A claim about the price, not a promise about the result.'],
      wire: [sentence],
      numbers: [
        `line: ${lineText(top.line)}`,
        `graded price: ${claim.price}`,
        `graded at: ${claim.time}`,
        ...(claim.fair === null ? [] : [`fair price when graded: ${claim.fair}`]),
        ...(claim.books === null ? [] : [`consensus books when graded: ${claim.books}`]),
        ...(top.bookOdds === null || nowLine === null ? [] : [`price now (${clockET(top.takenAt)}): ${american(top.bookOdds)} (${top.book})`]),
        ...(top.projection === null ? [] : [`projection: ${oneDecimal(top.projection)}${top.projectionAgrees === false ? ' (the other side of the line)' : ''}`]),
        `grade: ${top.grade}`,
      ],
      brief,
    },
  };
}

export function lineDispatch(facts: ContentFacts, inFull = MOVES_IN_FULL): TemplateResult {
  if (facts.slates.length === 0) return { omit: noSlate(facts) };
  const moved = facts.slates.filter((s) => s.previous !== null);
  if (moved.length === 0) return { omit: `only one snapshot of the ${facts.date} slate is stored, so no line can have moved yet` };
  const moves = lineMoves(moved);
  if (moves.length === 0) return { omit: `no main line moved between the last two snapshots of the ${facts.date} slate` };
  const brief = new Brief();
  const day = dayText(facts.date);
  const windows = moved.map((s) => `${sportName(s.sport)} boards of ${clockET(s.previous?.takenAt ?? s.takenAt)} and ${clockET(s.takenAt)}`);
  const items = moves.map((m, i) => {
    const key = `move_${i + 1}`;
    const src = rowsSource('graded_rows', m.sides, `the moved main line, ${m.player} ${m.statType}, both sides`);
    const from = brief.add(`${key}.previous_line`, `${m.player} ${m.statType} previous line`, m.previousLine, lineText(m.previousLine), null, src);
    const to = brief.add(`${key}.line`, `${m.player} ${m.statType} line`, m.line, lineText(m.line), null, src);
    const toward = m.direction === null || m.projection === null ? '' : `, ${m.direction === 'away' ? 'away from' : 'toward'} the projection of ${brief.add(`${key}.projection`, `${m.player} ${m.statType} projection`, m.projection, oneDecimal(m.projection), null, src)} ${statWords(m.statType)}`;
    // Each side's grade with the price, book and time it was graded on; the price now beside it only as now.
    const sides = m.sides.filter(hasClaimPrice).map((s) => {
      const claim = claimFigures(brief, `${key}.${s.side}`, s);
      const { book, bookOdds } = s;
      const moved = bookOdds !== null && book !== null && (book !== s.lockedBook || bookOdds !== s.lockedOdds);
      const now = moved
        ? `, now ${brief.add(`${key}.${s.side}.price_now`, `${m.player} ${s.side} best price now, at ${book}`, bookOdds, american(bookOdds), null, rowsSource('graded_rows', [s], `graded row ${s.id}: book_odds at ${s.takenAt}`))} (${book})${s.edgeNow === null ? '' : `, where ${EDGE_WORDS[s.edgeNow]}`}`
        : '';
      return `${s.side} ${s.grade} at ${claim.price} as graded ${claim.time}${now}`;
    });
    return {
      text: `${m.player}${m.team ? ` (${m.team})` : ''} ${statWords(m.statType)} ${from} to ${to}${toward}${sides.length ? `; ${sides.join('; ')}` : ''}.`,
      short: `${m.player} ${statWords(m.statType)} ${from} to ${to}`,
      wire: `${m.player} ${statWords(m.statType)} ${lineText(m.previousLine)} to ${lineText(m.line)} (${m.game})`,
      numbers: `${m.player} ${m.statType}: ${lineText(m.previousLine)} to ${lineText(m.line)}`,
    };
  });
  const n = brief.add('moves', 'main lines that moved', moves.length, plural(moves.length, 'main line'), moves.length, rowsSource('graded_rows', moves.flatMap((m) => m.sides), 'main-line rows with a line delta since the previous snapshot'));
  // The largest moves with their grades in full; every smaller one is still named, shorter, so no move is dropped.
  const full = items.slice(0, inFull);
  const others = items.slice(inFull);
  const opening = `LINE DISPATCH for ${day}: ${n} moved between the ${listJoin(windows)}${others.length > 0 ? `; the ${count(full.length)} largest in full, then the other ${count(others.length)}` : ''}.`;
  const rest = others.length > 0 ? `The other ${count(others.length)}, smaller: ${listJoin(others.map((i) => i.short))}.` : null;
  return {
    draft: {
      headline: `LINE DISPATCH, ${day}: ${n} moved`,
      body: [
        paragraph(opening),
        list(full.map((i) => i.text)),
        ...(rest ? [paragraph(rest)] : []),
        paragraph('Each number keeps the grade it was first given, at the price and time shown (a new main line may have been graded earlier as an alternate line); the old number stays on the record at its own grade.'),
      ],
      thread: [opening, ...full.map((i) => i.text), ...(rest ? [rest] : [])],
      wire: items.map((i) => i.wire),
      numbers: [`main lines moved: ${count(moves.length)}`, ...items.map((i) => i.numbers)],
      brief,
    },
  };
}

export function archetypeWatch(facts: ContentFacts, inFull = TYPES_IN_FULL): TemplateResult {
  const today = facts.slates.flatMap(gradedMainLines).filter((r) => r.archetype !== null && (r.grade === 'A+' || r.grade === 'A' || r.grade === 'B'));
  if (today.length === 0) {
    return { omit: facts.slates.length === 0 ? noSlate(facts) : `no A+ to B main-line read on the ${facts.date} slate carries an archetype` };
  }
  const settled = facts.record.filter((e) => e.archetype !== null && (e.outcome === 'hit' || e.outcome === 'miss'));
  const brief = new Brief();
  const day = dayText(facts.date);
  const groups = new Map<string, SlateRowFact[]>();
  for (const r of today) groups.set(r.archetype ?? '', [...(groups.get(r.archetype ?? '') ?? []), r]);
  const ranked = [...groups.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const items = ranked.map(([id, rows], i) => {
    const key = `archetype_${i + 1}`;
    const label = archetypeLabel(id);
    const players = [...new Set(rows.map((r) => r.player))];
    const reads = brief.add(`${key}.reads`, `${label} A+ to B main-line reads today`, rows.length, plural(rows.length, 'read'), rows.length, rowsSource('graded_rows', rows, `A+ to B main-line rows with archetype ${id}`));
    const decided = settled.filter((e) => e.archetype === id);
    const hits = decided.filter((e) => e.outcome === 'hit').length;
    const src = rowsSource('ledger_entries', decided, `settled public entries (hit or miss) whose grade carried archetype ${id}, ${facts.window.from} to ${facts.window.to}`);
    const rec =
      decided.length === 0
        ? 'no settled read yet'
        : `${recordText(brief, `${key}.record`, `${label} 30-day record`, hits, decided.length - hits, src)}, ${rateText(brief, `${key}.hit_rate`, `${label} 30-day hit rate`, hits, decided.length, src)}`;
    const names = `${players.slice(0, 3).join(', ')}${players.length > 3 ? ` and ${plural(players.length - 3, 'other')}` : ''}`;
    return {
      text: `${label}: ${reads} today (${names}); 30-day record ${rec}.`,
      short: `${label} (${reads})`,
      wire: `${label}: ${plural(rows.length, 'A+ to B read')} on ${shortDay(facts.date)}`,
      numbers: `${label}: ${count(rows.length)} reads today; ${decided.length === 0 ? 'no settled read' : `${hits}-${decided.length - hits} settled (n=${count(decided.length)})`}`,
    };
  });
  const lead = ranked[0];
  // The types with the most reads in full; every other type is still named with its count.
  const full = items.slice(0, inFull);
  const others = items.slice(inFull);
  const types = brief.add('types', 'player types with an A+ to B main-line read today', ranked.length, plural(ranked.length, 'player type'), ranked.length, rowsSource('graded_rows', today, 'A+ to B main-line rows with an archetype'));
  const opening = `ARCHETYPE WATCH for ${day}: the ${types} with A+ to B main-line reads on the board, most reads first${others.length > 0 ? ` (the ${count(full.length)} with the most in full, then the other ${count(others.length)})` : ''}, and how the public record has done on each type over 30 days.`;
  const rest = others.length > 0 ? `The other ${count(others.length)}: ${listJoin(others.map((i) => i.short))}.` : null;
  return {
    draft: {
      headline: `ARCHETYPE WATCH, ${day}: ${lead ? `${archetypeLabel(lead[0])}, ${plural(lead[1].length, 'read')}` : ''}`,
      body: [
        paragraph(opening),
        list(full.map((i) => i.text)),
        ...(rest ? [paragraph(rest)] : []),
        paragraph("Archetypes come from each player's own box-score rates (docs/archetypes.md). Many reads on one type means the prices disagree with the market there most often, not that the type is due."),
      ],
      thread: [opening, ...full.map((i) => i.text), ...(rest ? [rest] : [])],
      wire: items.map((i) => i.wire),
      numbers: items.map((i) => i.numbers),
      brief,
    },
  };
}
