// tests/web/api.mjs: the HTTP API of `marubatsu serve`, without a browser.
// Checks: the page and its files are served (and nothing else: no path
// escapes); the Host, Origin and Sec-Fetch-Site checks and the X-Marubatsu
// header (403);
// methods (405), unknown routes and games (404), bad parameters (400), a
// body over the limit (413), each with a JSON error; a whole game against
// ai14s (its replies equal the AI's own moves), undo/redo/step, hint scores
// equal to ai14s's analysis, save and load in play's record format; the
// tree explorer's node counts and scores (the series' 549,946 nodes, the
// root's sv score 0 and the known scores of B2's children); a hostile
// sandboxed script AI (an endless loop) ends as a failure with its reason
// while the server keeps answering, under the default budgets and under
// --instructions; raw bytes in a sandboxed AI's error and in a query
// reach the JSON as valid UTF-8 (U+FFFD); 400 random hostile requests and raw
// garbage get JSON errors, never a 5xx or a crash; the game limit and idle expiry; the
// results view of a tournament directory; Ctrl-C stops the server (exit 0).
// Usage: node tests/web/api.mjs PROGRAM
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { test, run, assert, eq, startServer, request, api } from './harness.mjs';

const program = path.resolve(process.argv[2] || 'build/marubatsu');
const here = path.dirname(new URL(import.meta.url).pathname);
const hostile = path.resolve(here, '../hostile/infinite_loop.lua');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-web-api-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

const server = await startServer(program, ['--ai', hostile]);

test('the page and its files are served with their types', async () => {
  const r = await request(server, 'GET', '/');
  eq(r.status, 200, 'status of /');
  assert(r.headers['content-type'].startsWith('text/html'), 'html type');
  assert(r.body.includes('<title>marubatsu</title>'), 'the page');
  assert(r.headers['content-security-policy'].includes("default-src 'self'"), 'a CSP');
  for (const [file, type] of [['/app.js', 'text/javascript'], ['/style.css', 'text/css'], ['/common.js', 'text/javascript']]) {
    const a = await request(server, 'GET', file);
    eq(a.status, 200, file);
    assert(a.headers['content-type'].startsWith(type), `${file} type`);
  }
});

test('nothing outside web/ is served', async () => {
  for (const p of ['/../scripts/ai14s.lua', '/ai14s', '/lib/serve', '/docs/lua-api.md', '/report.html', '/%2e%2e/Makefile']) {
    const r = await request(server, 'GET', p);
    eq(r.status, 404, p);
    assert(r.json && r.json.error, `${p}: a JSON error`);
  }
});

test('a Host header naming another server is refused (DNS rebinding)', async () => {
  for (const host of ['evil.example:80', `evil.example:${server.port}`, '127.0.0.1:1', `127.0.0.1.evil.example:${server.port}`]) {
    const r = await request(server, 'GET', '/api/info', { headers: { Host: host } });
    eq(r.status, 403, `Host ${host}`);
    assert(/Host/.test(r.json.error), 'the error names the Host header');
  }
  const ok = await request(server, 'GET', '/api/info', { headers: { Host: `localhost:${server.port}` } });
  eq(ok.status, 200, 'localhost is this server');
});

test('another Origin is refused, this one accepted', async () => {
  const bad = await api(server, 'POST', 'games', { headers: { Origin: 'http://evil.example' } });
  eq(bad.status, 403, 'cross-origin POST');
  const bad2 = await api(server, 'GET', 'info', { headers: { Origin: `http://127.0.0.1:${server.port + 1}` } });
  eq(bad2.status, 403, 'another port is another origin');
  const good = await api(server, 'POST', 'games', { headers: { Origin: `http://127.0.0.1:${server.port}` } });
  eq(good.status, 201, 'same-origin POST');
});

