/**
 * Helpers the season builders share (plain Node ESM, no build step, so nothing from src/): replay
 * keys, deterministic sorting, dates, ESPN's basketball box-score column set and a manifest writer.
 * Values are never computed here; these only shape real values into the providers' response forms.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Same key format as src/feeds/transport/replay-key.ts (test/data/replay.test.ts keeps them equal). */
export function replayKey({ provider, url }) {
  const CREDENTIAL_PARAMS = new Set(['apikey', 'api_key', 'key', 'token', 'access_token']);
  const u = new URL(url);
  const params = [...u.searchParams.entries()]
    .filter(([name]) => !CREDENTIAL_PARAMS.has(name.toLowerCase()))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${provider} GET ${u.origin}${u.pathname}${query ? `?${query}` : ''}`;
}

/** Code-unit comparison: locale-independent, so the output never depends on the machine. */
export function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function byKeys(...getters) {
  return (x, y) => {
    for (const get of getters) {
      const a = get(x);
      const b = get(y);
      const c = typeof a === 'number' && typeof b === 'number' ? a - b : cmp(String(a), String(b));
      if (c !== 0) return c;
    }
    return 0;
  };
}

const ET_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' });

/** US Eastern calendar date of a UTC instant (the slate date). */
export function etDate(isoUtc) {
  return ET_DATE.format(new Date(isoUtc));
}

export function nextDay(date) {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** ESPN writes event dates as UTC without seconds ("2025-11-06T00:00Z"). */
export function espnDate(isoUtc) {
  return `${isoUtc.slice(0, 16)}Z`;
}

export function writeFile(outDir, rel, text) {
  const full = path.join(outDir, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

export const JSON_HEADERS = { 'content-type': 'application/json' };

/** The boxscore column set of a real ESPN basketball summary (the NBA replay copies the same one). */
export const BOX_NAMES = ['MIN', 'FG', '3PT', 'FT', 'OREB', 'DREB', 'REB', 'AST', 'STL', 'BLK', 'TO', 'PF', '+/-', 'PTS'];
export const BOX_KEYS = [
  'minutes',
  'fieldGoalsMade-fieldGoalsAttempted',
  'threePointFieldGoalsMade-threePointFieldGoalsAttempted',
  'freeThrowsMade-freeThrowsAttempted',
  'offensiveRebounds',
  'defensiveRebounds',
  'rebounds',
  'assists',
  'steals',
  'blocks',
  'turnovers',
  'fouls',
  'plusMinus',
  'points',
];

export const FINAL_STATUS = {
  type: { id: '3', name: 'STATUS_FINAL', state: 'post', completed: true, description: 'Final' },
};

/** A recording sink: writes each body under outDir and collects its manifest entry. */
export function recorder(outDir) {
  const entries = [];
  return {
    entries,
    add(provider, url, file, body, recordedAt) {
      writeFile(outDir, file, body);
      entries.push({ key: replayKey({ provider, url }), provider, url, file, status: 200, headers: JSON_HEADERS, recordedAt });
    },
  };
}

/** Writes a season folder's manifest: entries sorted, the clock at the first recording. */
export function writeManifest(outDir, { entries, seed, defaultNow, season }) {
  entries.sort(byKeys((e) => e.key, (e) => e.recordedAt));
  const manifest = { version: 1, defaultNow, seed, season, entries };
  writeFile(outDir, 'manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
}
