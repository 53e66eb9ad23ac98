// `tickwire demo --html FILE` opened in headless Chromium as a person would open it: the page loads
// from file:// with no console error, no page error and no request at all beyond itself; the
// report's table is there; each of its seven plots is an SVG with at least one drawn line that the
// browser laid out with a size; and a full-page screenshot is not blank (saved with
// TICKWIRE_SCREENSHOT_DIR). TICKWIRE_DEMO_ARGS replaces the short run's flags, e.g.
// "--bots 16 --seconds 20" for the README's picture (docs/images/demo-report.png).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { checkScreenshot, launchBrowser, runTickwire, watchPage } from './lib/browser.mjs';

const PLOTS = 7;  // six per-client figures and the server's tick cost (apps/tickwire/demo_html.cpp)

test('the demo HTML report renders in Chromium', { timeout: 240000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tickwire-demo-html-'));
  const browser = await launchBrowser();  // first: a missing Chromium fails before the demo runs
  try {
    const html = join(dir, 'demo.html');
    const flags = (process.env.TICKWIRE_DEMO_ARGS || '--bots 4 --seconds 6').split(/\s+/).filter(Boolean);
    const run = await runTickwire(['demo', ...flags, '--html', html], 180000);
    assert.equal(run.code, 0, `tickwire demo failed:\n${run.stdout}\n${run.stderr}`);
    console.log(run.stdout);
    console.log(`demo.html: ${statSync(html).size} bytes`);

    const page = await browser.newPage();
    const watch = watchPage(page);
    await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });

    const rows = await page.$$eval('table.report tr', (trs) => trs.map((tr) => tr.querySelector('th')?.textContent));
    assert.ok(rows.length >= 10, `the report's table has ${rows.length} rows`);
    assert.equal(rows[0], 'clients connected');
    assert.ok(rows.includes('server tick cost'));

    const plots = await page.$$eval('svg.plot', (svgs) => svgs.map((svg) => {
      const drawn = [...svg.querySelectorAll('polyline, path')].filter((line) => {
        const points = (line.getAttribute('points') ?? line.getAttribute('d') ?? '').trim().split(/\s+/);
        const box = line.getBoundingClientRect();
        return points.length >= 2 && box.width > 0;
      });
      return { title: svg.querySelector('title')?.textContent, drawn: drawn.length, width: svg.getBoundingClientRect().width };
    }));
    assert.equal(plots.length, PLOTS, JSON.stringify(plots));
    for (const plot of plots) {
      assert.ok(plot.drawn >= 1, `plot "${plot.title}" draws no line`);
      assert.ok(plot.width > 100, `plot "${plot.title}" is ${plot.width} px wide`);
    }
    assert.equal(await page.locator('script').count(), 0, 'the report has no script');

    const figures = await checkScreenshot(page, 'demo-report');
    console.log(`screenshot: ${JSON.stringify(figures)}`);
    watch.assertClean();
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
