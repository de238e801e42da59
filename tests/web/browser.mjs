// tests/web/browser.mjs: `marubatsu serve` in a real browser: Debian's
// Chromium, headless, driven by playwright-core (tests/web/package.json;
// it never downloads a browser). Checks, by clicks as a person makes them:
// a whole game against ai14s (ai14s never loses; the board shows every
// move; undo takes back the person's move and the AI's reply; hint draws
// ai14s's scores on the empty squares, equal to its analysis); stepping
// back with the slider and forward again; a game saved and loaded; a
// failing sandboxed AI shows its reason and the page goes on; the tree
// explorer three levels down, each child's score checked against the
// series' own table (tests/data/bestmoves_and_score_by_board_shortest_
// victory.json); the served tournament view; a report.html opened from disk
// (no server) replaying a game with its slider; a knockout's report.html
// with its bracket (rounds, byes, ties by seed, the winner) as results.json
// has it; a player named with markup
// and a closing script tag shown as text; a person playing Gomocup brains
// (--ai brain:COMMAND) on 15x15: our own `marubatsu brain gomoku`, and one
// whose MESSAGE/DEBUG lines (markup among them) show in the side panel as
// text; on 15x15 the board framed by column letters and row numbers, and
// the hints of gomoku (its pattern scores, checked against the program's)
// and mcts (visit shares summing to 100%) drawn as heat maps; the tune page
// of --tune DIR (linked from the main page only then) following a run as
// its files grow: a trajectory panel per parameter, each point at its
// iteration and higher values drawn higher, the current values, a new
// iteration at the next poll, the confirmation under way and done, and no
// poll after that; no request leaves the page's origin and the console
// shows no errors.
// Usage: node tests/web/browser.mjs PROGRAM [--screenshots DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { test, run, assert, eq, startServer } from './harness.mjs';

const program = path.resolve(process.argv[2] || 'build/marubatsu');
const shotsAt = process.argv.indexOf('--screenshots');
const shots = shotsAt > 0 ? path.resolve(process.argv[shotsAt + 1]) : null;
const here = path.dirname(new URL(import.meta.url).pathname);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-web-browser-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

// a tournament for the results view and report.html
const tour = path.join(tmp, 'tour');
execFileSync(program, ['tournament', 'ai1', 'ai2', 'ai4', 'ai14s', '--games', '20', '--seed', '5', '--quiet',
  '--no-progress', '--out', tour]);
const server = await startServer(program,
    ['--results', tour, '--ai', path.resolve(here, '../hostile/error_at_load.lua'),
  '--ai', path.resolve(here, '../hostile/illegal_move.lua'), '--ai', `brain:${program} brain gomoku:name=gomoku-brain`,
  '--ai', `brain:${path.resolve(here, 'chatty_brain.sh')}:name=chat`]);

