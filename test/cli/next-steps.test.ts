import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { readClock, requestClock } from '../../src/reads/read-clock.js';
import { openStore } from '../../src/store/db.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';
import { startServer, type Running } from '../server/_harness.js';

/** `npx propgrade scan --player "A B" --stat x  # note` -> ['scan', '--player', 'A B', '--stat', 'x']. */
function argvOf(line: string): string[] {
  const command = line.replace(/\s+#.*$/, '').trim();
  expect(command.startsWith('npx propgrade '), line).toBe(true);
  const words = command.slice('npx propgrade '.length).match(/"[^"]*"|\S+/g) ?? [];
  return words.map((w) => (w.startsWith('"') ? w.slice(1, -1) : w));
}

interface SlateRowJson {
  player: string;
  stat_type: string;
  line: number;
  side: string;
  grade: string | null;
  main_line: boolean;
  book_odds: number | null;
  locked_odds: number | null;
}

describe('the Next lines of `snapshot all` on the bundled recording, each sport on its own clock', () => {
  let dir: string;
  let db: string;
  let snap: CliRun;
  const cli = (argv: string[]) => runCli(['--db', db, ...argv], { NO_COLOR: '1' });
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-next-'));
    db = join(dir, 'pg.sqlite');
    await seededStoreFile(db);
    snap = await runCli(['--db', db, 'snapshot', 'all', '--replay', 'data/replay'], { NO_COLOR: '1' });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints, for every sport, a slate, a scan and a settle line that run as printed; every scan grades', async () => {
    expect(snap.code, snap.stderr).toBe(0);
    const next = snap.stdout.split('\n');
    const at = next.indexOf('Next:');
    expect(at).toBeGreaterThan(0);
    const lines = next.slice(at + 1).filter((l) => l.startsWith('  npx propgrade '));
    const scans = lines.filter((l) => l.includes('propgrade scan '));
    // One scan per graded sport of the recording: MLB (2025-08-16), NBA (2025-11-05), WNBA (2024-06-02), the EPL (2025-08-30).
    expect(scans.map((l) => argvOf(l).at(-1)).sort()).toEqual(['mlb', 'nba', 'soccer', 'wnba']);
    expect(lines.filter((l) => l.includes('propgrade slate ')).length).toBe(4);
    expect(lines.filter((l) => l.includes('propgrade settle ')).length).toBe(4);
    for (const line of lines) {
      const run = await cli(argvOf(line));
      expect(run.code, `${line}\n${run.stderr}`).toBe(0);
      if (!line.includes('propgrade scan ')) continue;
      // The table as printed grades (no refusal) and the JSON of the same scan says graded, with a letter.
      expect(run.stdout, line).not.toContain('Refused');
      const json = await cli([...argvOf(line), '--json']);
      const result = JSON.parse(json.stdout) as { status: string; grade: string | null; sport: string };
      expect(result.status, line).toBe('graded');
      expect(result.grade, line).toMatch(/^(A\+|A|B|C|D|F)$/);
      // The clock line names the sport it read.
      expect(run.stderr).toContain(`clock (${result.sport}): `);
    }
  }, 240_000);

  it('reads each sport at its own newest snapshot and says so', async () => {
    const wnba = await cli(['slate', 'wnba']);
    expect(wnba.stderr).toContain('clock (wnba): 2024-06-02T11:00:00.000Z, the time of the newest wnba snapshot');
    const mlb = await cli(['slate', 'mlb']);
    expect(mlb.stderr).toContain('clock (mlb): 2025-08-16T16:25:00.000Z, the time of the newest mlb snapshot');
    // A read across sports names every sport's clock.
    const record = await cli(['record']);
    expect(record.stderr).toMatch(/clock \(each sport its own\): nba 2025-11-05T17:05:00\.000Z, .*wnba 2024-06-02T11:00:00\.000Z/);
    // Across sports each sport's window ends on its own clock: every pre-graded entry of the run (settled by the Next lines or not) is in the record.
    expect(record.stdout).toContain("each sport's 30 days end on its own clock: mlb 2025-07-18 to 2025-08-16, nba 2025-10-07 to 2025-11-05, wnba 2024-05-04 to 2024-06-02");
    const inserted = [...snap.stdout.matchAll(/│ (?:mlb|nba|wnba|soccer) +│ ok +│(?: *\d+ *│){6} *(\d+) *│/g)].map((m) => Number(m[1]));
    expect(inserted).toHaveLength(4);
    const all = JSON.parse((await cli(['record', '--json'])).stdout) as { aggregate: { counts: { entries: number } } };
    expect(all.aggregate.counts.entries).toBe(inserted.reduce((a, b) => a + b, 0));
    // --now still pins every sport: a WNBA scan at the NBA's 2025 day has no game to price.
    const pinned = await cli(['scan', '--player', 'Napheesa Collier', '--stat', 'rebounds', '--line', '10.5', '--direction', 'under', '--now', '2025-11-05T17:05:00Z', '--json']);
    expect((JSON.parse(pinned.stdout) as { status: string }).status).toBe('refused');
  });

  it('scans one graded slate row of each sport to the same letter', async () => {
    for (const sport of ['nba', 'wnba', 'mlb']) {
      const slate = JSON.parse((await cli(['slate', sport, '--all', '--json'])).stdout) as { games: Array<{ rows: SlateRowJson[] }> };
      // A main line still at its locked price: the scan grades the same price the slate's letter was locked on.
      const row = slate.games.flatMap((g) => g.rows).find((r) => r.grade !== null && r.main_line && r.book_odds !== null && r.book_odds === r.locked_odds);
      expect(row, sport).toBeDefined();
      if (!row) continue;
      const scan = await cli(['scan', '--player', row.player, '--stat', row.stat_type, '--line', String(row.line), '--direction', row.side, '--sport', sport, '--json']);
      const result = JSON.parse(scan.stdout) as { status: string; grade: string | null };
      expect(result.status, `${sport} ${row.player}`).toBe('graded');
      expect(result.grade, `${sport} ${row.player} ${row.stat_type} ${row.line} ${row.side}`).toBe(row.grade);
    }
  }, 120_000);

  describe('POST /api/scan on the replayed store (the server reads each request at its sport clock)', () => {
    let running: Running;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const store = openStore(db);
      const config = loadConfig({});
      const clock = await readClock(store, null, new Date(), config.SNAPSHOT_EXPECTED_INTERVAL);
      expect(clock.source).toBe('replay_snapshot');
      running = await startServer({ store, config, now: requestClock(clock) });
      close = () => store.close();
    });
    afterAll(async () => {
      await running.close();
      await close();
    });

    it('grades Napheesa Collier as /api/snapshot/wnba shows her', async () => {
      const board = (await (await fetch(`${running.base}/api/snapshot/wnba`)).json()) as { games: Array<{ rows: SlateRowJson[] }> };
      const rows = board.games.flatMap((g) => g.rows).filter((r) => r.player === 'Napheesa Collier' && r.grade !== null && r.main_line && r.book_odds === r.locked_odds);
      const row = rows[0];
      expect(row).toBeDefined();
      if (!row) return;
      const reply = await fetch(`${running.base}/api/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ player: row.player, stat: row.stat_type, line: row.line, direction: row.side }),
      });
      expect(reply.status).toBe(200);
      const scan = (await reply.json()) as { status: string; grade: string | null; sport: string };
      expect(scan.sport).toBe('wnba');
      expect(scan.status).toBe('graded');
      expect(scan.grade).toBe(row.grade);
    });
  });
});
