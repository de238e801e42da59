// web/tune.js: the tune page (tune.html), which follows the `marubatsu
// tune` run of `marubatsu serve --tune DIR`: GET /api/tune every two
// seconds until the run's summary is written (docs/web.md has the reply),
// each time drawn afresh: the progress (iteration k of N, games, the last
// score of theta+), a table of the parameters (start, current, range,
// step), each parameter's trajectory as an SVG panel (as tune.svg draws
// it: the start dashed, the scale zoomed on the values), and the
// confirmation's SPRT as it stands. The page's state is in data-
// attributes of #tune for the tests: data-iterations, data-done,
// data-polls.
'use strict';
MB.Tune = (function () {
  const POLL_MS = 2000;
  const NS = 'http://www.w3.org/2000/svg';
  const svg = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  // a value as people read it: integers plainly, reals to 6 digits
  const shown = v => (Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6))));
  const signed = (v, d = 1) => (v >= 0 ? '+' : '−') + Math.abs(v).toFixed(d);
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

  // the run's phase: tuning, confirming, or done
  function phase(st) {
    if (st.done) {
      return st.iterations_done < st.iterations_planned
        ? `done: stopped after ${st.iterations_done} of ${st.iterations_planned} iterations (--max-time)` : 'done';
    }
    if (st.confirm) return 'confirming the tuned values';
    if (st.iterations_done >= st.iterations_planned) return 'iterations done, the confirmation is starting';
    return 'tuning';
  }

  function progress(st) {
    const last = st.history[st.history.length - 1];
    const parts = [`iteration ${st.iterations_done} of ${st.iterations_planned}`, plural(st.games, 'game')];
    if (last && last.k === st.iterations_done) {
      const n = last.w + last.l + last.d;
      parts.push(`theta+ last scored ${last.w}-${last.l}-${last.d}` +
        (n ? ` (${(100 * (last.w + last.d / 2) / n).toFixed(0)}%)` : ''));
    }
    const pct = st.iterations_planned ? Math.min(100, 100 * st.iterations_done / st.iterations_planned) : 0;
    return MB.el('div', { id: 'tune-progress' },
      MB.el('p', { class: 'status' }, MB.el('strong', { id: 'tune-phase' }, phase(st)), ': ',
        MB.el('span', { id: 'tune-line' }, parts.join(' · '))),
      MB.el('div', { class: 'meter', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': 100,
        'aria-valuenow': pct.toFixed(0) }, MB.el('span', { class: 'fill' })));
  }

  function table(st) {
    return MB.el('table', { class: 'data', id: 'tune-params' },
      MB.el('thead', {}, MB.el('tr', {},
          ['parameter', 'type', 'start', 'current', 'change', 'min', 'max', 'step', 'default']
        .map((h, i) => MB.el('th', { class: i === 0 ? 'name' : null }, h)))),
      MB.el('tbody', {}, st.params.map(p => MB.el('tr', { 'data-param': p.name },
        MB.el('td', { class: 'name' }, p.name), MB.el('td', {}, p.type), MB.el('td', {}, shown(p.start)),
        MB.el('td', { class: 'current' }, shown(p.current)),
        MB.el('td', {}, p.current === p.start ? '0' : (p.current > p.start ? '+' : '−')
            + shown(Math.abs(p.current - p.start))),
        MB.el('td', {}, shown(p.min)), MB.el('td', {}, shown(p.max)), MB.el('td', {}, shown(p.step)),
        MB.el('td', {}, shown(p.default))))));
  }

  // One panel per parameter: its value over the iterations 0 .. N (0 the
  // start), the start dashed, the scale its range zoomed on the values.
  function trajectories(st) {
    const W = 640, H = 110, left = 150, plotw = W - left - 70, ploth = H - 24 - 14;
    const n = Math.max(1, st.iterations_planned);
    const s = svg('svg', { id: 'tune-plot', width: W, height: st.params.length * H + 30,
      viewBox: `0 0 ${W} ${st.params.length * H + 30}`, class: 'trajectories', role: 'img',
      'aria-label': 'each parameter over the iterations' });
    s.append(svg('text', { x: left, y: 16, 'font-weight': 'bold' },
        `SPSA, ${st.iterations_done} of ${st.iterations_planned} iterations`));
    st.params.forEach((p, i) => {
      const top = 30 + i * H;
      const ks = [0, ...st.history.map(it => it.k)];
      const vals = [p.start, ...st.history.map(it => it.theta[i])];
      const vmin = Math.min(...vals), vmax = Math.max(...vals);
      const pad = Math.max((vmax - vmin) * 0.2, p.step * 2);
      const lo = Math.max(p.min, vmin - pad);
      let hi = Math.min(p.max, vmax + pad);
      if (hi <= lo) hi = lo + 1;
      const y = v => top + ploth - (v - lo) / (hi - lo) * ploth;
      const x = k => left + k / n * plotw;
      const g = svg('g', { class: 'panel', 'data-param': p.name, 'data-points': vals.length });
      g.append(svg('text', { x: left - 40, y: (top + ploth / 2 + 4).toFixed(1), 'text-anchor': 'end' }, p.name),
        svg('rect', { x: left, y: top, width: plotw, height: ploth, fill: 'none', stroke: '#999' }),
        svg('text', { x: left - 4, y: top + 10, 'text-anchor': 'end', fill: '#666' },
            String(Number(hi.toPrecision(4)))),
        svg('text', { x: left - 4, y: top + ploth, 'text-anchor': 'end', fill: '#666' },
            String(Number(lo.toPrecision(4)))),
        svg('line', { class: 'start', x1: left, x2: left + plotw, y1: y(p.start).toFixed(1), y2: y(p.start).toFixed(1),
          stroke: '#aaa', 'stroke-dasharray': '4 3' }),
        svg('polyline', { class: 'trajectory', fill: 'none', stroke: '#1f5fbf', 'stroke-width': 1.5,
          points: vals.map((v, j) => `${x(ks[j]).toFixed(1)},${y(v).toFixed(1)}`).join(' ') }),
        svg('text', { class: 'value', x: left + plotw + 6, y: (y(vals[vals.length - 1]) + 4).toFixed(1) },
            shown(p.current)));
      s.append(g);
    });
    s.append(svg('text', { x: left, y: st.params.length * H + 24, fill: '#666' },
      `iteration 0 .. ${st.iterations_planned}` + (st.stride > 1 ? ` (every ${st.stride}th shown)` : '')));
    return s;
  }

  function confirmation(st) {
    const c = st.confirm;
    if (!c) {
      return MB.el('p', { id: 'tune-confirm', class: 'muted note', 'data-state': 'none' },
        st.done ? 'No confirmation was played (--confirm-games 0).'
          : 'The confirmation (an SPRT match of the tuned values against the start) '
            + 'runs when the iterations are done.');
    }
    const decided = c.decision === 'H1' ? 'H1 accepted: the tuned values are stronger than the start'
      : c.decision === 'H0' ? 'H0 accepted: no gain over the start shown'
        : st.done ? `no decision within ${c.games} games` : 'no decision yet';
    const rows = [
      ['games', `${c.games}` + (c.games_max ? ` of at most ${c.games_max}` : '')],
      ['score', `${c.player || 'tuned'} ${c.win}-${c.loss}-${c.draw} (W-L-D)`],
    ];
    if (c.elo !== undefined && c.elo !== null) {
      rows.push(['Elo (95%)', `${signed(c.elo)} [${signed(c.elo_low)}, ${signed(c.elo_high)}]`]);
    }
    if (c.llr !== undefined) {
      rows.push(['LLR', `${c.llr.toFixed(3)} (bounds ${c.lower.toFixed(3)}, ${c.upper.toFixed(3)})`],
          ['SPRT', c.sprt.replace(/,/g, ', ')]);
    }
    rows.push(['decision', decided]);
    return MB.el('div', { id: 'tune-confirm', class: 'card', 'data-state': st.done ? 'done' : 'running',
      'data-decision': c.decision || '' },
      MB.el('table', { class: 'counts' }, MB.el('tbody', {}, rows.map(([k, v]) =>
        MB.el('tr', {}, MB.el('th', {}, k), MB.el('td', { 'data-field': k.split(' ')[0] }, v))))));
  }

  function render(root, st) {
    const set = st.settings || {};
    const about = ['pairs', 'seed', 'board', 'spsa', 'openings'].filter(k => set[k] !== undefined)
      .map(k => `${k} ${set[k]}`).join(', ');
    root.replaceChildren(
      MB.el('h2', {}, 'Tuning ', MB.el('code', {}, st.player || '?')),
      MB.el('p', { class: 'muted' }, `${st.dir}: ${about}`),
      progress(st),
      MB.el('div', { class: 'row' },
        MB.el('div', {}, MB.el('h2', {}, 'Parameters'), table(st)),
        MB.el('div', {}, MB.el('h2', {}, 'Confirmation'), confirmation(st))),
      MB.el('p', {}, 'Tuned so far: ', MB.el('code', { id: 'tune-spec' }, st.spec || '(not written yet)')),
      MB.el('h2', {}, 'Trajectories'), MB.el('div', { class: 'scroll-x' }, trajectories(st)),
      ...(st.cut ? [MB.el('p', { id: 'tune-cut', class: 'muted' },
        `The journal, ${st.journal_bytes} bytes, is read up to 32 MiB: `
        + `the iterations after ${st.iterations_done} are left out.`)] : []));
    // the meter's width: set here (the page's policy allows no inline style attribute)
    const fill = root.querySelector('.meter .fill');
    if (fill) fill.style.width = (st.iterations_planned
        ? Math.min(100, 100 * st.iterations_done / st.iterations_planned) : 0) + '%';
    root.dataset.iterations = st.iterations_done;
    root.dataset.done = st.done ? '1' : '0';
    document.getElementById('tune-status').textContent = phase(st);
  }

  function showError(msg) {
    const e = document.getElementById('error');
    e.hidden = !msg;
    e.textContent = msg || '';
  }

  // Poll until the run is done; an error (the journal unreadable, the
  // server gone) is shown and the polling goes on.
  async function start(root) {
    let polls = 0;
    for (;;) {
      let st = null;
      try {
        const r = await fetch('/api/tune');
        const text = await r.text();
        if (r.ok) st = JSON.parse(text);
        else {
          let msg = text;
          try { msg = JSON.parse(text).error; } catch (e) { /* not JSON */ }
          showError(`GET tune: ${r.status} ${msg}`);
        }
      } catch (e) {
        showError(`GET tune: the server does not answer (${e.message})`);
      }
      if (st) {
        showError(null);
        render(root, st);
      }
      root.dataset.polls = ++polls;
      if (st && st.done) return;
      await new Promise(r => setTimeout(r, POLL_MS));
    }
  }
  return { render, start };
})();
MB.Tune.start(document.getElementById('tune'));