// the flags that work here (see the README's tests section): no sandbox as
// root, no GPU, and no background connections (the network is closed)
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
const context = await browser.newContext({ viewport: { width: 1200, height: 820 }, acceptDownloads: true });
const page = await context.newPage();
const problems = [];
page.on('console', m => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
page.on('pageerror', e => problems.push(`page error: ${e.message}`));
page.on('request', r => {
  const u = r.url();
  if (!u.startsWith(server.url + '/') && !u.startsWith('blob:')
      && !u.startsWith('data:')) problems.push(`request to ${u}`);
});
const shot = async (name, p = page) => { if (shots) await p.screenshot({ path: path.join(shots, name),
    fullPage: false }); };

const sorted = o => Object.fromEntries(Object.entries(o).sort());
const board = () => page.$$eval('#game-board .sq', cells => cells.map(c => c.dataset.mark).join(''));
const step = () => page.$eval('#view-play', e => Number(e.dataset.step));
async function settled() { // no request in flight and the AI done
  await page.waitForFunction(() => {
    const v = document.getElementById('view-play');
    return v.dataset.busy === '0';
  });
}
async function waitTurn(n) {
  await page.waitForFunction(k => Number(document.getElementById('view-play').dataset.step) >= k, n);
  await settled();
}

// ai14s's analysis in the position after moves, through the program
function analysis(moves) {
  const code = `local g = mb.Marubatsu() for m in ("${moves.join(',')}"):gmatch("[^,]+") do g:move(mb.move(m)) end
    local a = mb.ai("ai14s")(g, {analyze = true})
    local s = {} for m, v in pairs(a.score_by_move) do s[#s + 1] = g:excel(m) .. "=" .. v end
    print(table.concat(s, " "))`;
  const out = execFileSync(program, ['-e', code], { encoding: 'utf8' }).trim();
  return Object.fromEntries(out.split(' ').map(p => { const [k, v] = p.split('='); return [k, Number(v)]; }));
}

test('the page opens on the play view with an empty 3x3 board', async () => {
  await page.goto(server.url + '/');
  await page.waitForSelector('body[data-ready="1"]');
  eq(await board(), '.........', 'the board');
  eq(await page.$eval('#status', e => e.textContent), 'Turn ○ (you)', 'the status line');
});

test('a whole game against ai14s by clicks, with hint and undo', async () => {
  const order = ['A1', 'C3', 'A3', 'B1', 'C2', 'A2', 'B3', 'C1', 'B2'];
  const history = async () => page.$$eval('#history span', s => s.map(x => x.textContent.replace(/^\d+\./, '').trim()));
  // hint before the first move: the scores on the squares are ai14s's
  await page.click('#hint');
  await page.waitForSelector('#game-board .score');
  const shown = Object.fromEntries(await page.$$eval('#game-board .sq', cells =>
    cells.filter(c => c.querySelector('.score')).map(c => [c.dataset.square,
        Number(c.querySelector('.score').dataset.score)])));
  eq(sorted(shown), sorted(analysis([])), 'hint scores at the start');
  assert((await page.$$('#game-board .sq.candidate')).length > 0, 'the best moves are marked');
  await shot('play-hint.png');
  // first move, then undo it (with the AI's reply), then play on
  await page.click('#game-board [data-square="A1"]');
  await waitTurn(2);
  eq(await step(), 2, 'ai14s replied');
  await page.click('#undo');
  await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '0');
  eq(await board(), '.........', 'undo took back both moves');
  await page.click('#redo');
  await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '2');
  await page.click('#undo');
  await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '0');
  let n;
  while ((await page.$eval('#view-play', e => e.dataset.status)) === 'playing') {
    const free = [];
    for (const sq of order) if (await page.$(`#game-board button.sq[data-square="${sq}"]`)) free.push(sq);
    assert(free.length > 0, 'a free square to click');
    n = (await step()) + 2;
    await page.click(`#game-board [data-square="${free[0]}"]`);
    await page.waitForFunction(k => {
      const v = document.getElementById('view-play');
      return v.dataset.busy === '0' && (Number(v.dataset.step) >= k || v.dataset.status !== 'playing');
    }, n);
    // the page's board is the game's: every move of the history shown
    const h = await history();
    const marks = await board();
    h.forEach((sq, i) => {
      const [x, y] = [sq.charCodeAt(0) - 65, Number(sq[1]) - 1];
      eq(marks[y * 3 + x], i % 2 ? 'x' : 'o', `${sq} on the board`);
    });
  }
  const status = await page.$eval('#view-play', e => e.dataset.status);
  assert(status === 'x' || status === 'draw', `ai14s does not lose (${status})`);
  assert(/^(Draw|× wins \(ai14s\))$/.test(await page.$eval('#status', e => e.textContent)), 'the result is shown');
  await shot('play.png');
});

test('step back with the slider and forward with the buttons; a click there drops the rest', async () => {
  const total = Number(await page.$eval('#slider', e => e.max));
  await page.$eval('#slider', e => { e.value = '1'; e.dispatchEvent(new Event('input')); });
  await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '1');
  eq((await board()).replace(/\./g, '').length, 1, 'one mark after step 1');
  await page.click('#next');
  await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '2');
  await page.click('#last');
  await page.waitForFunction(t => document.getElementById('view-play').dataset.step === String(t), total);
  await page.click('#first');
  await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '0');
  await page.click('#game-board [data-square="B2"]');
  await waitTurn(2);
  eq(Number(await page.$eval('#slider', e => e.max)), 2, 'the history now ends after the AI\'s reply');
});

