// web/report.js: a tournament's report: a knockout's bracket, the ranking with its error bars,
// the crosstable, the games (filtered by pairing and result) and a replay
// of any game with a move slider. Used by the served page (data from GET
// /api/results) and by report.html, which carries its data inline in
// <script id="report-data"> and runs this file with no server.
'use strict';
MB.Report = (function () {
  const pct = x => (100 * x).toFixed(1);
  const signed = x => (x >= 0 ? '+' : '') + x.toFixed(1);

  // The Elo of each player as a dot with its 95% bar, in SVG.
  function eloBars(ranking) {
    let lo = -100, hi = 100;
    for (const r of ranking) { lo = Math.min(lo, r.elo - r.elo_error); hi = Math.max(hi, r.elo + r.elo_error); }
    const W = 220, H = 18, X = e => 6 + (e - lo) / (hi - lo) * (W - 12);
    const NS = 'http://www.w3.org/2000/svg';
    return r => {
      const s = document.createElementNS(NS, 'svg');
      s.setAttribute('width', W); s.setAttribute('height', H); s.setAttribute('class', 'bar');
      const add = (tag, a) => { const e = document.createElementNS(NS, tag); for (const k in a) e.setAttribute(k,
          a[k]); s.append(e); };
      add('line', { x1: X(0), x2: X(0), y1: 0, y2: H, stroke: '#bbb' });
      add('line', { x1: X(r.elo - r.elo_error), x2: X(r.elo + r.elo_error), y1: H / 2, y2: H / 2, stroke: '#36c',
          'stroke-width': 3 });
      add('circle', { cx: X(r.elo), cy: H / 2, r: 4.5, fill: '#135' });
      return s;
    };
  }

  function ranking(res) {
    const bar = eloBars(res.ranking);
    return MB.el('table', { class: 'data', id: 'ranking' },
      MB.el('thead', {}, MB.el('tr', {},
          ['rank', 'player', 'games', 'win', 'loss', 'draw', 'score %', 'Elo', '±95%', 'Elo, 95% interval']
        .map((h, i) => MB.el('th', { class: i === 1 ? 'name' : null }, h)))),
      MB.el('tbody', {}, res.ranking.map(r => MB.el('tr', {},
        MB.el('td', {}, r.rank), MB.el('td', { class: 'name' }, r.name), MB.el('td', {}, r.games),
        MB.el('td', {}, r.win), MB.el('td', {}, r.loss), MB.el('td', {}, r.draw), MB.el('td', {}, pct(r.score)),
        MB.el('td', {}, signed(r.elo)), MB.el('td', {}, r.elo_error.toFixed(1)), MB.el('td', {}, bar(r))))));
  }

  function crosstable(res) {
    const names = res.ranking.map(r => r.name);
    return MB.el('table', { class: 'data', id: 'crosstable' },
      MB.el('thead', {}, MB.el('tr', {}, MB.el('th', { class: 'name' }, 'W-L-D (row vs column)'),
          names.map(n => MB.el('th', {}, n)))),
      MB.el('tbody', {}, res.ranking.map(r => MB.el('tr', {}, MB.el('td', { class: 'name' }, r.name), names.map(n => {
        if (n === r.name) return MB.el('td', { class: 'self' });
        const c = r.crosstable.find(x => x.opponent === n);
        const wld = t => `${t.win}-${t.loss}-${t.draw}`;
        return MB.el('td', { title: c ? `as ○ ${wld(c.as_o)}, as × ${wld(c.as_x)}` : '' },
          c ? `${c.total.win}-${c.total.loss}-${c.total.draw}` : '');
      })))));
  }

  // A knockout's bracket: one column per round (the final last), each match
  // its two players with their points (the winner in bold; a bye or a player
  // still to come shown as such; "by seed" after a tie), and the winner.
  function bracket(ko) {
    const side = (name, points, won) => MB.el('div', { class: 'ko-player' + (won ? ' won' : '') },
      MB.el('span', { class: 'name' }, name === undefined || name === null ? '—' : name),
      MB.el('span', { class: 'points' }, points === undefined || points === null ? '' : String(points)));
    const n = ko.rounds.length;
    const title = r => (r === n ? 'Final' : r === n - 1 ? 'Semi-finals' : `Round ${r}`);
    return MB.el('div', { id: 'bracket', class: 'bracket' },
      ko.rounds.map((matches, i) => MB.el('div', { class: 'ko-round', 'data-round': i + 1 },
        MB.el('h3', {}, title(i + 1)),
        matches.map(m => MB.el('div', { class: 'ko-match card', 'data-match': m.match, 'data-winner': m.winner || '' },
          side(m.a !== undefined ? m.a : (m.b !== undefined && m.winner ? 'bye' : null), m.points_a,
              m.winner !== undefined && m.winner === m.a),
          side(m.b !== undefined ? m.b : (m.a !== undefined && m.winner ? 'bye' : null), m.points_b,
              m.winner !== undefined && m.winner === m.b),
          MB.el('div', { class: 'muted ko-note' }, m.winner === undefined ? 'to be played'
            : m.a === undefined || m.b === undefined ? 'a bye'
              : `${m.games || 0} games${m.by_seed ? ', tied: the better seed goes on' : ''}`))))),
      MB.el('div', { class: 'ko-round ko-winner' }, MB.el('h3', {}, 'Winner'),
        MB.el('div', { id: 'ko-winner', class: 'card' }, ko.winner !== undefined ? ko.winner : 'not decided yet')));
  }

  // The games of a journal's text (docs/journal.md): its G lines, each game
  // once (its first line), sorted by number. Text fields are unescaped
  // (\\ \t \n \r, and \x3c for '<', which report.html writes so that no
  // closing script tag can end its element).
  const ESC = { '\\': '\\', t: '\t', n: '\n', r: '\r' };
  const unescape = s => (s.includes('\\') ? s.replace(/\\(x3c|.)/g, (_, c) => (c === 'x3c' ? '<' : ESC[c] || c)) : s);
  function parseJournal(text) {
    const seen = new Set(), games = [];
    for (const line of text.split('\n')) {
      if (!line.startsWith('G\t')) continue;
      const f = line.replace(/\r$/, '').split('\t');
      const n = Number(f[1]);
      if (f.length !== 10 || seen.has(n)) continue;
      seen.add(n);
      games.push({ n, o: unescape(f[5]), x: unescape(f[6]), moves: f[7] ? f[7].split(',') : [], result: f[8],
          reason: unescape(f[9]) });
    }
    return games.sort((a, b) => a.n - b.n);
  }

  // render(element, data, journal): data = {results, dir, journal_bytes, cut},
  // journal the text of journal.tsv
  // The first line: the games played of those scheduled; a knockout's count
  // is open (its tie-breaks), so it says how many a match plays instead.
  function heading(res) {
    if (res.knockout) {
      return `${res.games_played} games (knockout, ${res.games_per_pairing} per match, seed ${res.seed})`;
    }
    return `${res.games_played} games of ${res.games_scheduled} (${res.format}, `
      + `${res.games_per_pairing} per pairing, seed ${res.seed})`;
  }

  function render(root, data, journal) {
    const res = data.results, board = res.board;
    const games = parseJournal(journal);
    const pairs = [...new Set(games.map(g => [g.o, g.x].sort().join(' vs ')))].sort();
    const pairing = MB.el('select', { id: 'filter-pairing', 'aria-label': 'pairing' },
        MB.el('option', { value: '' }, 'all pairings'),
      pairs.map(p => MB.el('option', { value: p }, p)));
    const result = MB.el('select', { id: 'filter-result', 'aria-label': 'result' },
      [['', 'all results'], ['o', '○ wins'], ['x', '× wins'], ['draw', 'draws'],
          ['forfeit', 'forfeits']].map(([v, t]) => MB.el('option', { value: v }, t)));
    const list = MB.el('tbody');
    const shown = MB.el('span', { id: 'games-shown', class: 'muted' });
    const replay = MB.el('div', { id: 'replay', class: 'card' },
        MB.el('span', { class: 'muted' }, 'Click a game to replay it.'));
    const LIMIT = 500;

    function filter() {
      const p = pairing.value, r = result.value;
      const sel = games.filter(g => (!p || [g.o, g.x].sort().join(' vs ') === p) &&
        (!r || (r === 'forfeit' ? g.reason !== '' : g.result === r)));
      list.replaceChildren(...sel.slice(0,
          LIMIT).map(g => MB.el('tr', { class: 'game', 'data-game': g.n, onclick: () => show(g) },
        MB.el('td', {}, g.n), MB.el('td', { class: 'name' }, g.o), MB.el('td', { class: 'name' }, g.x),
        MB.el('td', {}, MB.resultText(g.result)), MB.el('td', {}, g.moves.length),
            MB.el('td', { class: 'name' }, g.reason))));
      shown.textContent = `${sel.length} games` + (sel.length > LIMIT ? `, the first ${LIMIT} shown` : '') +
        (data.cut ? ` (the journal, ${data.journal_bytes} bytes, was cut: the games after the first `
          + `${games.length} are left out)` : '');
    }

    function show(g) {
      for (const tr of list.children) tr.classList.toggle('sel', Number(tr.dataset.game) === g.n);
      let step = g.moves.length;
      const slider = MB.el('input', { type: 'range', id: 'replay-slider', min: 0, max: g.moves.length, value: step,
          'aria-label': 'move' });
      const pos = MB.el('div', { id: 'replay-board' });
      const label = MB.el('div', { id: 'replay-step', class: 'status' });
      const draw = () => {
        const rows = MB.replay(board.width, board.height, g.moves.slice(0, step));
        const end = step === g.moves.length;
        const win = end && (g.result === 'o' || g.result === 'x')
            ? MB.winLine(rows, board.k, g.result, board.rule === 'exact') : [];
        const cell = Math.max(20, Math.min(64, Math.floor(320 / Math.max(board.width, board.height))));
        pos.replaceChildren(MB.board(rows, { cell, last: g.moves[step - 1], win }));
        label.textContent = `move ${step} of ${g.moves.length}`
            + (step ? `: ${MB.markName(step % 2 ? 'o' : 'x')} ${g.moves[step - 1]}` : '') +
          (end ? ` — ${MB.resultText(g.result)}${g.reason ? ' (' + g.reason + ')' : ''}` : '');
        slider.value = step;
      };
      slider.addEventListener('input', () => { step = Number(slider.value); draw(); });
      const btn = (id, text, f) => MB.el('button',
          { id, type: 'button', onclick: () => { step = Math.max(0, Math.min(g.moves.length, f(step))); draw(); } },
          text);
      replay.replaceChildren(MB.el('h2', {}, `Game ${g.n}: ○ ${g.o} vs × ${g.x}`), label, pos,
        MB.el('div', { class: 'controls' }, btn('replay-first', '|◀', () => 0), btn('replay-prev', '◀', s => s - 1),
            slider,
          btn('replay-next', '▶', s => s + 1), btn('replay-last', '▶|', () => g.moves.length)),
        MB.el('div', { class: 'history' }, g.moves.join(' ')));
      draw();
    }

    pairing.addEventListener('change', filter);
    result.addEventListener('change', filter);
    root.replaceChildren(
      MB.el('p', {}, `${heading(res)}; board ${board.width}×${board.height}, k=${board.k}`
        + `${board.rule === 'exact' ? ' (exact)' : ''}`),
      ...(res.knockout ? [MB.el('h2', {}, 'Knockout bracket'), bracket(res.knockout)] : []),
      MB.el('h2', {}, 'Ranking'), ranking(res),
      MB.el('h2', {}, 'Crosstable'), crosstable(res),
      MB.el('h2', {}, 'Games'),
      MB.el('div', { class: 'row' },
        MB.el('div', {}, MB.el('div', { class: 'controls' }, pairing, result, shown),
          MB.el('div', { class: 'scroll' }, MB.el('table', { class: 'data', id: 'games' },
            MB.el('thead', {}, MB.el('tr', {},
                ['#', '○', '×', 'result', 'moves', 'forfeit'].map(h => MB.el('th', {}, h)))), list))),
        replay));
    filter();
  }

  // report.html: the data is in the page
  document.addEventListener('DOMContentLoaded', () => {
    const el = document.getElementById('report-data');
    if (el) render(document.getElementById('report'), JSON.parse(el.textContent),
        document.getElementById('report-journal').textContent);
  });
  return { render };
})();
