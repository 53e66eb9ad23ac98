// `tickwire bot --http` against a server, its page opened in headless Chromium: the page loads with
// no console error, no page error and no request leaving the machine; it follows the first bot and
// draws its predicted pawn, the server's answer (the ghost) and the other bots as drawn and as the
// newest snapshot holds them; the drawn positions change between two reads (the bots wander); the
// plots of the clock, held frames, snaps and corrections gain points; picking another bot follows
// it; a screenshot is not blank (saved as bot-dashboard.png with TICKWIRE_SCREENSHOT_DIR).
// TICKWIRE_BOT_DASHBOARD_BOTS sets the bots (3), TICKWIRE_BOT_DASHBOARD_SETTLE_S how long the page
// runs before its screenshot (0), TICKWIRE_BOT_DASHBOARD_LINK a conditioner profile the bots reach the
// server through (none; the picture in docs/images/bot-dashboard.png: 6 bots, broadband, 20 s).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { checkScreenshot, freeUdpPort, launchBrowser, runTickwire, startTickwire, watchPage } from './lib/browser.mjs';

const BOTS = Number(process.env.TICKWIRE_BOT_DASHBOARD_BOTS || 3);
const SETTLE_S = Number(process.env.TICKWIRE_BOT_DASHBOARD_SETTLE_S || 0);
const LINK = process.env.TICKWIRE_BOT_DASHBOARD_LINK || '';

test('the bots dashboard shows each client against the server and its clock over time', { timeout: 240000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tickwire-bot-dashboard-'));
  const browser = await launchBrowser();
  let server, link, bots;
  try {
    const key = join(dir, 'server.key');
    assert.equal((await runTickwire(['keygen', '--out', key])).code, 0);
    const linked = LINK ? `127.0.0.1:${await freeUdpPort()}` : '';  // the conditioner's: what the tokens list
    server = startTickwire(['server', '--key', key, '--port', String(await freeUdpPort()), ...(LINK ? ['--public', linked] : [])]);
    const ready = JSON.parse(await server.waitForLine((l) => l.includes('"type":"ready"'), 30000));
    let address = ready.address;
    if (LINK) {
      link = startTickwire(['conditioner', '--listen', linked, '--forward', ready.address, '--profile', LINK]);
      await link.waitForLine(/^conditioner: /, 10000);
      address = linked;
    }
    bots = startTickwire(['bot', '--server', address, '--key', key, '--count', String(BOTS), '--seconds', '90',
      '--behaviour', 'wander', '--http', '0']);
    const http = JSON.parse(await bots.waitForLine((l) => l.includes('"type":"http"'), 30000));
    assert.match(http.address, /^127\.0\.0\.1:\d+$/);

    const page = await browser.newPage();
    const watch = watchPage(page);
    await page.goto(`http://${http.address}/`, { waitUntil: 'load' });
    await page.waitForFunction((n) => {
      const d = window.tickwireBotDashboard;
      return d && d.line && d.line.clients.length === n && d.drawn && d.drawn.own && d.drawn.answer &&
        d.drawn.remotes.length >= 1 && d.drawn.newest.length >= 1;
    }, BOTS, { timeout: 60000 });
    const drawn = () => page.evaluate(() => window.tickwireBotDashboard.drawn);
    const before = await drawn();
    assert.equal(before.id, 1000, 'the first bot is followed');
    await page.waitForTimeout(1500);
    const after = await drawn();
    const moved = (a, b) => a && b && Math.hypot(a.wx - b.wx, a.wz - b.wz) > 0.05;
    const remotesMoved = after.remotes.filter((a) => moved(a, before.remotes.find((r) => r.id === a.id)));
    assert.ok(moved(after.own, before.own) || remotesMoved.length >= 1,
      `nothing drawn moved: ${JSON.stringify({ before, after })}`);
    // The ghost is the server's answer for the same pawn: near it, not somewhere else on the map.
    assert.ok(Math.hypot(after.own.wx - after.answer.wx, after.own.wz - after.answer.wz) < 5, JSON.stringify(after));

    const plotted = await page.evaluate(() => ({ ...window.tickwireBotDashboard.plotted }));
    assert.deepEqual(Object.keys(plotted).sort(), ['corr', 'held', 'margin', 'rate', 'snaps']);
    await page.waitForFunction((p) => {
      const now = window.tickwireBotDashboard.plotted;
      return Object.keys(p).every((k) => now[k] > p[k]);
    }, plotted, { timeout: 10000 });
    assert.equal(await page.$$eval('#clients tr[data-id]', (rows) => rows.length), BOTS);
    const rates = await page.$$eval('#clients tr[data-id]', (rows) => rows.map((r) => Number(r.children[3].textContent)));
    assert.ok(rates.every((v) => v > 0.5 && v < 1.5), `every clock rate is shown: ${rates}`);

    await page.click('#clients tr[data-id="1001"]');
    await page.waitForFunction(() => window.tickwireBotDashboard.drawn && window.tickwireBotDashboard.drawn.id === 1001);
    assert.equal(await page.$eval('#pick', (e) => e.value), '1001');

    if (SETTLE_S > 0) await page.waitForTimeout(SETTLE_S * 1000);
    const shot = await checkScreenshot(page, 'bot-dashboard');
    console.log(`bot dashboard: ${BOTS} bots, ${remotesMoved.length} remotes moved in 1.5 s, screenshot ${JSON.stringify(shot)}`);
    watch.assertClean();
  } finally {
    if (bots) await bots.stop();
    if (link) await link.stop();
    if (server) await server.stop();
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
