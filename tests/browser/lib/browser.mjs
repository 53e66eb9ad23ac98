// The browser tests' shared kit: Debian's headless Chromium driven by playwright-core (npm), and the
// checks every page test makes. Test tooling only; nothing here ships.
//
//   launchBrowser()          Chromium at /usr/bin/chromium (never a downloaded browser) with a fresh
//                            temporary profile; returns { context, newPage(), close() }. Fails with a
//                            clear message when Chromium or playwright-core is missing.
//   watchPage(page)          records console errors, uncaught page errors, failed requests and any
//                            request that leaves the machine; .assertClean() fails the test on any.
//   checkScreenshot(page, name)  a full-page PNG, decoded here (zlib is built in), must not be blank
//                            (enough distinct colours, enough pixels off the background); saved as
//                            $TICKWIRE_SCREENSHOT_DIR/<name>.png when that is set. Returns its figures.
//   decodePng(buffer)        8-bit RGB/RGBA, non-interlaced PNG to { width, height, channels, pixels }.
//   tickwirePath()           the CLI under test ($TICKWIRE_CLI, set by CTest).
//   startTickwire(args)      spawns `tickwire ARGS`; .waitForLine(test, ms) resolves with the first
//                            stdout line that matches (a RegExp or a function), .exited resolves with
//                            { code, signal }, .stop() ends it (SIGTERM, then SIGKILL).
//   runTickwire(args, ms)    runs `tickwire ARGS` to its end; resolves { code, stdout, stderr }.
//   freeUdpPort()            a loopback UDP port free right now (a server binds it a moment later).
//
// playwright-core is found in $TICKWIRE_BROWSER_MODULES/node_modules (where the ctest fixture
// `browser.setup` ran `npm ci`), else beside this folder's package.json.
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const here = dirname(fileURLToPath(import.meta.url));

function loadPlaywright() {
  const base = process.env.TICKWIRE_BROWSER_MODULES || join(here, '..');
  try {
    return createRequire(join(base, 'package.json'))('playwright-core');
  } catch (error) {
    throw new Error(`playwright-core is not installed under ${base}/node_modules: the ctest fixture browser.setup ` +
      `runs \`npm ci\` there (ctest -R browser), or run it in tests/browser (${error.message})`);
  }
}

export async function launchBrowser({ viewport = { width: 1240, height: 900 } } = {}) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: the browser tests use Debian's chromium (scripts/install-deps installs it)`);
  }
  const { chromium } = loadPlaywright();
  const profile = mkdtempSync(join(tmpdir(), 'tickwire-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, viewport, deviceScaleFactor: 1,
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    newPage: () => context.newPage(),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const localUrl = (url) => /^(file:|data:|about:|blob:)/.test(url) ||
  /^(https?|wss?):\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\//.test(url);

export function watchPage(page) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on('request', (request) => {
    if (!localUrl(request.url())) problems.push(`request off this machine: ${request.url()}`);
  });
  return {
    problems,
    assertClean() {
      if (problems.length > 0) throw new Error(`the page reported problems:\n  ${problems.join('\n  ')}`);
    },
  };
}

// ---- PNG decoding (enough for Chromium's screenshots: 8-bit RGB or RGBA, not interlaced).

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(buffer) {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (buffer.length < 8 || !buffer.subarray(0, 8).equals(signature)) throw new Error('not a PNG');
  let width = 0, height = 0, channels = 0;
  const data = [];
  for (let at = 8; at + 8 <= buffer.length;) {
    const length = buffer.readUInt32BE(at);
    const type = buffer.toString('latin1', at + 4, at + 8);
    const body = buffer.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      channels = { 2: 3, 6: 4 }[colour];
      if (depth !== 8 || !channels || interlace !== 0) throw new Error(`unsupported PNG: depth ${depth}, colour ${colour}`);
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('PNG data is short');
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride, up = row - stride;
    for (let x = 0; x < stride; ++x) {
      const a = x >= channels ? pixels[row + x - channels] : 0;
      const b = y > 0 ? pixels[up + x] : 0;
      const c = x >= channels && y > 0 ? pixels[up + x - channels] : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      if (predictor === undefined) throw new Error(`bad PNG filter ${filter}`);
      pixels[row + x] = (line[x] + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

// Distinct colours and the share of pixels that differ from the most common one (the background).
export function pictureFigures({ width, height, channels, pixels }) {
  const counts = new Map();
  for (let i = 0; i < width * height; ++i) {
    const at = i * channels;
    const rgb = (pixels[at] << 16) | (pixels[at + 1] << 8) | pixels[at + 2];
    counts.set(rgb, (counts.get(rgb) || 0) + 1);
  }
  let background = 0;  // (a loop: spreading a photo's many colours into Math.max would overflow the stack)
  for (const n of counts.values()) background = Math.max(background, n);
  return { width, height, colours: counts.size, offBackground: 1 - background / (width * height) };
}

export async function checkScreenshot(page, name, { minColours = 16, minOffBackground = 0.01 } = {}) {
  const png = await page.screenshot({ fullPage: true, type: 'png' });
  const figures = { ...pictureFigures(decodePng(png)), bytes: png.length };
  const dir = process.env.TICKWIRE_SCREENSHOT_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.png`), png);
  }
  if (figures.colours < minColours || figures.offBackground < minOffBackground) {
    throw new Error(`the screenshot looks blank: ${JSON.stringify(figures)}`);
  }
  return figures;
}

// ---- The CLI under test.

export function tickwirePath() {
  const path = process.env.TICKWIRE_CLI;
  if (!path || !existsSync(path)) throw new Error(`TICKWIRE_CLI must name the built tickwire binary (got '${path ?? ''}')`);
  return path;
}

export function startTickwire(args) {
  const child = spawn(tickwirePath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  const waiters = [];
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.matches(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  // 'close': it exited and its stdout and stderr are read to their end.
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return {
    child, lines, exited,
    get stderr() { return stderr; },
    waitForLine(test, timeoutMs = 30000) {
      const matches = typeof test === 'function' ? test : (line) => test.test(line);
      const seen = lines.find(matches);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matching ${test} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ matches, resolve: (line) => { clearTimeout(timer); resolve(line); } });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
      const result = await exited;
      clearTimeout(killer);
      return result;
    },
  };
}

export async function runTickwire(args, timeoutMs = 120000) {
  const run = startTickwire(args);
  const timer = setTimeout(() => run.stop(), timeoutMs);
  const { code, signal } = await run.exited;
  clearTimeout(timer);
  return { code, signal, stdout: run.lines.join('\n'), stderr: run.stderr };
}

export function freeUdpPort() {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.on('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}
