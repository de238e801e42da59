// web/app.js: the served page: the API helper, the tabs, and starting each
// view (play at once; the tree and the results when first shown); the link
// to the tune page (tune.html, tune.js) when the server has --tune.
'use strict';
// MB.api(method, path, body, as) -> the parsed JSON (or text), or null
// after showing the server's error message (or the network's) on the page.
// POSTs carry X-Marubatsu (see cmd_serve.c).
MB.api = async function (method, path, body, as = 'json') {
  const headers = method === 'POST' ? { 'X-Marubatsu': '1' } : {};
  let r, text;
  try {
    r = await fetch('/api/' + path, { method, headers, body });
    text = await r.text();
  } catch (e) {
    MB.showError(`${method} ${path}: the server does not answer (${e.message})`);
    return null;
  }
  if (!r.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error; } catch (e) { /* not JSON */ }
    MB.showError(`${method} ${path}: ${r.status} ${msg}`);
    return null;
  }
  MB.showError(null);
  return as === 'json' ? JSON.parse(text) : text;
};
MB.showError = function (msg) {
  const e = document.getElementById('error');
  e.hidden = !msg;
  e.textContent = msg || '';
};

(async function () {
  const info = await MB.api('GET', 'info');
  if (!info) return;
  document.getElementById('version').textContent = `version ${info.version}`;
  // the tune page (tune.html), a page of its own, when the server follows a run
  document.getElementById('tab-tune').hidden = !info.tune;
  const started = {};
  const views = {
    play: el => MB.Play.init(el, info),
    tree: el => MB.Tree.init(el),
    results: async el => {
      if (!info.results) {
        el.replaceChildren(MB.el('p', {}, 'No tournament loaded: start the server with ',
          MB.el('code', {}, 'marubatsu serve --results DIR'),
              ' (a tournament\'s --out directory), or open its report.html.'));
        return;
      }
      const data = await MB.api('GET', 'results');
      const journal = data && await MB.api('GET', 'results/journal', undefined, 'text');
      if (journal !== null && data) MB.Report.render(el, data, journal);
    },
  };
  async function show(name) {
    for (const b of document.querySelectorAll('nav button.tab')) b.classList.toggle('active', b.dataset.view === name);
    for (const v of Object.keys(views)) document.getElementById('view-' + v).hidden = v !== name;
    if (!started[name]) {
      started[name] = true;
      await views[name](document.getElementById('view-' + name));
    }
    document.body.dataset.view = name;
    if (location.hash !== '#' + name) history.replaceState(null, '', '#' + name);
  }
  for (const b of document.querySelectorAll('nav button.tab')) b.addEventListener('click', () => show(b.dataset.view));
  const first = location.hash.slice(1);
  await show(views[first] ? first : 'play');
  document.body.dataset.readyMs = performance.now().toFixed(1); // since navigation began
  document.body.dataset.ready = '1';
})();
