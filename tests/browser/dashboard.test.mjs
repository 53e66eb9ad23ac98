// `tickwire server --http` with bots in its room, its dashboard opened in headless Chromium as an
// operator would: the page loads with no console error, no page error and no request leaving the
// machine; the top-down view draws every bot's pawn and the drawn positions change between two
// reads (the bots move); the net graph's rows update; clicking a client opens its graphs and the
// snapshot inspector, which takes a snapshot apart into sections and records; a screenshot is not
// blank (saved with TICKWIRE_SCREENSHOT_DIR). TICKWIRE_DASHBOARD_BOTS sets the bots (4; 16 for the
// picture in docs/images/dashboard.png).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { checkScreenshot, freeUdpPort, launchBrowser, runTickwire, startTickwire, watchPage } from './lib/browser.mjs';

const BOTS = Number(process.env.TICKWIRE_DASHBOARD_BOTS || 4);

test('the server dashboard shows the room, its clients and a snapshot taken apart', { timeout: 240000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tickwire-dashboard-'));
  const browser = await launchBrowser();
  let server, bots;
  try {
    const key = join(dir, 'server.key');
    assert.equal((await runTickwire(['keygen', '--out', key])).code, 0);
    const port = String(await freeUdpPort());
    server = startTickwire(['server', '--key', key, '--port', port, '--http', '0', '--stats-interval', '1']);
    const ready = JSON.parse(await server.waitForLine((l) => l.includes('"type":"ready"'), 30000));
    assert.match(ready.http, /^127\.0\.0\.1:\d+$/);
    bots = startTickwire(['bot', '--server', `127.0.0.1:${port}`, '--key', key, '--count', String(BOTS), '--seconds', '90',
      '--behaviour', 'wander']);

    const page = await browser.newPage();
    const watch = watchPage(page);
    await page.goto(`http://${ready.http}/`, { waitUntil: 'load' });
    await page.waitForFunction((n) => {
      const d = window.tickwireDashboard;
      return d && d.room && d.drawn.filter((e) => e.owner !== 0).length >= n && d.room.clients.length >= n;
    }, BOTS, { timeout: 60000 });
    const pawns = () => page.evaluate(() => window.tickwireDashboard.drawn.filter((e) => e.owner !== 0));
    const before = await pawns();
    assert.equal(before.length, BOTS, JSON.stringify(before));
    await page.waitForTimeout(1500);
    const after = await pawns();
    const moved = after.filter((a) => {
      const b = before.find((p) => p.id === a.id);
      return b && Math.hypot(a.x - b.x, a.z - b.z) > 1;
    });
    assert.ok(moved.length >= 1, `no pawn moved on the map: ${JSON.stringify({ before, after })}`);

    const lines = await page.$eval('#f-lines', (e) => Number(e.textContent));
    assert.equal(await page.$$eval('#clients tr[data-owner]', (rows) => rows.length), BOTS);
    await page.waitForFunction((n) => Number(document.querySelector('#f-lines').textContent) > n + 5, lines);
    const downRates = await page.$$eval('#clients tr[data-owner]', (rows) => rows.map((r) => Number(r.children[3].textContent)));
    assert.ok(downRates.every((v) => v > 0), `every client's bandwidth down is shown: ${downRates}`);

    await page.click('#clients tr[data-owner]');
    assert.equal(await page.isVisible('#detail'), true);
    await page.waitForSelector('#i-records tr[data-record]', { timeout: 20000 });
    const sections = await page.$$eval('#i-bar div', (parts) => parts.map((p) => p.dataset.section));
    assert.deepEqual(sections, ['header', 'entities', 'objects', 'removals', 'skips']);
    assert.match(await page.$eval('#i-title', (e) => e.textContent), /client \d+, tick \d+: \d+ bytes/);
    const records = await page.$$eval('#i-records tr[data-record]', (rows) => rows.map((r) => Number(r.children[3].textContent)));
    assert.ok(records.length >= 1 && records.every((bits) => bits > 0), JSON.stringify(records));

    const shot = await checkScreenshot(page, 'dashboard');
    console.log(`dashboard: ${BOTS} bots, ${moved.length} pawns moved in 1.5 s, screenshot ${JSON.stringify(shot)}`);
    watch.assertClean();
  } finally {
    if (bots) await bots.stop();
    if (server) await server.stop();
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