test('save, then load the record back', async () => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
  const file = path.join(tmp, 'saved.txt');
  await download.saveAs(file);
  const text = fs.readFileSync(file, 'utf8');
  assert(/^# marubatsu game record\n# board 3x3 k=3\nB2,[A-C][1-3]\n$/.test(text), text);
  const other = path.join(tmp, 'other.txt');
  fs.writeFileSync(other, '# board 3x3\nA1,B1,A2,B2\n');
  await page.setInputFiles('#load', other);
  await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '4');
  eq(await board(), 'ox.ox....', 'the loaded position');
});

test('an AI that fails shows its reason; the page goes on', async () => {
  await page.selectOption('#player-o', 'illegal_move');
  await page.selectOption('#player-x', 'human');
  await page.click('#new-game');
  await page.waitForSelector('#failure');
  const text = await page.$eval('#failure', e => e.textContent);
  assert(/^illegal_move \(○\) failed: illegal move: /.test(text), text);
  await page.selectOption('#player-o', 'human');
  await page.click('#apply-players');
  await page.waitForFunction(() => !document.getElementById('failure'));
  await page.click('#game-board [data-square="B2"]');
  await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '1');
});

test('a 5x5 board with k=4, two AIs, paused and stepped', async () => {
  await page.check('#pause');
  await page.selectOption('#player-o', 'ai14s');
  await page.selectOption('#player-x', 'ai2');
  await page.fill('#width', '5');
  await page.fill('#height', '5');
  await page.fill('#k', '4');
  await page.click('#new-game');
  await settled();
  eq((await board()).length, 25, '25 squares');
  eq(await step(), 0, 'paused: nobody moved');
  await page.click('#ai-move');
  await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '1');
  await page.click('#ai-move');
  await page.waitForFunction(() => document.getElementById('view-play').dataset.step === '2');
  eq((await board()).replace(/\./g, '').length, 2, 'two marks');
  await page.uncheck('#pause');
  await page.waitForFunction(() => document.getElementById('view-play').dataset.status !== 'playing', null,
      { timeout: 30000 });
});

const table = JSON.parse(fs.readFileSync(path.resolve(here,
    '../data/bestmoves_and_score_by_board_shortest_victory.json'), 'utf8'));
// the series' key of a board given as rows: square y + 3x at position y + 3x
const key = rows => {
  let k = '';
  for (let i = 0; i < 9; i++) k += rows[i % 3][Math.floor(i / 3)];
  return k;
};
async function childScores() {
  return page.$$eval('#tree-children .child', cs => cs.map(c => ({
    move: c.dataset.move, score: c.dataset.score, best: c.classList.contains('best'),
    rows: [0, 1, 2].map(y => [0, 1, 2].map(x => c.querySelectorAll('.sq')[y * 3 + x].dataset.mark).join('')),
  })));
}

test('a person plays Gomocup brains on 15x15: our own, then one whose messages show in the side panel as text',
    async () => {
  await page.uncheck('#pause');
  await page.selectOption('#player-o', 'human');
  await page.selectOption('#player-x', 'gomoku-brain');
  eq(await page.$eval('#player-x', e => e.selectedOptions[0].textContent), 'gomoku-brain (Gomocup brain)',
      'the option');
  await page.fill('#width', '15');
  await page.fill('#height', '15');
  await page.fill('#k', '5');
  await page.click('#new-game');
  await settled();
  await page.click('#game-board [data-square="H8"]');
  await waitTurn(2);
  eq((await board()).replace(/\./g, '').length, 2, 'the person\'s stone and the brain\'s');
  eq(await page.$eval('#messages-panel', e => e.hidden), true, 'no messages yet: the panel is hidden');
  // the chatty brain: its lines in the panel, markup shown as text
  await page.selectOption('#player-x', 'chat');
  await page.click('#new-game');
  await settled();
  await page.click('#game-board [data-square="H8"]');
  await waitTurn(2);
  await page.click('#game-board [data-square="H9"]');
  await waitTurn(4);
  eq(await page.$eval('#messages-panel', e => e.hidden), false, 'the panel is shown');
  const text = await page.$eval('#messages', e => e.textContent);
  eq(text, ['chat: MESSAGE move 1: <img src=x onerror=alert(1)> \u001b[31mred', 'chat: DEBUG depth 1',
    'chat: MESSAGE move 3: <img src=x onerror=alert(1)> \u001b[31mred', 'chat: DEBUG depth 3'].join('\n'), 'the lines');
  eq(await page.$$eval('#messages *', e => e.length), 0, 'no element made from them');
  eq(await page.evaluate(() => window.alert.called), undefined, 'no script ran');
  await shot('brain-messages.png');
  await page.click('#messages-clear');
  eq(await page.$eval('#messages-panel', e => e.hidden), true, 'cleared');
});

