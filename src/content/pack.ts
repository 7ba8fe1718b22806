import { blocksToText, type Block, type Figure } from './document.js';
import type { ContentFacts } from '../domain/facts.js';
import { assertEditorial, EditorialError } from './rules.js';
import { archetypeWatch, lineDispatch, morningWire, signal } from './templates/slate.js';
import { receipts, streakWatch, theSettle } from './templates/record.js';
import { RG_LINE, TEMPLATE_IDS, TEMPLATE_NAMES, type TemplateBuilder, type TemplateId } from './template.js';
import { segmentThread, type Tweet } from './tweets.js';

/**
 * The content desk pack (spec "Content desk pack"): the seven templates, each written from the
 * stored facts or omitted with the reason it has nothing real to say. Pure: facts in, pack out.
 */

export interface ReadyTemplate {
  id: TemplateId;
  name: string;
  status: 'ready';
  headline: string;
  /** The long copy, structured (the desk page and the Ghost drafts render it to HTML). */
  body: Block[];
  /** The long copy as plain text. */
  long: string;
  /** The tweet thread: every post at most 280 by twitter-text's weighted length. */
  thread: Tweet[];
  /** Wire-only variant: one-line items for the news wire. */
  wire: string[];
  /** Numbers-only variant: the figures, one per line. */
  numbers: string[];
  /** Every figure the copy printed, with its source rows and n. */
  brief: Figure[];
}

export interface OmittedTemplate {
  id: TemplateId;
  name: string;
  status: 'omitted';
  reason: string;
}

export type PackTemplate = ReadyTemplate | OmittedTemplate;

export interface DeskPack {
  date: string;
  generatedAt: string;
  /** What the pack was written from. */
  sources: { snapshots: Array<{ sport: string; snapshotId: number; takenAt: string }>; settleDate: string | null; window: { from: string; to: string } };
  templates: PackTemplate[];
  ready: number;
  omitted: Array<{ id: TemplateId; name: string; reason: string }>;
}

const BUILDERS: Readonly<Record<TemplateId, TemplateBuilder>> = {
  morning_wire: morningWire,
  signal,
  streak_watch: streakWatch,
  the_settle: theSettle,
  receipts,
  archetype_watch: archetypeWatch,
  line_dispatch: lineDispatch,
};

/** Every part of a ready template the editorial rules cover. */
export function templateParts(t: ReadyTemplate): Record<string, string> {
  const parts: Record<string, string> = { headline: t.headline, long: t.long, wire: t.wire.join('\n'), numbers: t.numbers.join('\n') };
  for (const tweet of t.thread) parts[`tweet ${tweet.n}`] = tweet.text;
  parts['brief labels'] = t.brief.map((f) => `${f.label} ${f.display} ${f.source.where}`).join('\n');
  return parts;
}

function buildTemplate(id: TemplateId, facts: ContentFacts): PackTemplate {
  const name = TEMPLATE_NAMES[id];
  const result = BUILDERS[id](facts);
  if ('omit' in result) return { id, name, status: 'omitted', reason: result.omit };
  const d = result.draft;
  const ready: ReadyTemplate = {
    id,
    name,
    status: 'ready',
    headline: d.headline,
    body: d.body,
    long: blocksToText(d.body),
    thread: segmentThread([...d.thread, RG_LINE]),
    wire: d.wire,
    numbers: d.numbers,
    brief: d.brief.figures,
  };
  try {
    assertEditorial(`${name} (${facts.date})`, templateParts(ready));
  } catch (error) {
    // A template that breaks the rules is refused, not published; the rest of the pack stands.
    if (error instanceof EditorialError) return { id, name, status: 'omitted', reason: error.message };
    throw error;
  }
  return ready;
}

/** The pack for `facts.date`: all seven templates in order, ready or omitted with the reason. */
export function buildDeskPack(facts: ContentFacts): DeskPack {
  const templates = TEMPLATE_IDS.map((id) => buildTemplate(id, facts));
  return {
    date: facts.date,
    generatedAt: facts.now,
    sources: {
      snapshots: facts.slates.map((s) => ({ sport: s.sport, snapshotId: s.snapshotId, takenAt: s.takenAt })),
      settleDate: facts.settleDate,
      window: facts.window,
    },
    templates,
    ready: templates.filter((t) => t.status === 'ready').length,
    omitted: templates.filter((t): t is OmittedTemplate => t.status === 'omitted').map(({ id, name, reason }) => ({ id, name, reason })),
  };
}
