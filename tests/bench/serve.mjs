// tests/bench/serve.mjs: the speed targets of `marubatsu serve` (issue 15),
// medians (and the 95th percentile) over repeated runs, side by side:
//   first page ready after serve starts   (target <= 300 ms)
//   an AI reply on 3x3 reaching the page   (target <= 20 ms)
//   tree navigation per click              (target <= 10 ms)
// each over HTTP (a client on loopback: the server's share) and, when the
// browser driver is installed (tests/web/node_modules, made by the browser
// test), in headless Chromium (what a person sees: request, JSON, drawing).
// Usage: node tests/bench/serve.mjs PROGRAM
import path from 'node:path';
import http from 'node:http';
import { spawn } from 'node:child_process';

const program = path.resolve(process.argv[2] || 'build/marubatsu');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const now = () => Number(process.hrtime.bigint()) / 1e6;
const stats = xs => {
  const s = [...xs].sort((a, b) => a - b);
  const q = p => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `median ${q(0.5).toFixed(2)} ms, p95 ${q(0.95).toFixed(2)} ms (n=${s.length})`;
};

function start(args = []) {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const proc = spawn(program, ['serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', d => {
      out += d;
      const m = out.match(/http:\/\/([^/\s]+)\//);
      if (m) resolve({ t0, proc, host: m[1], port: Number(m[1].split(':')[1]), url: `http://${m[1]}` });
    });
    proc.on('exit', c => reject(new Error('server exited ' + c)));
  });
}
const stop = s => new Promise(r => { s.proc.removeAllListeners('exit'); s.proc.on('exit', r); s.proc.kill('SIGINT'); });

function get(s, method, p) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: s.port, method, path: p, agent,
      headers: { Host: s.host, ...(method === 'POST' ? { 'X-Marubatsu': '1' } : {}) } }, res => {
      let d = '';
      res.on('data', x => { d += x; });
      res.on('end', () => resolve(d));
    });
    req.on('error', reject);
    req.end();
  });
}

console.log('marubatsu serve: speed (targets: first page <= 300 ms, AI reply <= 20 ms, tree click <= 10 ms)');

// 1. first page over HTTP: spawn -> the page, its files, info and a new game answered
const first = [];
for (let i = 0; i < 15; i++) {
  const s = await start();
  for (const f of ['/', '/style.css', '/common.js', '/play.js', '/tree.js', '/report.js', '/app.js', '/favicon.svg']) await get(s, 'GET', f);
  await get(s, 'GET', '/api/info');
  await get(s, 'POST', '/api/games');
  first.push(now() - s.t0);
  await stop(s);
}
console.log(`  first page ready, HTTP (spawn to page + files + info + game):  ${stats(first)}`);

// 2. AI replies and 3. tree clicks over HTTP
const s = await start();
const replies = [];
const moves = ['A1', 'C3', 'A3', 'B1', 'C2'];
for (let g = 0; g < 60; g++) {
  const game = JSON.parse(await get(s, 'POST', '/api/games?o=human&x=ai14s'));
  for (const m of moves) {
    const r = JSON.parse(await get(s, 'POST', `/api/games/${game.id}/move?move=${m}`));
    if (r.error || r.status !== 'playing') continue;
    const t = now();
    const a = JSON.parse(await get(s, 'POST', `/api/games/${game.id}/ai`));
    replies.push(now() - t);
    if (a.status !== 'playing') break;
  }
}
console.log(`  ai14s reply on 3x3, HTTP (POST ai round trip):                   ${stats(replies)}`);
const clicks = [];
for (const [sc, how] of [['sv', 'built at start'], ['old', 'built on first use'], ['sv_rd', 'built on first use']]) {
  const t = now();
  await get(s, 'GET', `/api/tree?scoring=${sc}`);
  console.log(`  tree, first answer in ${(sc + ' (' + how + '):').padEnd(32)}           ${(now() - t).toFixed(2)} ms`);
}
const paths = ['', 'B2', 'B2,A1', 'B2,A1,C3', 'A1,B2,C3,A3', 'C1,B2,A3,A2,C2'];
for (let i = 0; i < 300; i++) {
  const t = now();
  await get(s, 'GET', `/api/tree?scoring=sv&moves=${paths[i % paths.length]}`);
  clicks.push(now() - t);
}
console.log(`  tree node, HTTP (GET /api/tree round trip):                     ${stats(clicks)}`);

// the same in Chromium, if the test driver is installed
let chromium = null;
try { ({ chromium } = await import('../web/node_modules/playwright-core/index.mjs')); } catch { /* not installed */ }
if (!chromium) {
  console.log('  (browser figures skipped: run the browser test once to install tests/web/node_modules)');
} else {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] });
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  // spawn -> listening (the address printed), then navigation -> the page
  // ready with its board drawn (the page's own clock), added per run
  const listen = [], nav = [], ready = [];
  for (let i = 0; i < 10; i++) {
    const b = await start();
    const tl = now() - b.t0;
    await page.goto(b.url + '/');
    await page.waitForSelector('body[data-ready="1"]');
    const r = Number(await page.$eval('body', e => e.dataset.readyMs));
    listen.push(tl);
    nav.push(r);
    ready.push(tl + r);
    await stop(b);
  }
  console.log(`  Chromium: spawn to listening:                                   ${stats(listen)}`);
  console.log(`  Chromium: navigation to the page ready (page's clock):          ${stats(nav)}`);
  console.log(`  first page ready in Chromium (the two added, per run):          ${stats(ready)}`);
  await page.goto(s.url + '/');
  await page.waitForSelector('body[data-ready="1"]');
  const pr = [];
  for (let g = 0; g < 30; g++) {
    await page.click('#new-game');
    await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '0' && document.getElementById('view-play').dataset.busy === '0');
    await page.click('#game-board [data-square="A1"]');
    await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '2' && document.getElementById('view-play').dataset.busy === '0');
    pr.push(Number(await page.$eval('#view-play', e => e.dataset.aiMs)));
  }
  console.log(`  ai14s's reply reaching the page, drawn (page's clock):          ${stats(pr)}`);
  await page.click('nav [data-view="tree"]');
  await page.waitForSelector('#tree-children .child');
  const tc = [];
  for (let i = 0; i < 60; i++) {
    const down = i % 2 === 0;
    if (down) await page.click('#tree-children .child[data-move="B2"]');
    else await page.click('#tree-up');
    await page.waitForFunction(d => document.getElementById('view-tree').dataset.path === d, down ? 'B2' : '');
    tc.push(Number(await page.$eval('#view-tree', e => e.dataset.ms)));
  }
  console.log(`  tree click to the node drawn (page's clock):                    ${stats(tc)}`);
  await browser.close();
}
await stop(s);
agent.destroy();