// gomoku's pattern score of every candidate square after moves on 15x15
// (what its analysis gives to draw: static, so the same every run)
function patternScores(moves) {
  const code = `local g = mb.Marubatsu{width = 15, height = 15, k = 5}
    for m in ("${moves.join(',')}"):gmatch("[^,]+") do g:move(mb.move(m, g)) end
    local ms, sc = g:pattern_moves(60)
    local s = {} for i, m in ipairs(ms) do s[#s + 1] = g:excel(m) .. "=" .. sc[i] end
    print(table.concat(s, " "))`;
  const out = execFileSync(program, ['-e', code], { encoding: 'utf8' }).trim();
  return Object.fromEntries(out.split(' ').map(p => { const [k, v] = p.split('='); return [k, v]; }));
}

test('15x15: coordinates frame the board; gomoku and mcts hints are heat maps of their scores', async () => {
  await page.check('#pause');
  await page.selectOption('#player-o', 'human');
  await page.selectOption('#player-x', 'human');
  await page.fill('#width', '15');
  await page.fill('#height', '15');
  await page.fill('#k', '5');
  await page.click('#new-game');
  await settled();
  eq(await page.$$eval('#game-board .coord.col', c => c.map(e => e.textContent).join('')), 'ABCDEFGHIJKLMNO',
      'column letters');
  eq(await page.$$eval('#game-board .coord.row', c => c.map(e => e.textContent).join(',')),
    Array.from({ length: 15 }, (_, i) => i + 1).join(','), 'row numbers');
  // the labels sit where the move lists say: H above the square H8, 8 at its left
  const place = await page.evaluate(() => {
    const r = sel => document.querySelector(sel).getBoundingClientRect();
    const sq = r('#game-board [data-square="H8"]');
    const coord = (kind, text) => [...document.querySelectorAll(`#game-board .coord.${kind}`)]
      .find(e => e.textContent === text).getBoundingClientRect();
    const col = coord('col', 'H');
    const row = coord('row', '8');
    return Math.abs((col.left + col.right) / 2 - (sq.left + sq.right) / 2) < 2
        && Math.abs((row.top + row.bottom) / 2 - (sq.top + sq.bottom) / 2) < 2;
  });
  eq(place, true, 'H above H8, 8 beside it');
  await page.click('#game-board [data-square="H8"]');
  await waitTurn(1);
  await page.click('#game-board [data-square="I9"]');
  await waitTurn(2);
  await page.selectOption('#hint-ai', 'gomoku');
  await page.click('#hint');
  await page.waitForSelector('#game-board .sq.heat');
  await settled();
  const drawn = await page.$$eval('#game-board .sq .score',
      s => Object.fromEntries(s.map(e => [e.parentNode.dataset.square, e.dataset.score])));
  eq(sorted(drawn), sorted(patternScores(['H8', 'I9'])), 'gomoku: each candidate\'s pattern score on its square');
  const heats = await page.$$eval('#game-board .sq.heat', s => s.map(e => Number(e.dataset.heat)));
  eq([heats.length, Math.max(...heats), Math.min(...heats)], [Object.keys(drawn).length, 1, 0],
      'a heat map from 0 to 1');
  assert(/gomoku for ○: best [A-O]\d+ .*its pattern score/.test(await page.$eval('#hint-text', e => e.textContent)),
      'the hint text');
  await shot('hint-gomoku-15x15.png');
  await page.selectOption('#hint-ai', 'mcts');
  await page.click('#hint');
  await page.waitForFunction(() => /^mcts/.test(document.getElementById('hint-text').textContent));
  await settled();
  const shares = await page.$$eval('#game-board .sq .score', s => s.map(e => Number(e.dataset.score)));
  const total = shares.reduce((a, b) => a + b, 0);
  assert(shares.length >= 5 && Math.abs(total - 100) <= 0.1 * shares.length,
      `visit shares summing to 100%: ${total} over ${shares.length}`);
  const best = await page.$eval('#game-board .sq.candidate',
      e => [Number(e.querySelector('.score').dataset.score), e.dataset.heat]);
  eq(best, [Math.max(...shares), '1.000'], 'the most visited square is the candidate, deepest in colour');
  await shot('hint-mcts-15x15.png');
  await page.uncheck('#pause');
});

