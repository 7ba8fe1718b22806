import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import twitter from 'twitter-text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createUser } from '../../src/accounts/users.js';
import { loopStore, NOON, type LoopStore } from '../content/_loop.js';
import { startServer, type Running } from './_harness.js';

/** Debian's chromium package; CI installs it. Without it this file is skipped and says why. */
const CHROMIUM = '/usr/bin/chromium';
const OUTPUT = 'test/.output';
const PHONE = { width: 390, height: 844 };
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`content-desk-page: skipped, ${CHROMIUM} is not installed (apt-get install chromium)`);

describe.skipIf(!hasChromium)('founder desk page in headless Chromium (phone width)', () => {
  let loop: LoopStore;
  let server: Running;
  let context: BrowserContext;
  let profile: string;
  const cspErrors: string[] = [];

  beforeAll(async () => {
    loop = await loopStore('settled');
    const now = new Date(NOON);
    const { token } = await createUser(loop.store, { email: 'founder@propgrade.test', tier: 'free' }, now);
    server = await startServer({ store: loop.store, config: loadConfig({ DESK_ALLOWLIST: 'founder@propgrade.test' }), now: () => now, runSnapshot: async () => [] });
    profile = mkdtempSync(join(tmpdir(), 'pg-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      viewport: PHONE,
      extraHTTPHeaders: { authorization: `Bearer ${token}` },
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    loop?.cleanup();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('renders every template, every post within 280 with its count, and working copy buttons', async () => {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    const res = await page.goto(`${server.base}/desk`);
    expect(res?.status()).toBe(200);

    // All seven templates, each ready or marked omitted with its reason.
    const sections = await page.$$eval('section.template', (els) =>
      els.map((e) => ({ id: e.getAttribute('data-template'), status: e.getAttribute('data-status'), reason: e.querySelector('.reason')?.textContent ?? null })),
    );
    expect(sections.map((s) => s.id)).toEqual(['morning_wire', 'signal', 'streak_watch', 'the_settle', 'receipts', 'archetype_watch', 'line_dispatch']);
    for (const s of sections) {
      expect(['ready', 'omitted']).toContain(s.status);
      if (s.status === 'omitted') expect(s.reason?.length ?? 0).toBeGreaterThan(10);
    }
    expect(sections.find((s) => s.id === 'streak_watch')?.status).toBe('omitted');

    // Every post: shown count = twitter-text's weighted length of the rendered text, at most 280.
    const tweets = await page.$$eval('li.tweet', (els) => els.map((e) => ({ weighted: Number(e.getAttribute('data-weighted')), text: e.querySelector('p')?.textContent ?? '', count: e.querySelector('.count')?.textContent ?? '' })));
    expect(tweets.length).toBeGreaterThan(10);
    for (const t of tweets) {
      expect(t.weighted).toBeLessThanOrEqual(280);
      expect(twitter.parseTweet(t.text).weightedLength).toBe(t.weighted);
      expect(t.count).toBe(`${t.weighted}/280`);
    }

    // Variants and the data brief under each ready template.
    const ready = sections.filter((s) => s.status === 'ready').length;
    expect(await page.locator('details[data-variant="wire"]').count()).toBe(ready);
    expect(await page.locator('details[data-variant="numbers"]').count()).toBe(ready);
    expect(await page.locator('details.brief').count()).toBe(ready);

    // The copy button puts the post's exact text on the clipboard and says so.
    const first = page.locator('li.tweet').first();
    await first.locator('button.copy').click();
    await expect.poll(() => first.locator('button.copy').getAttribute('data-copied')).toBe('true');
    expect(await first.locator('.copy-status').textContent()).toBe('Copied');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(tweets[0]?.text);
    const thread = page.locator('#signal button.copy', { hasText: 'Copy thread' });
    await thread.click();
    await expect.poll(() => thread.getAttribute('data-copied')).toBe('true');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toContain('SIGNAL');

    // Readable on a phone: nothing wider than the viewport, and the CSP blocked nothing the page needs.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    expect(cspErrors, cspErrors.join("\n")).toEqual([]);

    mkdirSync(OUTPUT, { recursive: true });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(OUTPUT, 'desk.png'), fullPage: false });
    await page.locator('#signal').screenshot({ path: join(OUTPUT, 'desk-signal.png') });
    await page.close();
  }, 60_000);
});