test('Sec-Fetch-Site other than same-origin or none is refused (an <img> or <script> of another page)', async () => {
  for (const site of ['cross-site', 'same-site']) {
    const r = await api(server, 'GET', 'info', { headers: { 'Sec-Fetch-Site': site } });
    eq(r.status, 403, site);
    assert(/Sec-Fetch-Site/.test(r.json.error), r.json.error);
  }
  for (const site of ['same-origin', 'none']) eq((await api(server, 'GET', 'info', { headers: { 'Sec-Fetch-Site': site } })).status, 200, site);
});

test('a POST without X-Marubatsu is refused (a plain form cannot add it)', async () => {
  const r = await request(server, 'POST', '/api/games', { body: 'o=human' });
  eq(r.status, 403, 'status');
  assert(/X-Marubatsu/.test(r.json.error), 'the error names the header');
});

test('methods, routes and games that do not exist', async () => {
  eq((await request(server, 'PUT', '/api/games')).status, 405, 'PUT');
  eq((await request(server, 'DELETE', '/')).status, 405, 'DELETE');
  eq((await api(server, 'GET', 'games')).status, 405, 'GET games');
  eq((await api(server, 'POST', 'info')).status, 405, 'POST info');
  eq((await api(server, 'GET', 'nothing')).status, 404, 'unknown route');
  const r = await api(server, 'GET', 'games/0123abc');
  eq(r.status, 404, 'unknown game');
  assert(/no game/.test(r.json.error), r.json.error);
  eq((await api(server, 'GET', 'games/../../etc')).status, 404, 'dots in an id');
});

test('bad parameters get 400 and a reason; no player is run as code', async () => {
  for (const [q, re] of [
    ['o=os.exit()', /unknown player/], ['x=../../etc/passwd', /unknown player/],
    ['x=' + encodeURIComponent(hostile), /unknown player/],
    ['width=0', /width/], ['width=33', /width/], ['height=x', /height/], ['width=3&k=4', /k/],
    ['rule=renju', /renju rule is not supported.*freestyle or exact/], ['rule=five', /unknown rule 'five'/],
  ]) {
    const r = await api(server, 'POST', 'games?' + q);
    eq(r.status, 400, q);
    assert(re.test(r.json.error), `${q}: ${r.json.error}`);
  }
  const g = (await api(server, 'POST', 'games?x=human')).json;
  for (const [q, status] of [['move=Z9', 400], ['move=', 400], ['move=B2x', 400]]) {
    eq((await api(server, 'POST', `games/${g.id}/move?${q}`)).status, status, q);
  }
  eq((await api(server, 'POST', `games/${g.id}/step?to=5`)).status, 400, 'step past the history');
  eq((await api(server, 'GET', `games/${g.id}/hint?ai=nothing`)).status, 400, 'hint by an unknown AI');
  const many = Array.from({ length: 20 }, (_, i) => `p${i}=1`).join('&');
  eq((await api(server, 'GET', 'info?' + many)).status, 400, 'too many parameters');
});

test('the rule: a new game takes rule=exact, its state says so, an overline does not win', async () => {
  const g = (await api(server, 'POST', 'games?o=human&x=human&width=9&height=1&k=3&rule=exact')).json;
  eq([g.rule, (await api(server, 'POST', 'games?x=human')).json.rule], ['exact', 'freestyle'], 'rule');
  let s;
  for (const sq of ['A1', 'G1', 'B1', 'I1', 'D1', 'F1', 'E1', 'H1']) s = (await api(server, 'POST', `games/${g.id}/move?move=${sq}`)).json;
  eq([s.status, s.turn], ['playing', 'o'], 'four in a row of x is no win for k = 3');
  s = (await api(server, 'POST', `games/${g.id}/move?move=C1`)).json;
  eq(s.status, 'draw', 'five of o fill the board: a draw');
});

test('a body over 256 KiB gets 413', async () => {
  const g = (await api(server, 'POST', 'games')).json;
  const r = await api(server, 'POST', `games/${g.id}/record`, { body: 'A1,'.repeat(100000) });
  eq(r.status, 413, 'status');
  assert(r.json.error, 'a JSON error');
});