test('the tree explorer: three levels down, every score equal to the series\' table', async () => {
  await page.click('nav [data-view="tree"]');
  await page.waitForSelector('#tree-children .child');
  eq(await page.$$eval('#tree-counts td', t => t.map(x => x.textContent).filter((_, i) => i % 2)),
    ['1', '9', '72', '504', '3,024', '15,120', '54,720', '148,176', '200,448', '127,872'], 'nodes by depth');
  for (const [level, mv] of [[1, 'B2'], [2, 'A1'], [3, 'C3']]) {
    const kids = await childScores();
    assert(kids.length > 0, 'children shown');
    for (const c of kids) {
      const ref = table[key(c.rows)];
      assert(ref, `board ${key(c.rows)} in the table`);
      eq(Number(c.score), ref.score, `level ${level}, child ${c.move}: score`);
    }
    const bestScore = Math.max(...kids.map(c => Number(c.score) * (level % 2 ? 1 : -1)));
    for (const c of kids) eq(c.best, Number(c.score) * (level % 2 ? 1 : -1) === bestScore,
        `level ${level}, ${c.move} best`);
    await page.click(`#tree-children .child[data-move="${mv}"]`);
    await page.waitForFunction(
      d => document.getElementById('view-tree').dataset.path.split(',').filter(Boolean).length === d, level);
  }
  eq(await page.$eval('#view-tree', e => e.dataset.path), 'B2,A1,C3', 'the path');
  eq(await page.$eval('#tree-moves', e => e.value), 'B2,A1,C3', 'the move list box');
  await shot('tree.png');
  await page.click('#tree-up');
  await page.waitForFunction(() => document.getElementById('view-tree').dataset.path === 'B2,A1');
  await page.fill('#tree-moves', 'A1,B2,C3');
  await page.click('#tree-jump button');
  await page.waitForFunction(() => document.getElementById('view-tree').dataset.path === 'A1,B2,C3');
  await page.selectOption('#scoring', 'old');
  await page.waitForFunction(() => document.getElementById('view-tree').dataset.scoring === 'old');
  eq(await page.$eval('#tree-score', e => e.textContent), '0', 'A1,B2,C3 is a draw');
  await page.fill('#tree-moves', 'B2,B2');
  await page.click('#tree-jump button');
  await page.waitForFunction(() => !document.getElementById('error').hidden);
  assert(/occupied/.test(await page.$eval('#error', e => e.textContent)), 'a bad move list is explained');
  problems.splice(0, problems.length, ...problems.filter(p => !/400/.test(p))); // the 400 is expected
});

test('the tournament view of --results', async () => {
  await page.click('nav [data-view="results"]');
  await page.waitForSelector('#ranking tbody tr');
  eq(await page.$eval('#ranking tbody tr td:nth-child(2)', e => e.textContent), 'ai14s', 'the winner first');
  eq(await page.$$eval('#games tbody tr', r => r.length), 120, 'every game listed');
  await page.selectOption('#filter-result', 'draw');
  const draws = JSON.parse(fs.readFileSync(path.join(tour, 'results.json'), 'utf8')).ranking.reduce((s, r) => s
      + r.draw, 0) / 2;
  eq(await page.$$eval('#games tbody tr', r => r.length), draws, 'the draws');
  await page.selectOption('#filter-result', '');
  await page.click('#games tbody tr:nth-child(3)');
  await page.waitForSelector('#replay-board .sq');
  await shot('results.png');
});

