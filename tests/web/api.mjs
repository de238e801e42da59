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
// Availability (issue 22): a built-in AI that does not return (ai_mmdfs on
// 4x4) ends with 504 at its --builtin-time limit while other requests and
// another AI call are answered meanwhile, and its worker is restarted; a
// sandboxed AI stuck in one C call (string.rep) is ended the same way; a
// worker that dies gives 502 and is replaced; one
// address gets at most one AI call per worker (503); SIGTERM during such a
// call stops the server within seconds, leaving no worker behind; 200 slow
// connections of one address (headers sent a byte at a time) keep neither
// that address nor another from being served, and hold at most
// --client-connections; a FIFO or a symbolic link as --results' journal.tsv
// or results.json is an error, not a hang. Gomocup brains offered with --ai
// brain:COMMAND: our own plays a legal move; a brain's MESSAGE and DEBUG
// lines come back with its move and hint exactly (markup escaped), a flood
// of them is cut at 256 lines with a note; off k = 5 it fails with the
// reason; one that cannot run stops the server at start. A tune run
// followed with --tune DIR (GET tune): its parameters, iterations (w, l,
// d, theta), current values and spec equal its files' as tune.tsv grows a
// line at a time (a cut last line left out, a journal rewritten whole read
// afresh); the confirmation's games, score, Elo, LLR and decision from its
// journal equal summary.json's (the games past the SPRT's decision left
// out); done once summary.json is there; a link or a FIFO as any of its
// files is refused (404) at once, a bad line is named by file and line, a
// 33 MiB journal is read up to 32 MiB with its history sampled; a DIR
// without a tune journal stops the server at start (exit 1).
// Usage: node tests/web/api.mjs PROGRAM
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
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