test('info lists the AIs, the --ai file sandboxed', async () => {
  const r = await api(server, 'GET', 'info');
  eq(r.status, 200, 'status');
  const ids = r.json.ais.map(a => a.id);
  assert(ids.includes('ai14s') && ids.includes('ai2') && ids.includes('ai_abs_dls'), 'built-in AIs');
  eq(r.json.ais.find(a => a.id === 'ai14s').sandboxed, false, 'ai14s trusted');
  eq(r.json.ais.find(a => a.id === 'infinite_loop').sandboxed, true, 'the --ai file sandboxed');
});

// ai14s's own choice in the same position, through the program
function ai14sAnalysis(moves) {
  const code = `local g = mb.Marubatsu() for m in ("${moves}"):gmatch("[^,]+") do g:move(mb.move(m)) end
    local a = mb.ai("ai14s")(g, {analyze = true})
    local c = {} for i, m in ipairs(a.candidate) do c[i] = g:excel(m) end
    local s = {} for m, v in pairs(a.score_by_move) do s[#s + 1] = g:excel(m) .. "=" .. v end
    table.sort(s) print(table.concat(c, " ")) print(table.concat(s, " "))`;
  const [cand, scores] = execFileSync(program, ['-e', code], { encoding: 'utf8' }).trim().split('\n');
  return { cand: cand.split(' '), scores: Object.fromEntries(scores.split(' ').map(p => p.split('='))) };
}

test('a whole game against ai14s: its replies are its candidates, hint equals its analysis', async () => {
  let g = (await api(server, 'POST', 'games?o=human&x=ai14s')).json;
  eq(g.to_move, 'human', 'a person moves first');
  const mine = ['A1', 'C1', 'A2', 'C2', 'A3', 'C3', 'B1', 'B3'];
  const played = [];
  while (g.status === 'playing') {
    const hint = await api(server, 'GET', `games/${g.id}/hint`);
    const ref = ai14sAnalysis(played.join(','));
    eq(hint.json.candidate, ref.cand, `hint candidates after ${played}`);
    for (const [sq, v] of Object.entries(ref.scores)) eq(Number(hint.json.values[sq]), Number(v), `score of ${sq}`);
    const free = mine.find(sq => !played.includes(sq) && g.board[Number(sq[1]) - 1][sq.charCodeAt(0) - 65] === '.');
    const r = await api(server, 'POST', `games/${g.id}/move?move=${free}`);
    eq(r.status, 200, `move ${free}`);
    played.push(free);
    g = r.json;
    if (g.status !== 'playing') break;
    eq((await api(server, 'POST', `games/${g.id}/move?move=B2`)).status, 409, 'not a person\'s turn');
    const before = ai14sAnalysis(played.join(',')).cand;
    const a = await api(server, 'POST', `games/${g.id}/ai`);
    eq(a.status, 200, 'ai status');
    g = a.json;
    assert(before.includes(g.last), `ai14s played ${g.last}, one of its candidates ${before}`);
    assert(typeof g.ai_ms === 'number', 'the reply is timed');
    played.push(g.last);
  }
  assert(['x', 'draw'].includes(g.status), `ai14s does not lose: ${g.status}`);
  eq((await api(server, 'POST', `games/${g.id}/ai`)).status, 409, 'over');
  // undo goes back to the person's last turn, redo forward, step anywhere
  const n = g.history.length;
  const u = (await api(server, 'POST', `games/${g.id}/undo`)).json;
  eq(u.step % 2, 0, 'a person (o) is to move after undo');
  assert(u.step < n && u.history.length === n, 'history kept');
  const r = (await api(server, 'POST', `games/${g.id}/redo`)).json;
  eq(r.step, n, 'redo returns to the end');
  const s = (await api(server, 'POST', `games/${g.id}/step?to=1`)).json;
  eq([s.step, s.board[0][0], s.turn], [1, 'o', 'x'], 'step 1');
  const m = (await api(server, 'POST', `games/${g.id}/players?x=human`)).json;
  const again = (await api(server, 'POST', `games/${g.id}/move?move=C3`)).json;
  eq([again.step, again.history.length, again.history[1]], [2, 2, 'C3'], 'a move drops the rest of the history');
  eq(m.players.x, 'human', 'players changed');
});