test('report.html from disk: ranking, crosstable, a filtered game replayed with the slider', async () => {
  const p2 = await context.newPage();
  const outside = [];
  p2.on('request', r => { if (!r.url().startsWith('file://')) outside.push(r.url()); });
  p2.on('pageerror', e => problems.push(`report page error: ${e.message}`));
  await p2.goto('file://' + path.join(tour, 'report.html'));
  await p2.waitForSelector('#ranking tbody tr');
  eq(await p2.$$eval('#crosstable tbody tr', r => r.length), 4, 'crosstable rows');
  await p2.selectOption('#filter-pairing', 'ai14s vs ai2');
  eq(await p2.$$eval('#games tbody tr', r => r.length), 20, 'the pairing\'s games');
  const journal = fs.readFileSync(path.join(tour, 'journal.tsv'),
      'utf8').split('\n').filter(l => l.startsWith('G\t')).map(l => l.split('\t'));
  const first = await p2.$eval('#games tbody tr', e => Number(e.dataset.game));
  const g = journal.find(f => Number(f[1]) === first);
  await p2.click('#games tbody tr');
  await p2.waitForSelector('#replay-board .sq');
  const moves = g[7].split(',');
  const marks = () => p2.$$eval('#replay-board .sq', c => c.map(x => x.dataset.mark).join(''));
  eq((await marks()).replace(/\./g, '').length, moves.length, 'the final position');
  await p2.$eval('#replay-slider', e => { e.value = '1'; e.dispatchEvent(new Event('input')); });
  const one = await marks();
  const [x, y] = [moves[0].charCodeAt(0) - 65, Number(moves[0][1]) - 1];
  eq([one.replace(/\./g, ''), one[y * 3 + x]], ['o', 'o'], `after move 1 only ${moves[0]}`);
  await p2.click('#replay-next');
  eq((await marks()).replace(/\./g, '').length, 2, 'next: two marks');
  assert((await p2.$eval('#replay-step', e => e.textContent)).startsWith('move 2 of'), 'the step shown');
  await p2.click('#replay-last');
  assert((await p2.$eval('#replay-step', e => e.textContent)).includes(g[8] === 'draw' ? 'draw' : 'wins'),
      'the result at the end');
  eq(outside, [], 'report.html loads nothing');
  await shot('report.png', p2);
  await p2.close();
});

test('report.html of a knockout: the bracket by round, byes, ties by seed and the winner, as results.json has them',
    async () => {
  const ko = path.join(tmp, 'ko');
  execFileSync(program, ['tournament', 'ai1', 'ai2', 'ai3', 'ai4', 'ai5', 'ai14s', '--format', 'knockout', '--games',
      '2',
    '--seed', '3', '--quiet', '--no-progress', '--out', ko]);
  const want = JSON.parse(fs.readFileSync(path.join(ko, 'results.json'), 'utf8')).knockout;
  const p4 = await context.newPage();
  p4.on('pageerror', e => problems.push(`knockout report page error: ${e.message}`));
  await p4.goto('file://' + path.join(ko, 'report.html'));
  await p4.waitForSelector('#bracket .ko-match');
  eq(await p4.$$eval('#bracket .ko-round[data-round] h3', h => h.map(e => e.textContent)),
      ['Round 1', 'Semi-finals', 'Final'], 'the rounds');
  const drawn = await p4.$$eval('#bracket .ko-match', ms => ms.map(m => ({
    match: Number(m.dataset.match), winner: m.dataset.winner,
    players: [...m.querySelectorAll('.ko-player .name')].map(e => e.textContent),
    points: [...m.querySelectorAll('.ko-player .points')].map(e => e.textContent),
    bold: m.querySelector('.ko-player.won .name') ? m.querySelector('.ko-player.won .name').textContent : null,
    note: m.querySelector('.ko-note').textContent })));
  const expected = want.rounds.flat().map(m => ({
    match: m.match, winner: m.winner || '',
    players: [m.a !== undefined ? m.a : 'bye', m.b !== undefined ? m.b : 'bye'],
    points: [m.points_a !== undefined ? String(m.points_a) : '', m.points_b !== undefined ? String(m.points_b) : ''],
    bold: m.winner !== undefined ? m.winner : null,
    note: m.a === undefined || m.b === undefined ? 'a bye'
        : `${m.games} games${m.by_seed ? ', tied: the better seed goes on' : ''}` }));
  eq(drawn, expected, 'every match as results.json has it');
  assert(expected.some(m => m.note === 'a bye'), 'six players: byes in round 1');
  eq(await p4.$eval('#ko-winner', e => e.textContent), want.winner, 'the winner');
  await shot('report-knockout.png', p4);
  await p4.close();
});

