// web/play.js: the play view: a game against any AI (or two AIs, or two
// people) on any board; moves by click, undo/redo, stepping through the
// history, the hint AI's scores drawn on the squares, save and load in
// play's record format, and a Gomocup brain's MESSAGE/DEBUG lines in a
// side panel. The server keeps the game (/api/games/ID/...).
'use strict';
MB.Play = (function () {
  let root, info, game = null, hint = null, busy = false, paused = false, timer = null;
  // a Gomocup brain's MESSAGE and DEBUG lines, as text, the last MAX_MESSAGES
  let messages = [];
  const MAX_MESSAGES = 500;
  function addMessages(m) {
    if (!m || !Array.isArray(m.lines)) return;
    for (const line of m.lines) messages.push(`${m.ai}: ${line}`);
    if (messages.length > MAX_MESSAGES) messages = messages.slice(-MAX_MESSAGES);
  }
  const $ = sel => root.querySelector(sel);

  function playerSelect(id, value) {
    const s = MB.el('select', { id, 'aria-label': id });
    s.append(MB.el('option', { value: 'human' }, 'human'));
    for (const a of info.ais) s.append(MB.el('option', { value: a.id }, a.id
        + (a.brain ? ' (Gomocup brain)' : a.sandboxed ? ' (sandboxed)' : '')));
    s.value = value;
    return s;
  }

  function build() {
    const hintAi = MB.el('select', { id: 'hint-ai', 'aria-label': 'hint AI' });
    for (const a of info.ais) hintAi.append(MB.el('option', { value: a.id }, a.id));
    hintAi.value = 'ai14s';
    const size = (id, v) => MB.el('input', { type: 'number', id, min: 1, max: info.max_side, value: v });
    root.append(
      MB.el('div', { class: 'controls card' },
        MB.el('label', {}, '○', playerSelect('player-o', 'human')),
        MB.el('label', {}, '×', playerSelect('player-x', 'ai14s')),
        MB.el('label', {}, 'width', size('width', 3)), MB.el('label', {}, 'height', size('height', 3)),
        MB.el('label', {}, 'k', size('k', 3)),
        MB.el('label', { title: 'freestyle: k or more in a row wins; exact: exactly k (an overline does not win)' },
            'rule',
          MB.el('select', { id: 'rule' }, MB.el('option', { value: 'freestyle' }, 'freestyle'),
            MB.el('option', { value: 'exact' }, 'exact'))),
        MB.el('button', { id: 'new-game', class: 'primary', type: 'button', onclick: newGame }, 'New game'),
        MB.el('button', { id: 'apply-players', type: 'button', onclick: applyPlayers,
            title: 'keep the position, change who plays' }, 'Change players')),
      MB.el('div', { class: 'row' },
        MB.el('div', {}, MB.el('div', { id: 'status', class: 'status', 'aria-live': 'polite' }),
            MB.el('div', { id: 'board' })),
        MB.el('div', { class: 'card' },
          MB.el('div', { class: 'controls' },
            MB.el('button', { id: 'undo', type: 'button', onclick: () => post('undo') }, 'Undo'),
            MB.el('button', { id: 'redo', type: 'button', onclick: () => post('redo') }, 'Redo'),
            MB.el('button', { id: 'ai-move', type: 'button', onclick: aiMove, title: 'the AI to move plays one move' },
                'AI move'),
            MB.el('label', {}, MB.el('input',
                { type: 'checkbox', id: 'pause',
                onchange: e => { paused = e.target.checked; if (!paused) schedule(); } }), 'pause AIs')),
          MB.el('div', { class: 'controls' },
            MB.el('button', { id: 'first', type: 'button', onclick: () => step(0), title: 'the start' }, '|◀'),
            MB.el('button', { id: 'prev', type: 'button', onclick: () => step(game.step - 1), title: 'one move back' },
                '◀'),
            MB.el('input', { type: 'range', id: 'slider', min: 0, max: 0, value: 0, 'aria-label': 'move',
                oninput: e => step(Number(e.target.value)) }),
            MB.el('button', { id: 'next', type: 'button', onclick: () => step(game.step + 1),
                title: 'one move forward' }, '▶'),
            MB.el('button', { id: 'last', type: 'button', onclick: () => step(game.history.length), title: 'the end' },
                '▶|')),
          MB.el('div', { id: 'history', class: 'history' }),
          MB.el('h2', {}, 'Hint'),
          MB.el('div', { class: 'controls' }, hintAi,
            MB.el('button', { id: 'hint', type: 'button', onclick: getHint }, 'Hint'),
            MB.el('button', { id: 'hint-clear', type: 'button', onclick: () => { hint = null; render(); } }, 'Clear')),
          MB.el('div', { id: 'hint-text', class: 'hint muted' }),
          MB.el('div', { id: 'messages-panel', hidden: true },
            MB.el('h2', {}, 'Brain messages'),
            MB.el('div', { class: 'controls' },
              MB.el('button', { id: 'messages-clear', type: 'button', onclick: () => { messages = []; render(); } },
                  'Clear')),
            MB.el('pre', { id: 'messages', class: 'messages', 'aria-live': 'polite' })),
          MB.el('h2', {}, 'Game record'),
          MB.el('div', { class: 'controls' },
            MB.el('button', { id: 'save', type: 'button', onclick: save }, 'Save'),
            MB.el('label', {}, 'Load', MB.el('input',
                { type: 'file', id: 'load', accept: '.txt,text/plain', onchange: load }))))));
  }

  function setGame(g) {
    game = g;
    if (hint && hint.step !== g.step) hint = null;
    render();
    schedule();
  }

  function statusLine() {
    const s = MB.el('span');
    const who = m => game.players[m] === 'human' ? 'you' : game.players[m];
    if (game.failed) {
      s.append(MB.el('span', { class: 'failed', id: 'failure' },
          `${game.failed.ai} (${MB.markName(game.failed.mark)}) failed: ${game.failed.reason}`));
    } else if (game.status === 'playing') {
      s.append('Turn ', MB.el('span', { class: game.turn }, MB.markName(game.turn)), ` (${who(game.turn)})`);
      if (busy) s.append(' … thinking');
      else if (game.step < game.history.length) s.append(MB.el('span', { class: 'muted' },
          ` — at move ${game.step} of ${game.history.length}`));
    } else if (game.status === 'draw') {
      s.append('Draw');
    } else {
      s.append(MB.el('span', { class: game.status }, MB.markName(game.status)), ` wins (${who(game.status)})`);
    }
    return s;
  }

  function render() {
    if (!game) return;
    const humanTurn = game.status === 'playing' && game.players[game.turn] === 'human';
    const cell = Math.max(22, Math.min(88, Math.floor(440 / Math.max(game.width, game.height))));
    const win = game.status === 'o' || game.status === 'x'
        ? MB.winLine(game.board, game.k, game.status, game.rule === 'exact') : [];
    $('#board').replaceChildren(MB.board(game.board, {
      cell, last: game.last, win, onclick: humanTurn && !busy ? sq => move(sq) : null,
      scores: hint && hint.scores, values: hint && hint.values, candidates: hint && hint.candidate,
    }));
    $('#board').firstChild.id = 'game-board';
    $('#status').replaceChildren(statusLine());
    $('#undo').disabled = busy || game.step === 0;
    $('#redo').disabled = busy || game.step >= game.history.length;
    $('#prev').disabled = $('#first').disabled = busy || game.step === 0;
    $('#next').disabled = $('#last').disabled = busy || game.step >= game.history.length;
    $('#ai-move').disabled = busy || game.status !== 'playing' || game.players[game.turn] === 'human';
    $('#hint').disabled = busy || game.status !== 'playing';
    const sl = $('#slider');
    sl.disabled = busy;
    sl.max = game.history.length;
    sl.value = game.step;
    $('#history').replaceChildren(...game.history.map((sq, i) => MB.el('span',
        { class: i + 1 === game.step ? 'cur' : null },
      `${i % 2 === 0 ? `${i / 2 + 1}.` : ''}${sq} `)));
    const ht = $('#hint-text');
    if (!hint) ht.replaceChildren();
    else if (hint.failed) ht.replaceChildren(MB.el('span', { class: 'failed' }, `${hint.ai} failed: ${hint.failed}`));
    else {
      ht.replaceChildren(`${hint.ai} for ${MB.markName(hint.turn)}: best ${hint.candidate.join(' ')}`,
        hint.score !== undefined ? ` (score ${hint.score})` : '', hint.note ? ` — ${hint.note}` : '',
        hint.scores ? MB.el('div', {}, `Each empty square shows ${hint.label ? `its ${hint.label}`
            : 'the score of playing there'} (higher is better for the side to move)${game.width * game.height > 25
            ? ', deeper colour for higher' : ''}.`) : '');
    }
    $('#messages-panel').hidden = messages.length === 0;
    const box = $('#messages');
    box.textContent = messages.join('\n'); // text only: a brain's lines are never markup
    box.scrollTop = box.scrollHeight;
    root.dataset.step = game.step;
    root.dataset.status = game.status;
    root.dataset.busy = busy ? '1' : '0';
  }

  // An AI to move plays by itself at the end of the history, unless paused.
  function schedule() {
    clearTimeout(timer);
    if (!game || paused || busy || game.failed || game.status !== 'playing') return;
    if (game.players[game.turn] === 'human' || game.step < game.history.length) return;
    const bothAi = game.players.o !== 'human' && game.players.x !== 'human';
    timer = setTimeout(aiMove, bothAi ? 400 : 0);
  }

  // a request with the controls disabled meanwhile; null after an error
  async function call(method, path, body) {
    busy = true;
    render();
    const g = await MB.api(method, path, body);
    busy = false;
    render();
    return g;
  }
  async function post(action, query = '') {
    if (busy) return; // one request at a time: the server's game changes in order
    const t0 = performance.now();
    const g = await call('POST', `games/${game.id}/${action}${query}`);
    if (g) addMessages(g.messages);
    if (g) setGame(g);
    // how long the answer took to reach the page, drawn (for make bench)
    root.dataset[action === 'ai' ? 'aiMs' : 'ms'] = (performance.now() - t0).toFixed(2);
  }
  const move = sq => post('move', `?move=${sq}`);
  const step = n => { if (n >= 0 && n <= game.history.length && n !== game.step) post('step', `?to=${n}`); };
  const aiMove = () => { if (game.status === 'playing' && game.players[game.turn] !== 'human') post('ai'); };

  async function newGame() {
    const q = new URLSearchParams({ o: $('#player-o').value, x: $('#player-x').value,
      width: $('#width').value, height: $('#height').value, k: $('#k').value, rule: $('#rule').value });
    hint = null;
    const g = await call('POST', 'games?' + q);
    if (g) setGame(g);
  }
  function applyPlayers() {
    return post('players', '?' + new URLSearchParams({ o: $('#player-o').value, x: $('#player-x').value }));
  }
  async function getHint() {
    const h = await call('GET', `games/${game.id}/hint?ai=${encodeURIComponent($('#hint-ai').value)}`);
    if (!h) return;
    addMessages(h.messages);
    hint = Object.assign(h, { step: game.step });
    render();
  }
  async function save() {
    const text = await MB.api('GET', `games/${game.id}/record`, undefined, 'text');
    if (text === null) return;
    const a = MB.el('a', { href: URL.createObjectURL(new Blob([text], { type: 'text/plain' })), download: 'game.txt' });
    document.body.append(a);
    a.click();
    a.remove();
  }
  async function load(e) {
    const file = e.target.files[0];
    if (!file) return;
    const text = await file.text();
    e.target.value = '';
    hint = null;
    const g = await call('POST', `games/${game.id}/record`, text);
    if (g) setGame(g);
  }

  return {
    async init(el, inf) {
      root = el;
      info = inf;
      build();
      await newGame();
    },
  };
})();