const sleep = ms => new Promise(r => setTimeout(r, ms));
const clock = () => Number(process.hrtime.bigint()) / 1e6;
// p, or a rejection naming what did not happen within ms
function within(p, ms, what) {
  let timer;
  return Promise.race([p, new Promise((_,
      reject) => { timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
}
// Stop a server with a signal; its exit code, or null (then killed) if it
// did not exit within ms.
function stopWithin(srv, signal, ms) {
  return new Promise(done => {
    if (srv.proc.exitCode !== null) return done(srv.proc.exitCode);
    const timer = setTimeout(() => { srv.proc.kill('SIGKILL'); done(null); }, ms);
    srv.proc.on('exit', code => { clearTimeout(timer); done(code); });
    srv.proc.kill(signal);
  });
}
// Wait until cond() holds (polled every 50 ms), at most ms; its last value
async function until(cond, ms) {
  const end = clock() + ms;
  let v = cond();
  while (!v && clock() < end) { await sleep(50); v = cond(); }
  return v;
}
// The AI workers of the server with that pid (their command lines end in --worker PID)
function workersOf(pid) {
  const found = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let cmd = '';
    try { cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8'); } catch { continue; }
    if (cmd.endsWith(`\0--worker\0${pid}\0`)) found.push(Number(d));
  }
  return found;
}

test('the page and its files are served with their types', async () => {
  const r = await request(server, 'GET', '/');
  eq(r.status, 200, 'status of /');
  assert(r.headers['content-type'].startsWith('text/html'), 'html type');
  assert(r.body.includes('<title>marubatsu</title>'), 'the page');
  assert(r.headers['content-security-policy'].includes("default-src 'self'"), 'a CSP');
  for (const [file, type] of [['/app.js', 'text/javascript'], ['/style.css', 'text/css'],
      ['/common.js', 'text/javascript']]) {
    const a = await request(server, 'GET', file);
    eq(a.status, 200, file);
    assert(a.headers['content-type'].startsWith(type), `${file} type`);
  }
});

test('nothing outside web/ is served', async () => {
  for (const p of ['/../scripts/ai14s.lua', '/ai14s', '/lib/serve', '/docs/lua-api.md', '/report.html',
      '/%2e%2e/Makefile']) {
    const r = await request(server, 'GET', p);
    eq(r.status, 404, p);
    assert(r.json && r.json.error, `${p}: a JSON error`);
  }
});

test('a Host header naming another server is refused (DNS rebinding)', async () => {
  for (const host of ['evil.example:80', `evil.example:${server.port}`, '127.0.0.1:1',
      `127.0.0.1.evil.example:${server.port}`]) {
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
  for (const site of ['same-origin',
      'none']) eq((await api(server, 'GET', 'info', { headers: { 'Sec-Fetch-Site': site } })).status, 200, site);
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
  for (const sq of ['A1', 'G1', 'B1', 'I1', 'D1', 'F1', 'E1', 'H1']) s = (await api(server, 'POST',
      `games/${g.id}/move?move=${sq}`)).json;
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
  eq(sc, { A1: '0', B1: '2.0', C1: '0', A2: '2.0', C2: '2.0', A3: '0', B3: '2.0', C3: '0' },
      'sv scores of the replies');
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

test('hostile requests: random routes, parameters and bodies, raw garbage; every answer a JSON error, the server lives',
    async () => {
  const g = (await api(server, 'POST', 'games?x=human')).json;
  let seed = 12345;
  const rnd = n => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const words = ['games', g.id, 'move', 'ai', 'undo', 'redo', 'step', 'hint', 'record', 'players', 'close', 'tree',
      'info',
    'results', '..', '%00', '%ff', 'A1', 'ZZZ99999', '-1', '1e9', '\u0000', 'x'.repeat(300)];
  const keys = ['move', 'to', 'o', 'x', 'ai', 'moves', 'scoring', 'width', 'height', 'k'];
  for (let i = 0; i < 400; i++) {
    const parts = Array.from({ length: 1 + rnd(4) }, () => encodeURIComponent(words[rnd(words.length)]));
    const q = Array.from({ length: rnd(4) },
        () => `${keys[rnd(keys.length)]}=${encodeURIComponent(words[rnd(words.length)])}`).join('&');
    const method = ['GET', 'POST', 'POST'][rnd(3)];
    const body = method === 'POST' && rnd(2) ? words[rnd(words.length)].repeat(1 + rnd(50)) : undefined;
    const r = await api(server, method, parts.join('/') + (q ? '?' + q : ''), { body });
    assert(r.status < 500, `${method} ${parts.join('/')}?${q}: ${r.status} ${r.body}`);
    if (r.status >= 400) assert(r.json && typeof r.json.error === 'string',
        `${method} ${parts.join('/')}: a JSON error`);
  }
  // raw bytes that are not HTTP, and a request cut in the middle
  const net = await import('node:net');
  for (const raw of ['\x00\x01\x02 garbage\r\n\r\n',
      'GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999\r\n\r\nabc',
    'POST /api/games HTTP/1.1\r\nHo']) {
    await new Promise(resolve => {
      const sock = net.connect(server.port, '127.0.0.1',
          () => { sock.write(raw); setTimeout(() => sock.destroy(), 100); });
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
  execFileSync(program, ['tournament', 'ai1', 'ai14s', '--games', '4', '--seed', '3', '--quiet', '--no-progress',
      '--out', out]);
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

test('a built-in AI that does not return (ai_mmdfs on 4x4) ends with 504 at --builtin-time; '
  + 'the server answers meanwhile', async () => {
  const srv = await startServer(program, ['--builtin-time', '2']);
  try {
    const big = (await api(srv, 'POST', 'games?o=human&x=human&width=4&height=4')).json;
    const small = (await api(srv, 'POST', 'games?o=human&x=ai14s')).json;
    await api(srv, 'POST', `games/${small.id}/move?move=B2`);
    const t0 = clock();
    let hintDone = 0;
    const hint = within(api(srv, 'GET', `games/${big.id}/hint?ai=ai_mmdfs`), 30000, 'the ai_mmdfs hint')
      .then(r => { hintDone = clock(); return r; });
    hint.catch(() => {}); // awaited below
    await sleep(200);
    const info = await within(api(srv, 'GET', 'info'), 5000, 'info while ai_mmdfs computes');
    eq(info.status, 200, 'info answered');
    const tree = await within(api(srv, 'GET', 'tree?moves=B2'), 5000, 'the tree while ai_mmdfs computes');
    eq(tree.status, 200, 'tree answered');
    eq(hintDone, 0, 'both answered before the hint');
    // the other worker plays meanwhile (once started: within seconds)
    const ai = await within(api(srv, 'POST', `games/${small.id}/ai`), 10000, 'ai14s while ai_mmdfs computes');
    eq([ai.status, ai.json.step], [200, 2], 'ai14s moved');
    const h = await hint;
    const took = (hintDone - t0) / 1000;
    eq([h.status, h.json.reason, h.json.ai], [504, 'time', 'ai_mmdfs'], 'the hint ends with 504');
    assert(/ai_mmdfs gave no answer within its limit of 2 s \(--builtin-time\)/.test(h.json.error), h.json.error);
    assert(took >= 1.9 && took < 20, `ended after its limit (2 s + 0.5 s of slack), well under 20 s: ${took} s`);
    // its worker was restarted: AIs answer again, in the same position
    const again = await within(api(srv, 'GET', `games/${small.id}/hint`), 20000, 'a hint after the restart');
    eq([again.status, again.json.candidate], [200, ai14sAnalysis(`B2,${ai.json.last}`).cand],
        'ai14s after the restart');
    assert(await until(() => workersOf(srv.proc.pid).length === 2, 10000), 'two workers again');
    eq(await stopWithin(srv, 'SIGINT', 10000), 0, 'exit status after SIGINT');
  } finally {
    await stopWithin(srv, 'SIGKILL', 1000);
  }
});

test('a sandboxed AI stuck inside one C call (table.move over 2^63 indexes) is stopped too', async () => {
  const file = path.join(tmp, 'c_loop.lua');
  fs.writeFileSync(file, 'return function(game) table.move({}, 1, math.maxinteger - 1, 1, {}) return 0 end\n');
  const srv = await startServer(program, ['--ai', file, '--time', '1']);
  try {
    const g = (await api(srv, 'POST', 'games?o=c_loop&x=human')).json;
    const t0 = clock();
    const move = within(api(srv, 'POST', `games/${g.id}/ai`), 20000, 'the c_loop move');
    move.catch(() => {}); // awaited below
    await sleep(200);
    eq((await within(api(srv, 'GET', 'info'), 5000, 'info meanwhile')).status, 200, 'info answered meanwhile');
    const r = await move;
    const took = (clock() - t0) / 1000;
    // killed past its budget (504), or refused by the sandbox itself (a failure with its reason)
    assert(r.status === 504 || (r.status === 200 && r.json.failed && r.json.step === 0), `${r.status} ${r.body}`);
    if (r.status === 504) assert(/c_loop gave no answer within its limit of 1 s \(--time\)/.test(r.json.error),
        r.json.error);
    assert(took < 15, `ended in ${took} s`);
    eq((await within(api(srv, 'GET', `games/${g.id}`), 5000, 'the game after')).json.step, 0, 'no move made');
    eq(await stopWithin(srv, 'SIGINT', 10000), 0, 'exit status after SIGINT');
  } finally {
    await stopWithin(srv, 'SIGKILL', 1000);
  }
});

test('a worker that dies mid-call gives 502 with the reason; a new one takes its place', async () => {
  const srv = await startServer(program, ['--builtin-time', '60']);
  try {
    const big = (await api(srv, 'POST', 'games?o=human&x=human&width=4&height=4')).json;
    // a worker ready (so that the long call runs at once, not after a start)
    eq((await within(api(srv, 'GET', `games/${big.id}/hint?ai=ai2`), 20000, 'a first hint')).status, 200,
        'a first hint');
    const hint = within(api(srv, 'GET', `games/${big.id}/hint?ai=ai_mmdfs`), 20000, 'the ai_mmdfs hint');
    hint.catch(() => {}); // awaited below
    assert(await until(() => workersOf(srv.proc.pid).length === 2, 10000), 'its two workers');
    await sleep(500);
    const old = workersOf(srv.proc.pid);
    for (const pid of old) process.kill(pid, 'SIGKILL');
    const h = await hint;
    eq([h.status, h.json.reason], [502, 'crash'], 'the hint');
    assert(/ai_mmdfs failed: its worker process died \(signal 9\)/.test(h.json.error), h.json.error);
    const small = (await api(srv, 'POST', 'games?o=human&x=human')).json;
    const again = await within(api(srv, 'GET', `games/${small.id}/hint`), 20000, 'a hint after');
    eq([again.status, again.json.candidate], [200, ai14sAnalysis('').cand], 'ai14s on the empty board');
    const now = workersOf(srv.proc.pid);
    assert(now.length === 2 && !now.some(p => old.includes(p)), `two new workers: ${now} (were ${old})`);
    eq(await stopWithin(srv, 'SIGINT', 10000), 0, 'exit status after SIGINT');
  } finally {
    await stopWithin(srv, 'SIGKILL', 1000);
  }
});

test('workers killed while idle are replaced before the next call: 200, not 502', async () => {
  const srv = await startServer(program, ['--builtin-time', '60']);
  try {
    const g = (await api(srv, 'POST', 'games?o=human&x=human')).json;
    eq((await within(api(srv, 'GET', `games/${g.id}/hint`), 20000, 'a first hint')).status, 200, 'a first hint');
    assert(await until(() => workersOf(srv.proc.pid).length === 2, 10000), 'its two workers');
    for (let round = 0; round < 3; round++) {
      const old = workersOf(srv.proc.pid);
      for (const pid of old) process.kill(pid, 'SIGKILL');
      // at once: the killed processes may not have ended yet
      const r = await within(api(srv, 'GET', `games/${g.id}/hint`), 20000, 'the hint after the kill');
      eq([r.status, r.json.candidate], [200, ai14sAnalysis('').cand], `round ${round + 1}: the hint (${r.json.error})`);
    }
  } finally {
    await stopWithin(srv, 'SIGKILL', 1000);
  }
});

test('one address gets at most one AI call per worker at once: 503', async () => {
  const srv = await startServer(program, ['--builtin-time', '1', '--workers', '1']);
  try {
    const big = (await api(srv, 'POST', 'games?o=human&x=human&width=4&height=4')).json;
    const first = within(api(srv, 'GET', `games/${big.id}/hint?ai=ai_mmdfs`), 30000, 'the first hint');
    first.catch(() => {}); // awaited below
    await sleep(200);
    const second = await within(api(srv, 'GET', `games/${big.id}/hint?ai=ai_mmdfs`), 5000, 'the second hint');
    eq([second.status, second.json.reason], [503, 'busy'], 'refused at once');
    assert(/too many AI calls from this address at once \(at most 1/.test(second.json.error), second.json.error);
    eq((await first).status, 504, 'the first one ran');
  } finally {
    await stopWithin(srv, 'SIGKILL', 1000);
  }
});

test('SIGTERM during a long AI call stops the server within seconds (exit 0), no worker left', async () => {
  const srv = await startServer(program, ['--builtin-time', '600']);
  const pid = srv.proc.pid;
  try {
    const g = (await api(srv, 'POST', 'games?o=ai_mmdfs&x=human&width=4&height=4')).json;
    const move = api(srv, 'POST', `games/${g.id}/ai`).catch(e => ({ error: e }));
    await sleep(300);
    assert(await until(() => workersOf(pid).length === 2, 10000), 'its two workers');
    const t0 = clock();
    const code = await stopWithin(srv, 'SIGTERM', 10000);
    const took = (clock() - t0) / 1000;
    eq(code, 0, `exit status after SIGTERM (null: still running after 10 s), ${took} s; its output:\n${srv.log()}`);
    assert(took < 5, `stopped in ${took} s`);
    assert(/stopped \(SIGTERM\)/.test(srv.log()), srv.log());
    const r = await within(move, 5000, 'the move request');
    assert(r.error || r.status === 503, `the pending move ended: ${JSON.stringify(r.status || String(r.error))}`);
    await sleep(200);
    eq(workersOf(pid), [], 'no worker left');
  } finally {
    await stopWithin(srv, 'SIGKILL', 1000);
  }
});

// 200 connections from 127.0.0.1 sending their headers a byte at a time
// for a few seconds; meanwhile requests from 127.0.0.1 and 127.0.0.2 must
// be answered, and the slow address holds at most `most` connections.
async function slowClients(args, most) {
  const srv = await startServer(program, args);
  const socks = [];
  let closed = 0, stop = false;
  try {
    for (let i = 0; i < 200; i++) {
      const sock = net.connect({ port: srv.port, host: '127.0.0.1', localAddress: '127.0.0.1' });
      sock.on('error', () => {});
      sock.on('close', () => { closed++; });
      sock.on('connect', () => sock.write(`GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nX-Slow: `));
      socks.push(sock);
    }
    const drip = (async () => {
      while (!stop) {
        for (const sock of socks) if (!sock.destroyed) sock.write('a');
        await sleep(100);
      }
    })();
    const openNow = () => socks.filter(s => !s.destroyed && s.readyState === 'open').length;
    await until(() => closed >= 200 - most && openNow() <= most, 10000);
    const open = openNow();
    assert(open <= most, `the slow address holds ${open} connections (at most ${most})`);
    assert(closed >= 200 - most, `the server closed the others: ${closed}`);
    for (let round = 0; round < 3; round++) {
      for (const local of ['127.0.0.1', '127.0.0.2']) {
        const t0 = clock();
        const r = await within(new Promise((resolve, reject) => {
          const sock = net.connect({ port: srv.port, host: '127.0.0.1', localAddress: local }, () =>
            sock.write(`GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nConnection: close\r\n\r\n`));
          let data = '';
          sock.on('data', d => { data += d; });
          sock.on('end', () => resolve(data));
          sock.on('error', reject);
        }), 10000, `a request from ${local} during the attack`);
        assert(/^HTTP\/1\.1 200/.test(r), `answered from ${local}: ${r.slice(0, 60)}`);
        assert(r.includes('"ais"'), 'the info');
        assert(clock() - t0 < 5000, `from ${local} in ${clock() - t0} ms`);
      }
      await sleep(700);
    }
    stop = true;
    await drip;
    for (const sock of socks) sock.destroy();
    eq(await stopWithin(srv, 'SIGINT', 10000), 0, 'exit status after SIGINT');
  } finally {
    stop = true;
    for (const sock of socks) sock.destroy();
    await stopWithin(srv, 'SIGKILL', 1000);
  }
}

test('200 slow connections of one address starve no one; the address holds at most --client-connections (32)', () =>
  slowClients([], 32));

test('past --connections too, the address holding the most connections makes room', () =>
  slowClients(['--connections', '50', '--client-connections', '1000'], 50));

test('--results: a FIFO or a symbolic link as journal.tsv or results.json is an error, not a hang', async () => {
  const dir = path.join(tmp, 'fifo');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'results.json'), '{"ranking": []}');
  execFileSync('mkfifo', [path.join(dir, 'journal.tsv')]);
  const srv = await startServer(program, ['--results', dir]);
  try {
    for (const p of ['results', 'results/journal']) {
      const r = await within(api(srv, 'GET', p), 5000, `GET ${p} with a FIFO journal`);
      eq(r.status, 404, p);
      assert(/journal\.tsv: not a regular file/.test(r.json.error), r.json.error);
    }
    fs.rmSync(path.join(dir, 'journal.tsv'));
    fs.writeFileSync(path.join(tmp, 'elsewhere.tsv'), 'H\tsecret\n');
    fs.symlinkSync(path.join(tmp, 'elsewhere.tsv'), path.join(dir, 'journal.tsv'));
    const l = await within(api(srv, 'GET', 'results/journal'), 5000, 'GET results/journal as a link');
    eq(l.status, 404, 'a linked journal');
    assert(/journal\.tsv: a symbolic link/.test(l.json.error), l.json.error);
    fs.rmSync(path.join(dir, 'journal.tsv'));
    const none = await within(api(srv, 'GET', 'results'), 5000, 'GET results without a journal');
    eq([none.status, none.json.journal_bytes], [200, 0], 'a missing journal is an empty one');
    eq((await api(srv, 'GET', 'info')).status, 200, 'still serving');
  } finally {
    await stopWithin(srv, 'SIGKILL', 1000);
  }
  // a FIFO results.json: the server refuses to start
  const dir2 = path.join(tmp, 'fifo2');
  fs.mkdirSync(dir2);
  execFileSync('mkfifo', [path.join(dir2, 'results.json')]);
  let status = 0, err = '';
  try {
    execFileSync(program, ['serve', '--port', '0', '--results', dir2], { stdio: 'pipe', timeout: 10000 });
  } catch (e) { status = e.status; err = String(e.stderr); }
  eq(status, 1, 'exit status (null: killed after 10 s)');
  assert(/results\.json: not a regular file/.test(err), err);
});

test('bad options: exit 2 with a message', async () => {
  for (const args of [['--port', '70000'], ['--port', 'x'], ['--max-games', '0'], ['--bogus'], ['extra'],
      ['--time', 'soon'], ['--memory', '-1'], ['--time', '0'], ['--time', '0', '--instructions', '0'],
    ['--builtin-time', '0'], ['--builtin-time', 'x'], ['--workers', '0'], ['--workers', '17'], ['--connections', '0'],
    ['--client-connections', 'x'], ['--connection-timeout', '0']]) {
    let status = 0, err = '';
    try { execFileSync(program, ['serve', ...args],
        { stdio: 'pipe' }); } catch (e) { status = e.status; err = String(e.stderr); }
    eq(status, 2, args.join(' '));
    assert(/marubatsu serve: /.test(err), err);
  }
});

test('Gomocup brains (--ai brain:COMMAND): a person plays one, its MESSAGE/DEBUG lines come back, bounded and as text',
    async () => {
  const chatty = path.resolve(here, 'chatty_brain.sh');
  const srv = await startServer(program, ['--ai', `brain:${program} brain gomoku:name=gomoku-brain`,
    '--ai', `brain:${chatty}:name=chat`, '--ai', `brain:${chatty} hostile:name=flood`]);
  try {
    const ais = (await api(srv, 'GET', 'info')).json.ais;
    eq(ais.filter(a => a.brain).map(a => a.id), ['gomoku-brain', 'chat', 'flood'], 'the brains in the catalogue');
    // our own brain answers a person's move with a legal one
    let g = (await api(srv, 'POST', 'games?o=human&x=gomoku-brain&width=15&height=15&k=5')).json;
    await api(srv, 'POST', `games/${g.id}/move?move=H8`);
    let r = await api(srv, 'POST', `games/${g.id}/ai`);
    eq(r.status, 200, 'status');
    eq(r.json.failed, undefined, 'no failure');
    eq(r.json.step, 2, 'the brain moved');
    assert(/^[A-O]([1-9]|1[0-5])$/.test(r.json.last) && r.json.last !== 'H8', `a legal square: ${r.json.last}`);
    // the chatty brain's lines, exactly, for its move and for a hint
    g = (await api(srv, 'POST', 'games?o=human&x=chat&width=15&height=15&k=5')).json;
    await api(srv, 'POST', `games/${g.id}/move?move=H8`);
    r = await api(srv, 'POST', `games/${g.id}/ai`);
    eq(r.json.last, 'B15', 'its move: the column of the one stone it was told of');
    eq(r.json.messages, { ai: 'chat',
        lines: ['MESSAGE move 1: <img src=x onerror=alert(1)> \u001b[31mred', 'DEBUG depth 1'] },
      'its lines');
    assert(!r.body.includes('<img'), 'markup is escaped in the JSON text');
    const h = await api(srv, 'GET', `games/${g.id}/hint?ai=chat`);
    eq([h.json.candidate, h.json.note, h.json.messages.lines.length],
        [['C15'], 'a Gomocup brain gives its move only', 2], 'a hint');
    // a flood: 400 lines of 400 bytes; at most 256 lines kept and a note
    g = (await api(srv, 'POST', 'games?o=flood&x=human&width=15&height=15&k=5')).json;
    r = await api(srv, 'POST', `games/${g.id}/ai`);
    eq(r.json.last, 'A15', 'it still moved');
    const lines = r.json.messages.lines;
    assert(lines.length <= 257 && lines.length > 10, `lines kept: ${lines.length}`);
    assert(lines.join('\n').length <= 33 * 1024, 'at most 32 KiB');
    eq(lines[lines.length - 1],
      '[marubatsu: more than 256 lines or 32 KiB of MESSAGE and DEBUG in this game: the rest is dropped]',
      'the note');
    // off k = 5: the reason, and the game goes on
    g = (await api(srv, 'POST', 'games?o=chat&x=human')).json;
    r = await api(srv, 'POST', `games/${g.id}/ai`);
    eq(r.json.failed, { ai: 'chat', mark: 'o', reason: 'error: Gomocup brains play five in a row, this board has k=3' },
        'on 3x3');
  } finally {
    eq(await srv.stop(), 0, 'exit status after SIGINT');
  }
  // a brain that cannot run stops the server before it listens
  let status = 0, err = '';
  try { execFileSync(program, ['serve', '--port', '0', '--ai', 'brain:/nonexist/pbrain'],
      { stdio: 'pipe' }); } catch (e) { status = e.status; err = String(e.stderr); }
  eq(status, 1, 'exit status');
  const want = 'marubatsu serve: --ai brain:/nonexist/pbrain: it cannot play: '
    + 'cannot run /nonexist/pbrain: No such file or directory';
  assert(err.startsWith(want), err);
});

// ---- serve --tune DIR: a tune run followed ----------------------------------
// A short run's files (6 iterations; a confirmation that the SPRT decides
// at 304 games, while its journal holds more: games played past the
// decision), then served from a copy made to grow a line at a time.
const examples = path.resolve(here, '../../examples');
const tuneRun = path.join(tmp, 'tune-run');
execFileSync(program, ['tune', path.join(examples, 'tunable_ai.lua'), '--openings',
    path.join(examples, 'openings_3x3.txt'),
  '--iterations', '6', '--pairs', '4', '--jobs', '1', '--seed', '2', '--confirm-games', '1000', '--quiet', '--out',
      tuneRun]);
const runLines = file => fs.readFileSync(path.join(tuneRun, file), 'utf8').split('\n').filter(l => l !== '').map(l => l
    + '\n');
const tuneHeader = runLines('tune.tsv').filter(l => !l.startsWith('I\t'));
const tuneIts = runLines('tune.tsv').filter(l => l.startsWith('I\t'));
const near = (a, b) => typeof a === 'number' && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
// the parameters and iterations as the journal has them
const paramsOf = header => header.filter(l => l.startsWith('H\tparam\t')).map(l => {
  const f = l.trim().split('\t');
  return { name: f[2], start: Number(f[3]), min: Number(f[4]), max: Number(f[5]), step: Number(f[6]),
      default: Number(f[7]), type: f[8] };
});
const iterationOf = line => {
  const f = line.trim().split('\t');
  return { k: Number(f[1]), w: Number(f[2]), l: Number(f[3]), d: Number(f[4]), theta: f.slice(6).map(Number) };
};
// a value as played: in range, an integer parameter rounded half away from zero
const playedAs = (p, v) => {
  v = Math.min(p.max, Math.max(p.min, v));
  return p.type === 'integer' ? Math.sign(v) * Math.floor(Math.abs(v) + 0.5) : v;
};
function checkTune(st, header, its, what) {
  const params = paramsOf(header);
  eq(st.params.map(p => [p.name, p.start, p.min, p.max, p.step, p.default, p.type]),
    params.map(p => [p.name, p.start, p.min, p.max, p.step, p.default, p.type]), `${what}: the parameters`);
  const want = its.map(iterationOf);
  eq([st.iterations_done, st.iterations_planned], [want.length, 6], `${what}: iterations done, planned`);
  eq(st.games, want.reduce((s, it) => s + it.w + it.l + it.d, 0), `${what}: games`);
  eq(st.history.map(it => [it.k, it.w, it.l, it.d]), want.map(it => [it.k, it.w, it.l, it.d]), `${what}: k, w, l, d`);
  st.history.forEach((it, i) => assert(it.theta.length === params.length
      && it.theta.every((v, j) => near(v, want[i].theta[j])),
    `${what}: theta of iteration ${it.k}: ${it.theta} against ${want[i].theta}`));
  const last = want.length ? want[want.length - 1].theta : params.map(p => p.start);
  eq(st.params.map(p => p.current), params.map((p, j) => playedAs(p, last[j])), `${what}: the current values`);
}

test('GET tune without --tune: 404 naming --tune; info says there is none', async () => {
  const r = await api(server, 'GET', 'tune');
  eq(r.status, 404, 'status');
  assert(/--tune DIR/.test(r.json.error), r.json.error);
  eq((await api(server, 'GET', 'info')).json.tune, false, 'info.tune');
  eq((await api(server, 'POST', 'tune')).status, 405, 'POST tune');
});

test('--tune DIR: the run as its files have it, a line at a time; a cut last line is left out; '
  + 'the confirmation as the tournament decides it', async () => {
  const dir = path.join(tmp, 'tune-follow');
  fs.mkdirSync(dir);
  const journal = path.join(dir, 'tune.tsv');
  fs.writeFileSync(journal, tuneHeader.join('') + tuneIts.slice(0, 2).join(''));
  const s = await startServer(program, ['--tune', dir]);
  try {
    eq((await api(s, 'GET', 'info')).json.tune, true, 'info.tune');
    let r = await api(s, 'GET', 'tune');
    eq(r.status, 200, 'status');
    checkTune(r.json, tuneHeader, tuneIts.slice(0, 2), 'two iterations');
    eq([r.json.done, r.json.confirm, r.json.spec, r.json.dir, r.json.cut], [false, undefined, undefined, dir, false],
        'not done, no confirmation yet');
    assert(/tunable_ai\.lua$/.test(r.json.player), r.json.player);
    eq([r.json.settings.pairs, r.json.settings.seed], ['4', '2'], 'the settings');
    // the third line written in two parts: half of it is no iteration yet
    const third = tuneIts[2];
    fs.appendFileSync(journal, third.slice(0, 20));
    r = await api(s, 'GET', 'tune');
    checkTune(r.json, tuneHeader, tuneIts.slice(0, 2), 'a cut third line');
    fs.appendFileSync(journal, third.slice(20));
    fs.writeFileSync(path.join(dir, 'tuned.txt'), 'examples/tunable_ai.lua:block=1\n');
    r = await api(s, 'GET', 'tune');
    checkTune(r.json, tuneHeader, tuneIts.slice(0, 3), 'the third line whole');
    eq(r.json.spec, 'examples/tunable_ai.lua:block=1', 'the player spec of tuned.txt');
    // rewritten whole (as --resume does, through a rename): read afresh
    fs.writeFileSync(journal + '.tmp', tuneHeader.join('') + tuneIts.slice(0, 1).join(''));
    fs.renameSync(journal + '.tmp', journal);
    checkTune((await api(s, 'GET', 'tune')).json, tuneHeader, tuneIts.slice(0, 1), 'rewritten');
    fs.appendFileSync(journal, tuneIts.slice(1).join(''));
    checkTune((await api(s, 'GET', 'tune')).json, tuneHeader, tuneIts, 'every iteration');
    // the confirmation's first 10 games: its games so far, tuned's score
    const conf = runLines('confirm/journal.tsv');
    const head = conf.filter(l => !l.startsWith('G\t')), games = conf.filter(l => l.startsWith('G\t'));
    fs.mkdirSync(path.join(dir, 'confirm'));
    fs.writeFileSync(path.join(dir, 'confirm/journal.tsv'), head.join('') + games.slice(0, 10).join('')
        + games[10].slice(0, 9));
    r = await api(s, 'GET', 'tune');
    const score = { w: 0, l: 0, d: 0 };
    for (const g of games.slice(0, 10)) {
      const f = g.split('\t'), result = f[8];
      score[result === 'draw' ? 'd' : (result === 'o') === (f[5] === 'tuned') ? 'w' : 'l']++;
    }
    const c = r.json.confirm;
    eq([c.games, c.win, c.loss, c.draw, c.player, c.decision, c.games_max],
        [10, score.w, score.l, score.d, 'tuned', 'continue', 1000],
      'the first 10 games');
    assert(c.llr > c.lower && c.llr < c.upper, `the LLR ${c.llr} within its bounds`);
    eq(r.json.done, false, 'not done');
    // the whole journal, the summary not yet written: what the summary then says
    fs.writeFileSync(path.join(dir, 'confirm/journal.tsv'), conf.join(''));
    const sum = JSON.parse(fs.readFileSync(path.join(tuneRun, 'summary.json'), 'utf8')).confirm;
    assert(games.length > sum.games, `the journal has games past the decision: ${games.length} > ${sum.games}`);
    const all = (await api(s, 'GET', 'tune')).json.confirm;
    eq([all.games, all.decision], [sum.games, sum.decision], 'games and decision');
    for (const k of ['elo', 'elo_low', 'elo_high', 'llr']) assert(Math.abs(all[k] - sum[k]) < 1e-4,
        `${k}: ${all[k]} against ${sum[k]}`);
    fs.copyFileSync(path.join(tuneRun, 'summary.json'), path.join(dir, 'summary.json'));
    eq((await api(s, 'GET', 'tune')).json.done, true, 'done once summary.json is there');
  } finally {
    eq(await s.stop(), 0, 'exit status after SIGINT');
  }
});

test('--tune: links, FIFOs, a journal over 32 MiB and bad lines are refused or bounded, never followed or waited on',
    async () => {
  const dir = path.join(tmp, 'tune-hostile');
  fs.mkdirSync(path.join(dir, 'confirm'), { recursive: true });
  const journal = path.join(dir, 'tune.tsv');
  const good = tuneHeader.join('') + tuneIts.join('');
  fs.writeFileSync(journal, good);
  const s = await startServer(program, ['--tune', dir]);
  const get = what => within(api(s, 'GET', 'tune'), 10000, `GET tune with ${what}`);
  const refused = async (what, re) => {
    const r = await get(what);
    eq(r.status, 404, what);
    assert(re.test(r.json.error), `${what}: ${r.json.error}`);
  };
  try {
    eq((await get('a good journal')).status, 200, 'a good journal');
    // a link to a journal elsewhere (a real one): not followed
    fs.rmSync(journal);
    fs.symlinkSync(path.join(tuneRun, 'tune.tsv'), journal);
    await refused('a linked tune.tsv', /tune\.tsv: a symbolic link/);
    fs.rmSync(journal);
    execFileSync('mkfifo', [journal]);
    await refused('a FIFO tune.tsv', /tune\.tsv: not a regular file/);
    fs.rmSync(journal);
    fs.writeFileSync(journal, good);
    for (const f of ['confirm/journal.tsv', 'summary.json', 'tuned.txt']) {
      execFileSync('mkfifo', [path.join(dir, f)]);
      await refused(`a FIFO ${f}`, new RegExp(f.replace('.', '\\.') + ': not a regular file'));
      fs.rmSync(path.join(dir, f));
    }
    fs.symlinkSync(path.join(tuneRun, 'confirm/journal.tsv'), path.join(dir, 'confirm/journal.tsv'));
    await refused('a linked confirm/journal.tsv', /journal\.tsv: a symbolic link/);
    fs.rmSync(path.join(dir, 'confirm/journal.tsv'));
    // bad lines, named by file and line
    fs.writeFileSync(journal, tuneHeader.join('') + tuneIts[0] + 'hello\n');
    await refused('a line of neither kind',
        new RegExp(`tune\\.tsv:${tuneHeader.length + 2}: neither a header \\(H\\) nor an iteration \\(I\\) line`));
    fs.writeFileSync(journal, tuneHeader.join('') + tuneIts[1]);
    await refused('iteration 2 first', /not the line of iteration 1/);
    fs.writeFileSync(journal, 'H\tplayer\tx\n');
    await refused('no tune journal', /is not a tune journal/);
    // over 32 MiB: 256 parameters, 1.3 KB a line; read up to 32 MiB, the
    // history sampled (256 values of 390 iterations at most)
    const names = Array.from({ length: 256 }, (_, i) => `p${i}`);
    const head = '# marubatsu tune journal 1\nH\tplayer\tx.lua\n'
        + names.map(n => `H\tparam\t${n}\t10\t0\t100\t5\t10\tinteger\n`).join('') +
      'H\titerations\t40000\n';
    const fd = fs.openSync(journal, 'w');
    fs.writeSync(fd, head);
    let size = head.length, whole = 0;
    const MAX = 32 * 1024 * 1024;
    for (let k = 1; size <= MAX + 1024 * 1024; k++) {
      const line = `I\t${k}\t1\t2\t1\t${'+'.repeat(256)}\t${names.map((_, i) => (10
          + (k + i) % 7).toFixed(3)).join('\t')}\n`;
      fs.writeSync(fd, line);
      size += line.length;
      if (size <= MAX) whole = k;
    }
    fs.closeSync(fd);
    const t0 = clock();
    const big = await within(api(s, 'GET', 'tune'), 120000, 'GET tune of a 33 MiB journal');
    eq(big.status, 200, 'status');
    eq([big.json.cut, big.json.journal_bytes, big.json.iterations_done, big.json.games], [true, size, whole, 4 * whole],
      'read up to 32 MiB, the whole lines there');
    assert(big.json.history.length <= 391 && big.json.history[big.json.history.length - 1].k === whole,
      `the history sampled, the last iteration in it: ${big.json.history.length}`);
    assert(big.body.length < 2e6, `a bounded reply: ${big.body.length} bytes`);
    console.log(`  # a 33 MiB journal read in ${(clock() - t0).toFixed(0)} ms`);
    eq((await api(s, 'GET', 'info')).status, 200, 'still serving');
  } finally {
    eq(await s.stop(), 0, 'exit status after SIGINT');
  }
  // at start: no tune.tsv, not a tune journal, a FIFO: exit 1 with the reason
  const bad = path.join(tmp, 'tune-bad');
  fs.mkdirSync(bad);
  const start = () => {
    try {
      execFileSync(program, ['serve', '--port', '0', '--tune', bad], { stdio: 'pipe', timeout: 10000 });
      return [0, ''];
    } catch (e) { return [e.status, String(e.stderr)]; }
  };
  let [status, err] = start();
  eq(status, 1, 'exit status without tune.tsv');
  assert(err === `marubatsu serve: --tune ${bad}: no tune run there (${bad}/tune.tsv: No such file or directory)\n`,
      err);
  fs.writeFileSync(path.join(bad, 'tune.tsv'), 'hello\n');
  [status, err] = start();
  eq(status, 1, 'exit status with another file');
  assert(/tune\.tsv is not a tune journal/.test(err), err);
  fs.rmSync(path.join(bad, 'tune.tsv'));
  execFileSync('mkfifo', [path.join(bad, 'tune.tsv')]);
  [status, err] = start();
  eq(status, 1, 'exit status with a FIFO (null: killed after 10 s)');
  assert(/tune\.tsv: not a regular file/.test(err), err);
});

const ok = await run();
eq(await server.stop(), 0, 'exit status after SIGINT');
process.exit(ok ? 0 : 1);