test('save and load in play\'s record format', async () => {
  const g = (await api(server, 'POST', 'games?x=human')).json;
  for (const sq of ['B2', 'A1', 'C3']) await api(server, 'POST', `games/${g.id}/move?move=${sq}`);
  const rec = await api(server, 'GET', `games/${g.id}/record`);
  eq(rec.status, 200, 'status');
  eq(rec.body, '# marubatsu game record\n# board 3x3 k=3\nB2,A1,C3\n', 'the record');
  assert(/attachment; filename="game.txt"/.test(rec.headers['content-disposition']), 'a download');
  // play reads what the server wrote
  const file = path.join(tmp, 'game.txt');
  fs.writeFileSync(file, rec.body);
  const shown = execFileSync(program, ['replay', file, '--all', '--ascii'], { encoding: 'utf8' });
  assert(shown.includes('3 moves, board 3x3 k=3'), shown);
  const l = await api(server, 'POST', `games/${g.id}/record`, { body: '# board 4x4 k=3\nA1,D4\n' });
  eq(l.status, 200, 'load');
  eq([l.json.width, l.json.k, l.json.board[3], l.json.turn], [4, 3, '...x', 'o'], 'loaded game');
  const bad = await api(server, 'POST', `games/${g.id}/record`, { body: 'A1,A1' });
  eq(bad.status, 400, 'a bad record');
  eq(bad.json.error, 'the record: line 1: move 2 (A1) is illegal: the square is occupied', 'its message');
});

test('tree: the series\' counts, the root and B2\'s children', async () => {
  const r = await api(server, 'GET', 'tree');
  eq(r.status, 200, 'status');
  eq(r.json.depth_counts, [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872], 'nodes by depth');
  eq(r.json.total, 549946, 'total');
  eq([r.json.node.score, r.json.node.nodes, r.json.children.length], ['0', 549946, 9], 'root');
  const b2 = await api(server, 'GET', 'tree?moves=B2&scoring=sv');
  eq(b2.json.node.board, ['...', '.o.', '...'], 'B2 board');
  eq(b2.json.node.best, ['A1', 'C1', 'A3', 'C3'], 'x\'s best replies to B2');
  const sc = Object.fromEntries(b2.json.children.map(c => [c.move, c.score]));
  eq(sc, { A1: '0', B1: '2.0', C1: '0', A2: '2.0', C2: '2.0', A3: '0', B3: '2.0', C3: '0' }, 'sv scores of the replies');
  const old = await api(server, 'GET', 'tree?moves=B2,B1&scoring=old');
  eq([old.json.node.score, old.json.path], ['1', ['B2', 'B1']], 'old scoring');
  for (const [q, re] of [['moves=B2,B2', /occupied/], ['moves=Z1', /not a square/], ['moves=B2,', /comma/],
    ['scoring=new', /scoring/], ['moves=A1,B1,A2,B2,A3,B3', /over/]]) {
    const e = await api(server, 'GET', 'tree?' + q);
    eq(e.status, 400, q);
    assert(re.test(e.json.error), `${q}: ${e.json.error}`);
  }
});

