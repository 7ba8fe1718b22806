import { describe, expect, it } from 'vitest';
import { ageText, freshnessText, isReplayed, type Freshness } from '../../src/domain/freshness.js';

/** The one freshness sentence every view prints (issue 41 item 8): fetched with an age live, recorded on a replay. */
const when = (iso: string) => `<${iso}>`;

describe('freshnessText', () => {
  it('live: fetched with its age', () => {
    const f: Freshness = { fetchedAt: '2025-11-05T17:03:00Z', ageSeconds: 120, stale: false };
    expect(isReplayed(f)).toBe(false);
    expect(freshnessText(f, 'box scores', when)).toEqual({ text: 'box scores fetched <2025-11-05T17:03:00Z> (age 2 min)', stale: false });
  });

  it('replay: recorded at the recording, read as of the data clock; no age and never "fetched"', () => {
    const f: Freshness = { replay: true, recordedAt: '2025-05-20T05:15:59Z', readAsOf: '2025-11-05T17:05:00.000Z', stale: false };
    expect(isReplayed(f)).toBe(true);
    const { text } = freshnessText(f, 'ESPN news', when);
    expect(text).toBe('ESPN news recorded <2025-05-20T05:15:59Z> (replayed, read as of <2025-11-05T17:05:00.000Z>)');
    expect(text).not.toMatch(/fetched|age/);
  });

  it('replay without a time in the manifest says so instead of inventing one', () => {
    const f: Freshness = { replay: true, recordedAt: null, readAsOf: '2025-11-05T17:05:00Z', stale: false };
    expect(freshnessText(f, 'roster', when).text).toBe('roster recorded at a time the replay manifest does not give (replayed, read as of <2025-11-05T17:05:00Z>)');
  });

  it('stale: the reason, live and replayed', () => {
    expect(freshnessText({ fetchedAt: '2025-11-05T15:00:00Z', ageSeconds: 7200, stale: true, staleReason: 'HTTP 503' }, 'outrights', when)).toEqual({
      text: 'outrights fetched <2025-11-05T15:00:00Z> (age 2 h), STALE: the provider failed (HTTP 503); this is the last good answer',
      stale: true,
    });
    expect(freshnessText({ replay: true, recordedAt: '2025-09-25T18:55:19Z', readAsOf: '2025-11-05T17:05:00Z', stale: true, staleReason: 'not in the recording' }, 'cards', when).text).toBe(
      'cards recorded <2025-09-25T18:55:19Z> (replayed, read as of <2025-11-05T17:05:00Z>), STALE: the provider failed (not in the recording); this is the last answer read from the recording',
    );
  });

  it('ageText: seconds below 90, minutes below 90, then hours', () => {
    expect([ageText(0), ageText(89), ageText(90), ageText(5399), ageText(5400)]).toEqual(['0 s', '89 s', '2 min', '90 min', '2 h']);
  });
});
