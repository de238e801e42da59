// web/common.js: what the page's views and report.html share: DOM helpers,
// Excel square names, and boards drawn as a grid of squares with SVG marks.
'use strict';
const MB = {};

// MB.el('div', {class: 'x', onclick: f}, child, 'text', ...) -> element
MB.el = function (tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
};

// Column letters as in Excel (A..Z, AA..), rows from 1: x, y from 0.
MB.square = function (x, y) {
  let s = '', n = x + 1;
  while (n > 0) { s = String.fromCharCode(65 + (n - 1) % 26) + s; n = Math.floor((n - 1) / 26); }
  return s + (y + 1);
};

const SVGNS = 'http://www.w3.org/2000/svg';
function svg(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
// The mark 'o' or 'x' drawn as SVG (no font needed).
MB.mark = function (mark) {
  const s = svg('svg', { viewBox: '0 0 100 100', 'aria-label': mark });
  if (mark === 'o') s.append(svg('circle',
      { cx: 50, cy: 50, r: 34, fill: 'none', stroke: '#d13b3b', 'stroke-width': 13 }));
  else if (mark === 'x') {
    s.append(svg('path', { d: 'M18 18 L82 82 M82 18 L18 82', stroke: '#2a5db0', 'stroke-width': 13,
        'stroke-linecap': 'round' }));
  }
  return s;
};
MB.markName = m => (m === 'o' ? '○' : m === 'x' ? '×' : m);

// MB.board(rows, opts) -> element. rows: strings by y, one char per x
// ('o', 'x', '.'). opts: {size: 'small'|'big', cell: px, last: 'B2',
// onclick(square), clickable(square) -> bool, scores: {B2: '-2.5'},
// values: {B2: -2.5}, candidates: ['A1'], win: ['A1', 'B2', 'C3'],
// coords: false (no labels)}. Column letters and row numbers (as in the
// move lists) frame every board but the small ones. On a board of more
// than 25 squares the values are also a heat map: each scored square
// tinted from pale (the worst) to deep (the best), its share in data-heat.
MB.board = function (rows, opts = {}) {
  const h = rows.length, w = rows[0].length;
  const coords = opts.coords !== false && opts.size !== 'small';
  const b = MB.el('div', { class: 'board' + (opts.size ? ' ' + opts.size : '') + (coords ? ' coords' : ''),
      role: 'grid' });
  b.style.gridTemplateColumns = coords ? `auto repeat(${w}, auto)` : `repeat(${w}, auto)`;
  if (opts.cell) b.style.setProperty('--cell', opts.cell + 'px');
  const vals = Object.values(opts.values || {}).filter(v => typeof v === 'number' && isFinite(v));
  const best = vals.length ? Math.max(...vals) : null, worst = vals.length ? Math.min(...vals) : null;
  const heat = w * h > 25 && vals.length > 0;
  const column = x => MB.square(x, 0).replace(/\d+$/, '');
  if (coords) {
    b.append(MB.el('div', { class: 'coord corner', 'aria-hidden': 'true' }));
    for (let x = 0; x < w; x++) b.append(MB.el('div', { class: 'coord col', 'aria-hidden': 'true' }, column(x)));
  }
  for (let y = 0; y < h; y++) {
    if (coords) b.append(MB.el('div', { class: 'coord row', 'aria-hidden': 'true' }, String(y + 1)));
    for (let x = 0; x < w; x++) {
      const sq = MB.square(x, y), mark = rows[y][x];
      const clickable = mark === '.' && opts.onclick && (!opts.clickable || opts.clickable(sq));
      const cls = ['sq'];
      if (sq === opts.last) cls.push('last');
      if (opts.win && opts.win.includes(sq)) cls.push('win');
      if (opts.candidates && opts.candidates.includes(sq)) cls.push('candidate');
      if (clickable) cls.push('clickable');
      const cell = MB.el(clickable ? 'button' : 'div', { class: cls.join(' '), 'data-square': sq, 'data-mark': mark,
        title: sq, type: clickable ? 'button' : null, onclick: clickable ? () => opts.onclick(sq) : null });
      if (mark !== '.') cell.append(MB.mark(mark));
      else if (opts.scores && opts.scores[sq] !== undefined) {
        const v = opts.values ? opts.values[sq] : undefined;
        const tone = v === undefined || best === worst ? '' : v === best ? ' good' : v === worst ? ' bad' : '';
        cell.append(MB.el('span', { class: 'score' + tone, 'data-score': opts.scores[sq] }, opts.scores[sq]));
        if (heat && typeof v === 'number' && isFinite(v)) {
          const share = best === worst ? 1 : (v - worst) / (best - worst);
          cell.classList.add('heat');
          cell.dataset.heat = share.toFixed(3);
          // white mixed with orange: 10% for the worst, all of it for the best
          const t = 0.1 + 0.9 * share, mix = (a, b) => Math.round(a + (b - a) * t);
          cell.style.background = `rgb(${mix(255, 240)}, ${mix(255, 110)}, ${mix(255, 20)})`;
        }
      }
      b.append(cell);
    }
  }
  return b;
};

// The squares of a k-in-a-row line of the winner, or [] (for highlighting).
MB.winLine = function (rows, k, mark, exact) {
  const h = rows.length, w = rows[0].length;
  const at = (x, y) => x >= 0 && y >= 0 && x < w && y < h && rows[y][x] === mark;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
      let n = 0;
      while (n < k && at(x + n * dx, y + n * dy)) n++;
      // the exact rule: a run of exactly k, nothing of the mark on either side
      if (n === k && exact && (at(x - dx, y - dy) || at(x + k * dx, y + k * dy))) continue;
      if (n === k) return Array.from({ length: k }, (_, i) => MB.square(x + i * dx, y + i * dy));
    }
  }
  return [];
};

// Parse "B2" into [x, y] (0-based), or null.
MB.parseSquare = function (s) {
  const m = /^([A-Za-z]+)(\d+)$/.exec(s.trim());
  if (!m) return null;
  let x = 0;
  for (const c of m[1].toUpperCase()) x = x * 26 + (c.charCodeAt(0) - 64);
  return [x - 1, Number(m[2]) - 1];
};

// The rows of a width x height board after a list of moves (o first).
MB.replay = function (width, height, moves) {
  const cells = Array.from({ length: height }, () => Array(width).fill('.'));
  moves.forEach((sq, i) => {
    const p = MB.parseSquare(sq);
    if (p && p[0] < width && p[1] < height) cells[p[1]][p[0]] = i % 2 === 0 ? 'o' : 'x';
  });
  return cells.map(r => r.join(''));
};

MB.resultText = r => (r === 'draw' ? 'draw' : `${MB.markName(r)} wins`);