// The raw bytes of a reply, decoded strictly as UTF-8 (an invalid byte
// throws) and parsed as JSON: what strict clients do.
function strictJson(server, method, path) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port: server.port, method, path,
      headers: { Host: `127.0.0.1:${server.port}`, 'X-Marubatsu': '1' },
    }, res => {
      const parts = [];
      res.on('data', d => parts.push(d));
      res.on('end', () => {
        try {
          resolve(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(parts))));
        } catch (e) { reject(e); }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

test('raw bytes in an AI\'s error and in a query reach JSON as valid UTF-8 (U+FFFD)', async () => {
  const script = path.join(tmp, 'bad_utf8.lua');
  fs.writeFileSync(script, Buffer.concat([Buffer.from('return function() error("'),
    Buffer.from([0xff, 0xfe]), Buffer.from(' bad '), Buffer.from([0xc0, 0xaf]), Buffer.from('", 0) end\n')]));
  const s = await startServer(program, ['--ai', script]);
  try {
    const g = await strictJson(s, 'POST', '/api/games?o=bad_utf8&x=human');
    const r = await strictJson(s, 'POST', `/api/games/${g.id}/ai`);
    eq(r.failed && r.failed.reason, 'error: \ufffd\ufffd bad \ufffd\ufffd', 'the reason');
    const t = await strictJson(s, 'GET', '/api/tree?moves=%FF');
    eq(t.error, 'move 1 of the move list (\ufffd) is not a square of the 3x3 board', 'the tree\'s message');
  } finally {
    await s.stop();
  }
});

test('a hostile sandboxed AI fails with its reason; the server goes on', async () => {
  const g = (await api(server, 'POST', 'games?o=infinite_loop&x=human')).json;
  const r = await api(server, 'POST', `games/${g.id}/ai`);
  eq(r.status, 200, 'status');
  // the default budgets: time (1 s) and memory
  eq(r.json.failed, { ai: 'infinite_loop', mark: 'o', reason: 'time' }, 'the failure');
  eq(r.json.step, 0, 'no move made');
  eq((await api(server, 'GET', 'info')).status, 200, 'still answering');
  const h = await api(server, 'GET', `games/${g.id}/hint?ai=infinite_loop`);
  eq(h.json.failed, 'time', 'as a hint too');
});

test('--instructions and --time 0: the budgets of sandboxed AIs come from the command line', async () => {
  const counted = await startServer(program, ['--ai', hostile, '--instructions', '100000', '--time', '0']);
  try {
    const g = (await api(counted, 'POST', 'games?o=infinite_loop&x=human')).json;
    const r = await api(counted, 'POST', `games/${g.id}/ai`);
    eq(r.json.failed, { ai: 'infinite_loop', mark: 'o', reason: 'instructions' }, 'stopped by the instruction budget');
    eq(r.json.step, 0, 'no move made');
  } finally {
    eq(await counted.stop(), 0, 'exit status after SIGINT');
  }
});

test('hostile requests: random routes, parameters and bodies, raw garbage; every answer a JSON error, the server lives', async () => {
  const g = (await api(server, 'POST', 'games?x=human')).json;
  let seed = 12345;
  const rnd = n => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const words = ['games', g.id, 'move', 'ai', 'undo', 'redo', 'step', 'hint', 'record', 'players', 'close', 'tree', 'info',
    'results', '..', '%00', '%ff', 'A1', 'ZZZ99999', '-1', '1e9', '\u0000', 'x'.repeat(300)];
  const keys = ['move', 'to', 'o', 'x', 'ai', 'moves', 'scoring', 'width', 'height', 'k'];
  for (let i = 0; i < 400; i++) {
    const parts = Array.from({ length: 1 + rnd(4) }, () => encodeURIComponent(words[rnd(words.length)]));
    const q = Array.from({ length: rnd(4) }, () => `${keys[rnd(keys.length)]}=${encodeURIComponent(words[rnd(words.length)])}`).join('&');
    const method = ['GET', 'POST', 'POST'][rnd(3)];
    const body = method === 'POST' && rnd(2) ? words[rnd(words.length)].repeat(1 + rnd(50)) : undefined;
    const r = await api(server, method, parts.join('/') + (q ? '?' + q : ''), { body });
    assert(r.status < 500, `${method} ${parts.join('/')}?${q}: ${r.status} ${r.body}`);
    if (r.status >= 400) assert(r.json && typeof r.json.error === 'string', `${method} ${parts.join('/')}: a JSON error`);
  }
  // raw bytes that are not HTTP, and a request cut in the middle
  const net = await import('node:net');
  for (const raw of ['\x00\x01\x02 garbage\r\n\r\n', 'GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999\r\n\r\nabc',
    'POST /api/games HTTP/1.1\r\nHo']) {
    await new Promise(resolve => {
      const sock = net.connect(server.port, '127.0.0.1', () => { sock.write(raw); setTimeout(() => sock.destroy(), 100); });
      sock.on('close', resolve);
      sock.on('error', resolve);
    });
  }
  eq((await api(server, 'GET', `games/${g.id}`)).status, 200, 'still serving the game');
});

test('results without --results: 404', async () => {
  for (const p of ['results', 'results/journal']) {
    const r = await api(server, 'GET', p);
    eq(r.status, 404, p);
    assert(/--results/.test(r.json.error), r.json.error);
  }
});

test('--max-games: the least recently used game goes; --idle: idle games expire', async () => {
  const small = await startServer(program, ['--max-games', '2', '--idle', '1']);
  try {
    const a = (await api(small, 'POST', 'games')).json;
    const b = (await api(small, 'POST', 'games')).json;
    await api(small, 'GET', `games/${a.id}`);
    const c = (await api(small, 'POST', 'games')).json;
    eq((await api(small, 'GET', `games/${b.id}`)).status, 404, 'b dropped (least recently used)');
    eq((await api(small, 'GET', `games/${a.id}`)).status, 200, 'a kept');
    await new Promise(r => setTimeout(r, 1300));
    await api(small, 'POST', 'games');
    eq((await api(small, 'GET', `games/${c.id}`)).status, 404, 'c expired');
  } finally {
    eq(await small.stop(), 0, 'exit status after SIGINT');
  }
});

test('--results DIR serves a tournament\'s data; a missing DIR is refused at start', async () => {
  const out = path.join(tmp, 'tour');
  execFileSync(program, ['tournament', 'ai1', 'ai14s', '--games', '4', '--seed', '3', '--quiet', '--no-progress', '--out', out]);
  const s = await startServer(program, ['--results', out]);
  try {
    const r = await api(s, 'GET', 'results');
    eq(r.status, 200, 'status');
    eq(r.json.results.ranking[0].name, 'ai14s', 'the winner');
    eq([r.json.cut, r.json.dir], [false, out], 'the whole journal');
    const j = await api(s, 'GET', 'results/journal');
    eq(j.status, 200, 'journal status');
    eq(j.body, fs.readFileSync(path.join(out, 'journal.tsv'), 'utf8'), 'the journal as written');
    eq(j.body.split('\n').filter(l => l.startsWith('G\t')).length, 4, 'every game');
    const page = fs.readFileSync(path.join(out, 'report.html'), 'utf8');
    assert(page.includes('id="report-journal">H\tmarubatsu-journal'), 'report.html carries the journal');
    assert(!/<(script|link|img)[^>]+(src|href)=/.test(page), 'report.html loads nothing');
    const info = (await api(s, 'GET', 'info')).json;
    eq(info.results, true, 'info says so');
  } finally {
    await s.stop();
  }
  let status = 0;
  try {
    execFileSync(program, ['serve', '--port', '0', '--results', path.join(tmp, 'none')], { stdio: 'pipe' });
  } catch (e) { status = e.status; }
  eq(status, 1, 'exit status for a missing results directory');
});

test('bad options: exit 2 with a message', async () => {
  for (const args of [['--port', '70000'], ['--port', 'x'], ['--max-games', '0'], ['--bogus'], ['extra'], ['--time', 'soon'], ['--memory', '-1'], ['--time', '0'], ['--time', '0', '--instructions', '0']]) {
    let status = 0, err = '';
    try { execFileSync(program, ['serve', ...args], { stdio: 'pipe' }); } catch (e) { status = e.status; err = String(e.stderr); }
    eq(status, 2, args.join(' '));
    assert(/marubatsu serve: /.test(err), err);
  }
});

const ok = await run();
eq(await server.stop(), 0, 'exit status after SIGINT');
process.exit(ok ? 0 : 1);
