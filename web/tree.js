// web/tree.js: the 3x3 game-tree explorer, as the series' Mbtree_GUI: the
// current node and each of its children as a small board with its score
// (old or shortest-victory scoring), the best moves marked; click a child to
// go down, go up or to any node of the path, or type a move list. The
// server answers from the tree the engine builds (GET /api/tree).
'use strict';
MB.Tree = (function () {
  let root, node = null, scoring = 'sv';
  const $ = sel => root.querySelector(sel);

  function build() {
    const sc = MB.el('select', { id: 'scoring', 'aria-label': 'scoring',
        onchange: e => { scoring = e.target.value; go(node ? node.path : []); } },
      MB.el('option', { value: 'sv' }, 'shortest victory (sv)'),
      MB.el('option', { value: 'sv_rd' }, 'shortest victory, draws rewritten (sv_rd)'),
      MB.el('option', { value: 'old' }, 'old: win 1, draw 0, loss -1'));
    sc.value = scoring;
    const moves = MB.el('input', { id: 'tree-moves', placeholder: 'B2,A1', size: 24, 'aria-label': 'moves' });
    root.append(
      MB.el('div', { class: 'controls card' },
        MB.el('label', {}, 'scoring', sc),
        MB.el('button', { id: 'tree-root', type: 'button', onclick: () => go([]) }, 'Root'),
        MB.el('button', { id: 'tree-up', type: 'button', onclick: () => go(node.path.slice(0, -1)) }, 'Up'),
        MB.el('form', { id: 'tree-jump', onsubmit: e => { e.preventDefault(); jump(); } },
          MB.el('label', {}, 'moves', moves), ' ', MB.el('button', { type: 'submit' }, 'Go'))),
      MB.el('div', { id: 'tree-path', class: 'path' }),
      MB.el('div', { class: 'row' },
        MB.el('div', { class: 'card' }, MB.el('div', { id: 'tree-node' })),
        MB.el('div', { class: 'card' }, MB.el('h2', {}, 'Nodes by depth'),
            MB.el('table', { id: 'tree-counts', class: 'counts' }))),
      MB.el('h2', { id: 'tree-children-title' }, 'Children'),
      MB.el('div', { id: 'tree-children', class: 'children' }));
  }

  function jump() {
    const text = $('#tree-moves').value.trim();
    go(text ? text.split(/[\s,]+/).filter(Boolean) : []);
  }

  let asked = 0; // only the answer to the latest click is shown
  async function go(path) {
    const q = new URLSearchParams({ moves: path.join(','), scoring });
    const t0 = performance.now(), mine = ++asked;
    const answer = await MB.api('GET', 'tree?' + q);
    if (!answer || mine !== asked) return;
    node = answer;
    render();
    root.dataset.ms = (performance.now() - t0).toFixed(2);
  }

  function render() {
    const n = node.node;
    $('#tree-moves').value = node.path.join(',');
    $('#tree-up').disabled = node.path.length === 0;
    const crumbs = [MB.el('button', { type: 'button', onclick: () => go([]) }, 'root')];
    node.path.forEach((sq, i) => crumbs.push('›',
        MB.el('button', { type: 'button', onclick: () => go(node.path.slice(0, i + 1)) }, sq)));
    $('#tree-path').replaceChildren('Path: ', ...crumbs);
    const end = n.status === 'playing' ? `${MB.markName(n.turn)} to move` : n.status === 'draw' ? 'draw'
        : `${MB.markName(n.status)} won`;
    const scores = {}, values = {};
    for (const c of node.children) { scores[c.move] = c.score; values[c.move] = Number(c.score) * (n.turn === 'o' ? 1
        : -1); }
    $('#tree-node').replaceChildren(
      MB.el('div', { class: 'status' }, `depth ${node.depth}: ${end}, score `,
          MB.el('b', { id: 'tree-score' }, n.score)),
      MB.board(n.board, { size: 'big', last: node.path[node.path.length - 1], scores, values, candidates: n.best,
        onclick: n.status === 'playing' ? sq => go(node.path.concat([sq])) : null }),
      MB.el('div', { class: 'muted' },
          `best: ${n.best.join(' ') || '—'}; ${n.nodes.toLocaleString('en')} nodes in this subtree`));
    $('#tree-counts').replaceChildren(MB.el('tr', {}, MB.el('th', {}, 'depth'), MB.el('th', {}, 'nodes')),
      ...node.depth_counts.map((c, d) => MB.el('tr', { class: d === node.depth ? 'cur' : null }, MB.el('td', {}, d),
          MB.el('td', {}, c.toLocaleString('en')))),
      MB.el('tr', {}, MB.el('th', {}, 'total'), MB.el('th', {}, node.total.toLocaleString('en'))));
    $('#tree-children-title').textContent = node.children.length
      ? `Children (${node.children.length}); the best for ${MB.markName(n.turn)} are marked`
      : 'No children: the game is over';
    $('#tree-children').replaceChildren(...node.children.map(c => MB.el('div', {
      class: 'child' + (c.is_best ? ' best' : ''), 'data-move': c.move, 'data-score': c.score, role: 'button',
          tabindex: 0,
      onclick: () => go(node.path.concat([c.move])),
          onkeydown: e => { if (e.key === 'Enter') go(node.path.concat([c.move])); } },
    MB.el('div', {}, MB.el('b', {}, c.move), c.is_best ? ' ★' : ''),
    MB.board(c.board, { size: 'small', last: c.move }),
    MB.el('div', { class: 'score' }, c.score),
    MB.el('div', { class: 'meta' }, c.status === 'playing' ? `${c.nodes.toLocaleString('en')} nodes`
        : MB.resultText(c.status)))));
    root.dataset.path = node.path.join(',');
    root.dataset.scoring = node.scoring;
  }

  return {
    async init(el) {
      root = el;
      build();
      await go([]);
    },
  };
})();