test('report.html shows a hostile player name as text: no markup, no script', async () => {
  const nasty = path.join(tmp, 'nasty');
  const name = '</script><img src=x onerror="window.hacked=1"><!--\\x3c';
  execFileSync(program, ['-e', `require("marubatsu.host").tournament{
    players = {{name = ${JSON.stringify(name)}, ai = "ai2"}, "ai1"},
    games = 2, seed = 1, out = ${JSON.stringify(nasty)}, quiet = true, progress = false}`]);
  const p3 = await context.newPage();
  const errors = [];
  p3.on('pageerror', e => errors.push(e.message));
  await p3.goto('file://' + path.join(nasty, 'report.html'));
  await p3.waitForSelector('#ranking tbody tr');
  const names = await p3.$$eval('#ranking tbody td.name', t => t.map(x => x.textContent));
  assert(names.includes(name), `the name as text: ${JSON.stringify(names)}`);
  eq(await p3.$$eval('#report img', i => i.length), 0, 'no injected element');
  eq(await p3.evaluate(() => window.hacked), undefined, 'no script ran');
  eq(await p3.$$eval('#games tbody tr', r => r.length), 2, 'the games');
  assert((await p3.$$eval('#games tbody td.name', t => t.map(x => x.textContent))).includes(name),
      'in the game list too');
  eq(errors, [], 'no page errors');
  await p3.close();
});

