// tests/web/harness.mjs: what the web test files share: a tiny test runner
// (prints "ok N - name" or "not ok N - name" and the error, then the one
// line "N passed, N failed" that tests/run.sh reads) and a server started
// for the tests (`marubatsu serve --port 0`, its URL read from stdout).
import { spawn } from 'node:child_process';
import http from 'node:http';

const tests = [];
export function test(name, fn) { tests.push({ name, fn }); }

export async function run() {
  let passed = 0, failed = 0, n = 0;
  const only = process.env.ONLY; // a part of the names of the tests to run
  for (const t of tests) {
    n++;
    if (only && !t.name.includes(only)) continue;
    try {
      await t.fn();
      passed++;
      console.log(`ok ${n} - ${t.name}`);
    } catch (e) {
      failed++;
      console.log(`not ok ${n} - ${t.name}\n  ${String(e && e.stack || e).split('\n').join('\n  ')}`);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0;
}

export function assert(cond, msg) { if (!cond) throw new Error(msg || 'assertion failed'); }
export function eq(actual, expected, what) {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what || 'value'}: expected ${e}, got ${a}`);
}

// Start `PROGRAM [pre...] serve --port 0 ARGS...`; resolves to {url, port,
// proc, stop(), log()} once the server has printed its address.
export function startServer(program, args = [], pre = []) {
  return new Promise((resolve, reject) => {
    const proc = spawn(program, [...pre, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    const timer = setTimeout(() => reject(new Error(`no address from the server in 20 s: ${out} ${err}`)), 20000);
    proc.stdout.on('data', d => {
      out += d;
      const m = out.match(/(http:\/\/[^/\s]+)\//);
      if (m) {
        clearTimeout(timer);
        const url = m[1];
        resolve({
          url, port: Number(url.split(':').pop()), proc,
          log: () => out + err,
          stop: () => new Promise(done => {
            if (proc.exitCode !== null) return done(proc.exitCode);
            proc.on('exit', code => done(code));
            proc.kill('SIGINT');
          }),
        });
      }
    });
    proc.stderr.on('data', d => { err += d; });
    proc.on('exit', code => { clearTimeout(timer); reject(new Error(`server exited (${code}): ${out} ${err}`)); });
  });
}

// One HTTP request with full control of the headers (Host included):
// resolves to {status, headers, body, json}.
export function request(server, method, path, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port: server.port, method, path,
      headers: { Host: `127.0.0.1:${server.port}`, ...headers },
    }, res => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', d => { data += d; });
      res.on('end', () => {
        let json;
        try { json = JSON.parse(data); } catch { json = undefined; }
        resolve({ status: res.statusCode, headers: res.headers, body: data, json });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

// An API call as the page makes it (POSTs carry X-Marubatsu).
export function api(server, method, path, opts = {}) {
  const headers = { ...(opts.headers || {}) };
  if (method === 'POST') headers['X-Marubatsu'] = '1';
  return request(server, method, '/api/' + path, { ...opts, headers });
}