test('the tune page follows a run: its trajectories drawn, a new iteration shown as tune.tsv grows, '
  + 'the confirmation, no more polls once done', async () => {
  // the main page links the tune page only when the server has --tune
  eq(await page.$eval('#tab-tune', e => e.hidden), true, 'no Tune link without --tune');
  const run = path.join(tmp, 'tune-run');
  execFileSync(program, ['tune', 'examples/tunable_ai.lua', '--openings', 'examples/openings_3x3.txt', '--iterations',
      '5',
    '--pairs', '4', '--jobs', '1', '--seed', '2', '--confirm-games', '200', '--quiet', '--out', run],
        { cwd: path.resolve(here, '../..') });
  const lines = file => fs.readFileSync(path.join(run, file), 'utf8').split('\n').filter(l => l !== '').map(l => l
      + '\n');
  const header = lines('tune.tsv').filter(l => !l.startsWith('I\t')),
      its = lines('tune.tsv').filter(l => l.startsWith('I\t'));
  const params = header.filter(l => l.startsWith('H\tparam\t')).map(l => l.trim().split('\t'))
    .map(f => ({ name: f[2], start: Number(f[3]), min: Number(f[4]), max: Number(f[5]) }));
  const theta = line => line.trim().split('\t').slice(6).map(Number);
  const rounded = (p, v) => String(Math.sign(v) * Math.floor(Math.abs(Math.min(p.max, Math.max(p.min, v))) + 0.5));
  const dir = path.join(tmp, 'tune-follow');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'tune.tsv'), header.join('') + its.slice(0, 3).join(''));
  const srv = await startServer(program, ['--tune', dir]);
  const p5 = await context.newPage();
  p5.on('console', m => { if (m.type() === 'error') problems.push(`tune page console: ${m.text()}`); });
  p5.on('pageerror', e => problems.push(`tune page error: ${e.message}`));
  p5.on('request', r => { if (!r.url().startsWith(srv.url + '/')) problems.push(`tune page request to ${r.url()}`); });
  // each panel: its number of points, the points' x and y, and the value's label
  const panels = () => p5.$$eval('#tune-plot g.panel', gs => gs.map(g => ({
    name: g.dataset.param, n: Number(g.dataset.points),
    points: g.querySelector('polyline.trajectory').getAttribute('points').split(' ').map(p => p.split(',').map(Number)),
    label: g.querySelector('text.value').textContent })));
  // x is the iteration's (150 + k / 5 * 420); a higher value is drawn higher
  const check = (drawn, k, what) => {
    eq(drawn.map(p => p.name), params.map(p => p.name), `${what}: a panel per parameter`);
    drawn.forEach((d, i) => {
      eq([d.n, d.points.length], [k + 1, k + 1], `${what}: ${d.name}'s points (the start and ${k} iterations)`);
      eq(d.points.map(p => p[0]), Array.from({ length: k + 1 }, (_, j) => Math.round((150 + j / 5 * 420) * 10) / 10),
          `${what}: ${d.name}'s x`);
      const vals = [params[i].start, ...its.slice(0, k).map(l => theta(l)[i])];
      for (let a = 0; a < vals.length; a++) {
        for (let b = 0; b < vals.length; b++) {
          if (vals[a] > vals[b] + 1e-9) assert(d.points[a][1] < d.points[b][1],
              `${what}: ${d.name}: ${vals[a]} drawn above ${vals[b]}`);
        }
      }
      eq(d.label, rounded(params[i], vals[vals.length - 1]), `${what}: ${d.name}'s current value`);
    });
  };
  try {
    await p5.goto(srv.url + '/');
    await p5.waitForFunction(() => document.body.dataset.ready === '1');
    eq(await p5.$eval('#tab-tune', e => e.hidden), false, 'the Tune link with --tune');
    await p5.click('#tab-tune');
    await p5.waitForFunction(() => Number(document.getElementById('tune').dataset.polls) >= 1);
    eq(await p5.$eval('#tune', e => [e.dataset.iterations, e.dataset.done]), ['3', '0'], 'three iterations, not done');
    check(await panels(), 3, 'three iterations');
    eq(await p5.$$eval('#tune-params td.current', t => t.map(x => x.textContent)),
        params.map((p, i) => rounded(p, theta(its[2])[i])),
      'the table\'s current values');
    assert((await p5.$eval('#tune-line', e => e.textContent)).startsWith('iteration 3 of 5'), 'the progress line');
    eq(await p5.$eval('#tune-confirm', e => e.dataset.state), 'none', 'no confirmation yet');
    // a new iteration, shown at the next poll
    fs.appendFileSync(path.join(dir, 'tune.tsv'), its[3]);
    await p5.waitForFunction(() => document.getElementById('tune').dataset.iterations === '4', null,
        { timeout: 15000 });
    check(await panels(), 4, 'a fourth iteration');
    // the confirmation under way: its first 100 games
    const conf = lines('confirm/journal.tsv');
    fs.appendFileSync(path.join(dir, 'tune.tsv'), its[4]);
    fs.copyFileSync(path.join(run, 'tuned.txt'), path.join(dir, 'tuned.txt'));
    fs.mkdirSync(path.join(dir, 'confirm'));
    fs.writeFileSync(path.join(dir, 'confirm/journal.tsv'), conf.filter(l => !l.startsWith('G\t')).join('') +
      conf.filter(l => l.startsWith('G\t')).slice(0, 100).join(''));
    await p5.waitForSelector('#tune-confirm[data-state="running"]', { timeout: 15000 });
    eq(await p5.$eval('#tune-confirm td[data-field="games"]', e => e.textContent), '100 of at most 200',
        'the games so far');
    eq(await p5.$eval('#tune-spec', e => e.textContent), fs.readFileSync(path.join(run, 'tuned.txt'), 'utf8').trim(),
        'the tuned spec');
    check(await panels(), 5, 'every iteration');
    await shot('tune.png', p5);
    // done: the summary's decision, and the polling stops
    fs.copyFileSync(path.join(run, 'confirm/journal.tsv'), path.join(dir, 'confirm/journal.tsv'));
    fs.copyFileSync(path.join(run, 'summary.json'), path.join(dir, 'summary.json'));
    await p5.waitForFunction(() => document.getElementById('tune').dataset.done === '1', null, { timeout: 15000 });
    const sum = JSON.parse(fs.readFileSync(path.join(run, 'summary.json'), 'utf8')).confirm;
    eq(await p5.$eval('#tune-confirm', e => [e.dataset.state, e.dataset.decision]), ['done', sum.decision],
        'the confirmation done');
    eq(await p5.$eval('#tune-confirm td[data-field="games"]', e => e.textContent), `${sum.games} of at most 200`,
        'its games');
    const polls = await p5.$eval('#tune', e => e.dataset.polls);
    await new Promise(r => setTimeout(r, 5000));
    eq(await p5.$eval('#tune', e => e.dataset.polls), polls, 'no poll once done');
  } finally {
    await p5.close();
    await srv.stop();
  }
});

test('no request left the origin; no console errors', async () => {
  eq(problems, [], 'problems');
});

const ok = await run();
await browser.close();
await server.stop();
process.exit(ok ? 0 : 1);
