// Outflank's board page. The server knows the rules and the engine; this
// script keeps the game (start board, moves, the position shown), draws it,
// and turns clicks into requests. See package web's doc for the API.
// In the browser build (go run ./cmd/release site) the "server" is the
// engine in a Web Worker, reached through window.outflankFetch (backend.js),
// which answers as fetch does; served by "outflank web", it is fetch.
'use strict';

const call = window.outflankFetch || ((path, opts) => fetch(path, opts));

const $ = (id) => document.getElementById(id);
const COLS = 'abcdefgh';
const STANDARD = '---------------------------OX------XO--------------------------- X';

const S = {
  game: null,     // the server's gameState: start, moves, plies, ggf, transcript
  cursor: 0,      // index into game.plies of the position shown
  evals: [],      // per ply: {black, exact, depth} for the graph
  hints: null,    // {ply, moves: {sq: {score, source, book, exact}}, best}: one value a move, the book's or the search's
  search: null,   // the running search: {ctrl, mode, ply}
  edit: null,     // while editing: {board: [64 chars], drag: index or -1}
  autoplay: true, // the engine moves by itself when it is its turn
  note: '',       // what the engine just played, shown after the move
  name: 'Outflank', // the engine's name, for the record's players
};

// ---- server calls ----

async function api(path, body) {
  const r = await call(path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  let j;
  try { j = await r.json(); } catch (e) { j = {}; }
  if (!r.ok) throw new Error(j.error || `${path}: HTTP ${r.status}`);
  return j;
}

// showError shows msg in the box with the given id (the one under the
// board unless a control has its own, as the import has), or hides it.
function showError(msg, id = 'message') {
  const m = $(id);
  m.textContent = msg;
  m.hidden = !msg;
}

// search runs one search of the position shown and feeds its server-sent
// events to onEvent; a newer search, a stop or leaving the position aborts
// it (closing the request stops the engine).
async function search(mode, onEvent, wholeGame) {
  stopSearch();
  const token = { ctrl: new AbortController(), mode, ply: S.cursor };
  S.search = token;
  renderBusy();
  const body = {
    start: S.game.start, moves: wholeGame ? S.game.moves : S.game.moves.slice(0, S.cursor), mode,
    level: +$('level').value || 0, time: mode === 'solve' || mode === 'analyze' ? 0 : (+$('time').value || 0),
    ponder: mode === 'move' && $('ponder').checked,
  };
  try {
    const r = await call('api/search', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body), signal: token.ctrl.signal,
    });
    if (!r.ok) {
      let j = {};
      try { j = await r.json(); } catch (e) { /* no body */ }
      throw new Error(j.error || `search: HTTP ${r.status}`);
    }
    const reader = r.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let k;
      while ((k = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, k);
        buf = buf.slice(k + 2);
        let ev = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) ev = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (S.search === token) onEvent(ev, JSON.parse(data));
      }
    }
  } catch (e) {
    if (e.name !== 'AbortError' && S.search === token) showError(e.message);
  } finally {
    if (S.search === token) {
      S.search = null;
      renderBusy();
    }
  }
}

function stopSearch() {
  if (S.search) {
    S.search.ctrl.abort();
    S.search = null;
    renderBusy();
  }
}

// ---- the game ----

const plies = () => S.game.plies;
const here = () => S.game.plies[S.cursor];
const lastPly = () => S.game.plies.length - 1;

// A position where the side to move must pass is never shown: the
// server adds the pass after it, and navigation steps over it (forward
// from the start, when the game begins with a pass).
function stopAt(i, dir) {
  i = Math.max(0, Math.min(lastPly(), i));
  while (plies()[i].pass && i < lastPly()) {
    if (dir < 0 && i > 0) {
      i--;
    } else {
      i++;
      dir = 1;
    }
  }
  return i;
}

function engineSide(color) {
  const v = $('engineSide').value;
  return v === 'both' || v === color;
}

// setGame installs a new game from the server, keeping the evaluations
// of the moves it shares with the old one.
function setGame(st, cursor) {
  let keep = 0;
  if (S.game && S.game.start === st.start) {
    while (keep < S.game.moves.length && keep < st.moves.length && sqOf(S.game.moves[keep]) === sqOf(st.moves[keep])) keep++;
    keep++;
  }
  S.evals = S.evals.slice(0, keep);
  S.game = st;
  S.cursor = stopAt(cursor === undefined ? lastPly() : Math.min(cursor, lastPly()), -1);
}

async function loadGame(start, moves, cursor, props) {
  const st = await api('api/game', { start, moves, props: props || [] });
  setGame(st, cursor);
}

// A move of the record is its square ("f5", "pa"), with the engine's
// evaluation and time when it played it ("f5/-2.00/1.35"), as GGF has it.
const sqOf = (m) => m.split('/')[0].toLowerCase();

// playMove plays sq (with a note for the record, "/eval/seconds", when the
// engine chose it) at the position shown.
async function playMove(sq, note) {
  if (S.edit || !S.game) return;
  const p = here();
  if (S.search && S.search.mode === 'move' && S.search.ply === S.cursor) {
    showError('The engine is thinking: press Stop to make it play now.');
    return;
  }
  if (!p.legal.includes(sq)) {
    showError(p.over ? 'The game is over.' : `${sq} is not a legal move for ${p.toMove}.`);
    return;
  }
  stopSearch();
  showError('');
  try {
    if (sqOf(S.game.moves[S.cursor] || '') === sq) {
      S.cursor = stopAt(S.cursor + 1, 1); // the move the record already has
    } else {
      await loadGame(S.game.start, S.game.moves.slice(0, S.cursor).concat([sq + (note || '')]), undefined, S.game.props);
    }
  } catch (e) {
    showError(e.message);
    return;
  }
  // A person's move lets the engine answer; the engine's own move keeps
  // whatever Stop decided (so Stop ends a game the engine plays alone).
  if (!note) S.autoplay = true;
  changed();
}

// changed redraws after the position shown changed and starts whatever
// the position calls for: the engine's move, or hints.
function changed() {
  stopSearch();
  S.hints = null;
  $('solution').textContent = '';
  $('progress').textContent = S.note || '';
  S.note = '';
  render();
  saveLink();
  const p = here();
  if (p.over) {
    $('progress').textContent = p.result;
    return;
  }
  if (S.autoplay && S.cursor === lastPly() && engineSide(p.toMove)) {
    engineMove();
  } else if ($('hints').checked) {
    hint();
  }
}

function engineMove() {
  const ply = S.cursor;
  search('move', (ev, d) => {
    if (ev === 'info') progress(d, 'thinking');
    if (ev === 'tick') tick(d, 'thinking');
    if (ev !== 'done') return;
    if (!d.best || d.best === 'PA') return;
    setEval(ply, d);
    progress(d, `${here().toMove === 'black' ? 'Black' : 'White'} played ${moveText(d.best)}${d.book ? ' (book move)' : ''}`);
    S.note = $('progress').textContent;
    // Play it after this stream has closed.
    const note = `/${d.score.toFixed(2)}/${(d.ms / 1000).toFixed(2)}`;
    // The search is over (its stream closes next): the move is not a
    // click made while the engine thinks.
    S.search = null;
    renderBusy();
    setTimeout(() => { if (S.cursor === ply) playMove(d.best.toLowerCase(), note); }, 0);
  });
}

function hint() {
  const ply = S.cursor;
  search('hint', (ev, d) => {
    if (ev === 'start') {
      // The book's values show at once; the search's replace them where
      // it looks deeper than the book's search did.
      S.hints = { ply, moves: {}, best: '' };
      for (const b of d.book || []) {
        const source = b.basis.startsWith('depth ') ? `book ${b.basis.slice(6)}` : `book, ${b.basis}`;
        S.hints.moves[b.move.toLowerCase()] = { score: b.score, source, book: true, exact: false };
      }
      renderBoard();
    } else if ((ev === 'info' || ev === 'done') && S.hints) {
      if (d.values && d.values.length) {
        S.hints.moves = {};
        for (const v of d.values) S.hints.moves[v.move.toLowerCase()] = v;
        const top = d.values[0];
        S.hints.best = top.move.toLowerCase();
        setEval(ply, { score: Math.round(top.score), exact: top.exact, depth: d.depth, book: top.book });
        renderBoard();
        renderGraph();
      }
      progress(d, ev === 'done' ? (d.stopped ? 'hints stopped' : 'hints done') : 'hints');
    } else if (ev === 'tick') {
      tick(d);
    }
  });
}

function solve() {
  const ply = S.cursor;
  const p = here();
  if (p.over) return;
  const empties = 64 - p.black - p.white;
  $('solution').textContent = `Solving ${empties} empties…`;
  search('solve', (ev, d) => {
    if (ev === 'info') {
      $('solution').textContent = `Solving ${empties} empties… ${d.exact ? 'exact' : 'depth ' + depthText(d)}: ${signed(d.score)} ${line(d.pv)}`;
    } else if (ev === 'tick') {
      tick(d);
    } else if (ev === 'done') {
      if (d.exact) setEval(ply, d);
      renderGraph();
      const who = p.toMove === 'black' ? 'Black' : 'White';
      const other = p.toMove === 'black' ? 'White' : 'Black';
      let verdict = 'Draw';
      if (d.score > 0) verdict = `${who} wins by ${d.score}`;
      if (d.score < 0) verdict = `${other} wins by ${-d.score}`;
      $('solution').textContent = d.exact && !d.stopped
        ? `Exact: ${verdict} (${signed(d.score)} for ${p.toMove}). Best line: ${line(d.pv)}`
        : `Stopped before the end: best so far ${signed(d.score)} (depth ${d.depth}), ${line(d.pv)}`;
      progress(d, d.stopped ? 'solve stopped' : 'solved');
    }
  });
}

function analyze() {
  S.autoplay = false;
  $('progress').textContent = 'Analysing the game…';
  search('analyze', (ev, d) => {
    if (ev === 'eval') {
      S.evals[d.ply] = { black: d.black, exact: d.exact, book: !!d.book, depth: d.depth };
      renderGraph();
      $('progress').textContent = `Analysed position ${d.ply} (${signed(d.black)} for Black${d.exact ? ', exact' : ''})`;
    } else if (ev === 'done') {
      $('progress').textContent = d.stopped ? 'Analysis stopped.' : 'Analysis done.';
    }
  }, true);
}

function setEval(ply, d) {
  const p = plies()[ply];
  if (!p) return;
  S.evals[ply] = { black: p.toMove === 'black' ? d.score : -d.score, exact: d.exact, book: !!d.book, depth: d.depth };
  renderGraph();
}

const signed = (v) => (v > 0 ? '+' : '') + v;
// moveText writes a move as every command does: "f5", or "pass" (the API
// sends a pass as "PA").
const moveText = (m) => (m.toUpperCase() === 'PA' ? 'pass' : m.toLowerCase());
const line = (pv) => (pv || []).map(moveText).join(' ');

function progress(d, what) {
  if (d.ms === undefined) return;
  const depth = d.book ? 'book' : d.exact ? 'exact' : d.depth ? `depth ${depthText(d)}` : '';
  // A midgame score swings with the parity of the depth: the steady value
  // (its mean with the depth before) goes beside it.
  const steady = d.steady !== undefined && d.steady !== d.score ? ` (steady ${signed(d.steady)})` : '';
  const best = d.best ? `${moveText(d.best)} ${signed(d.score)}${steady}` : '';
  $('progress').textContent = [what, best, depth, d.nodes ? `${d.nodes.toLocaleString()} nodes` : '',
    `${(d.ms / 1000).toFixed(1)} s`, d.pv && d.pv.length > 1 ? line(d.pv) : ''].filter(Boolean).join(' · ');
}

// depthText writes a depth as NBoard does: "18", or "18@95%" when the
// search made selective cuts at that confidence.
const depthText = (d) => (d.selectivity && d.selectivity < 100 ? `${d.depth}@${d.selectivity}%` : `${d.depth}`);

function tick(d, what) {
  const el = $('progress');
  if (!el.textContent && what) el.textContent = what;
  el.textContent = el.textContent.replace(/ · [0-9.]+ s$|$/, ` · ${(d.ms / 1000).toFixed(1)} s`);
}

// ---- drawing ----

function render() {
  renderBoard();
  renderMoves();
  renderGraph();
  renderBusy();
}

function renderBoard() {
  const board = $('board');
  const p = here();
  const cells = S.edit ? S.edit.board : p.board.split('');
  board.classList.toggle('editing', !!S.edit);
  const lastMove = S.cursor > 0 ? lastBoardMove(S.cursor) : '';
  const legal = S.edit ? [] : p.legal;
  const h = S.hints && S.hints.ply === S.cursor && !S.edit ? S.hints : null;
  for (let i = 0; i < 64; i++) {
    const sq = COLS[i % 8] + (Math.floor(i / 8) + 1);
    const el = board.children[i];
    el.className = 'sq';
    el.replaceChildren();
    if (cells[i] === 'X' || cells[i] === 'O') {
      const d = document.createElement('span');
      d.className = 'disc ' + (cells[i] === 'X' ? 'black' : 'white');
      el.appendChild(d);
      if (sq === lastMove && !S.edit) el.classList.add('last');
    }
    if (legal.includes(sq)) {
      el.classList.add('legal');
      if (h && h.moves[sq] !== undefined) {
        el.classList.add('hinted');
        const t = document.createElement('span');
        t.className = 'hint' + (sq === h.best ? ' best' : '');
        const hv = h.moves[sq];
        const v = document.createElement('span');
        v.textContent = signed(Math.round(hv.score));
        if (hv.exact) v.className = 'exact';
        t.title = `${signed(hv.score)} (${hv.source})`;
        t.appendChild(v);
        el.appendChild(t);
        if (hv.book) {
          const b = document.createElement('span');
          b.className = 'book';
          b.textContent = 'B';
          b.title = t.title;
          el.appendChild(b);
        }
      }
    }
  }
  $('nblack').textContent = S.edit ? cells.filter((c) => c === 'X').length : p.black;
  $('nwhite').textContent = S.edit ? cells.filter((c) => c === 'O').length : p.white;
  $('turn').textContent = S.edit ? 'editing' : p.over ? p.result : `${p.toMove === 'black' ? 'Black' : 'White'} to move`;
}

function lastBoardMove(i) {
  for (let k = i - 1; k >= 0; k--) {
    const m = sqOf(S.game.moves[k]);
    if (m !== 'pa') return m;
  }
  return '';
}

function renderMoves() {
  const box = $('moves');
  box.replaceChildren();
  const start = document.createElement('span');
  start.className = 'mv start' + (S.cursor === 0 ? ' current' : '');
  start.textContent = S.game.start === STANDARD ? 'start' : 'start (set-up position)';
  start.onclick = () => goTo(0);
  box.appendChild(start);
  let row = 0;
  S.game.moves.forEach((m, k) => {
    const white = plies()[k].toMove === 'white';
    if (!white || k === 0) {
      row++;
      const n = document.createElement('span');
      n.className = 'n';
      n.textContent = row + '.';
      box.appendChild(n);
      if (white) box.appendChild(document.createElement('span'));
    }
    const el = document.createElement('span');
    el.className = 'mv' + (S.cursor === stopAt(k + 1, 1) ? ' current' : '');
    el.textContent = sqOf(m) === 'pa' ? 'pass' : sqOf(m);
    if (m.includes('/')) el.title = `engine: ${m.split('/')[1]} (${m.split('/')[2] || '?'} s)`;
    el.dataset.ply = k + 1;
    el.onclick = () => goTo(k + 1, 1);
    box.appendChild(el);
  });
  const cur = box.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

function renderGraph() {
  const svg = $('graph');
  const W = Math.max(200, svg.clientWidth || 400);
  const H = 120;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const n = Math.max(60, lastPly());
  let top = 16;
  S.evals.forEach((e) => { if (e) top = Math.max(top, Math.min(64, Math.abs(e.black))); });
  const x = (i) => 6 + (i * (W - 12)) / n;
  const y = (v) => H / 2 - (v * (H / 2 - 6)) / top;
  const parts = [`<line class="zero" x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}"/>`,
    `<line class="cursor" x1="${x(S.cursor)}" x2="${x(S.cursor)}" y1="0" y2="${H}"/>`];
  const pts = [];
  S.evals.forEach((e, i) => { if (e && i <= lastPly()) pts.push([i, e]); });
  if (pts.length > 1) parts.push(`<polyline class="curve" points="${pts.map(([i, e]) => `${x(i)},${y(e.black)}`).join(' ')}"/>`);
  for (const [i, e] of pts) {
    const kind = e.exact ? 'exact' : e.book ? 'book' : 'search';
    parts.push(`<circle class="pt ${kind}" data-ply="${i}" cx="${x(i)}" cy="${y(e.black)}" r="3.5"><title>move ${i}: ${signed(e.black)} for Black (${kind})</title></circle>`);
  }
  svg.innerHTML = parts.join('');
  svg.onclick = (ev) => {
    const r = svg.getBoundingClientRect();
    const i = Math.round((((ev.clientX - r.left) / r.width) * W - 6) * n / (W - 12));
    goTo(Math.max(0, Math.min(lastPly(), i)));
  };
}

function renderBusy() {
  const busy = !!S.search;
  $('stop').disabled = !busy;
  $('solve').classList.toggle('on', busy && S.search.mode === 'solve');
  $('analyze').classList.toggle('on', busy && S.search.mode === 'analyze');
  if (!S.game) return;
  const p = here();
  $('undo').disabled = S.cursor === 0;
  $('first').disabled = S.cursor === 0;
  $('redo').disabled = S.cursor === lastPly();
  $('last').disabled = S.cursor === lastPly();
  $('solve').disabled = p.over;
  $('go').disabled = p.over;
}

// ---- navigation and controls ----

function goTo(i, dir) {
  if (S.edit) return;
  S.autoplay = false;
  S.cursor = stopAt(i, dir || (i < S.cursor ? -1 : 1));
  changed();
}

// undo goes back one move, or, against the engine, to the last position
// where it was the person's move.
function undo() {
  let i = stopAt(S.cursor - 1, -1);
  const v = $('engineSide').value;
  if (v === 'black' || v === 'white') {
    while (i > 0 && engineSide(plies()[i].toMove)) i = stopAt(i - 1, -1);
  }
  goTo(i);
}

async function newGame() {
  stopSearch();
  showError('');
  const name = (color) => (engineSide(color) ? S.name : 'Player');
  await openGame('api/new', {
    handicap: +$('handicap').value, weaker: $('weaker').value, black: name('black'), white: name('white'),
  }, { cursor: 0, autoplay: true });
}

// openGame replaces the game by the one the server returns for path and
// body (a new game, a pasted record, an edited board), its evaluations
// forgotten; accepted, if given, runs once the server has accepted it. On
// an error the game stays as it was and the page shows the message.
async function openGame(path, body, { cursor, autoplay = false, accepted, errorAt = 'message' } = {}) {
  try {
    const st = await api(path, body);
    if (accepted) accepted();
    S.evals = [];
    S.game = null;
    setGame(st, cursor);
    showError('');
    showError('', 'importError');
  } catch (e) {
    showError(e.message, errorAt);
    return;
  }
  S.autoplay = autoplay;
  changed();
}

async function importText(text) {
  stopSearch();
  // An error shows beside the text, not under the board (which it moved).
  await openGame('api/parse', { text }, { errorAt: 'importError' });
}

// The link: #start=<board><side>&moves=f5d6…&ply=N (start left out for
// the standard start).
function saveLink() {
  const q = new URLSearchParams();
  if (S.game.start !== STANDARD) q.set('start', S.game.start.replace(' ', ''));
  if (S.game.moves.length) q.set('moves', S.game.moves.map(sqOf).join(''));
  if (S.cursor !== lastPly()) q.set('ply', S.cursor);
  const h = q.toString();
  history.replaceState(null, '', h ? '#' + h : location.pathname + location.search);
}

async function loadLink() {
  const q = new URLSearchParams(location.hash.slice(1));
  const moves = (q.get('moves') || '').match(/../g) || [];
  const ply = q.has('ply') ? parseInt(q.get('ply'), 10) : undefined;
  try {
    await loadGame(q.get('start') || '', moves, Number.isNaN(ply) ? undefined : ply);
    if (q.has('start') || moves.length) S.autoplay = false;
  } catch (e) {
    showError(`The link's position: ${e.message}`);
    await loadGame('', []);
  }
}

// ---- the edit mode ----

function startEdit() {
  stopSearch();
  S.edit = { board: here().board.split(''), drag: -1 };
  $('editSide').value = here().toMove === 'white' ? 'O' : 'X';
  $('editTools').hidden = false;
  $('editHelp').hidden = false;
  $('edit').hidden = true;
  render();
}

function endEdit() {
  S.edit = null;
  $('editTools').hidden = true;
  $('editHelp').hidden = true;
  $('edit').hidden = false;
}

async function finishEdit() {
  const start = S.edit.board.join('') + ' ' + $('editSide').value;
  await openGame('api/game', { start, moves: [] }, { accepted: endEdit });
}

function paint() {
  return document.querySelector('input[name=paint]:checked').value;
}

function editSquare(i) {
  const c = paint();
  S.edit.board[i] = S.edit.board[i] === c ? '-' : c;
  renderBoard();
}

// ---- wiring ----

function init() {
  const board = $('board');
  for (let i = 0; i < 64; i++) {
    const el = document.createElement('div');
    el.className = 'sq';
    el.dataset.sq = COLS[i % 8] + (Math.floor(i / 8) + 1);
    el.dataset.i = i;
    board.appendChild(el);
  }
  for (let i = 0; i < 8; i++) {
    const c = document.createElement('span');
    c.textContent = COLS[i];
    $('cols').appendChild(c);
    const r = document.createElement('span');
    r.textContent = i + 1;
    $('rows').appendChild(r);
  }
  const squareAt = (ev) => {
    const el = document.elementFromPoint(ev.clientX, ev.clientY);
    const sq = el && el.closest('.sq');
    return sq ? +sq.dataset.i : -1;
  };
  board.addEventListener('pointerdown', (ev) => {
    const i = squareAt(ev);
    if (i < 0) return;
    if (!S.edit) {
      playMove(board.children[i].dataset.sq);
      return;
    }
    S.edit.drag = S.edit.board[i] !== '-' ? i : -1;
    if (S.edit.drag >= 0) board.children[i].classList.add('dragging');
    S.edit.down = i;
  });
  board.addEventListener('pointerup', (ev) => {
    if (!S.edit || S.edit.down === undefined) return;
    const i = squareAt(ev);
    const from = S.edit.drag;
    S.edit.drag = -1;
    const down = S.edit.down;
    S.edit.down = undefined;
    if (i < 0) { renderBoard(); return; }
    if (from >= 0 && i !== from) { // a drag moves the disc
      S.edit.board[i] = S.edit.board[from];
      S.edit.board[from] = '-';
      renderBoard();
    } else if (i === down) {
      editSquare(i);
    } else {
      renderBoard();
    }
  });

  $('first').onclick = () => goTo(0);
  $('undo').onclick = undo;
  $('redo').onclick = () => goTo(S.cursor + 1);
  $('last').onclick = () => goTo(lastPly());
  document.addEventListener('keydown', (ev) => {
    if (ev.target.closest && ev.target.closest('input, textarea, select')) return;
    const keys = { ArrowLeft: undo, ArrowRight: () => goTo(S.cursor + 1), Home: () => goTo(0), End: () => goTo(lastPly()) };
    if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  });
  $('new').onclick = newGame;
  $('go').onclick = () => { S.autoplay = true; engineMove(); };
  $('engineSide').onchange = () => { S.autoplay = true; changed(); };
  $('hints').addEventListener('change', () => { $('legend').hidden = !$('hints').checked; });
  $('hints').onchange = () => { if ($('hints').checked) { if (!S.search) hint(); } else { if (S.search && S.search.mode === 'hint') stopSearch(); S.hints = null; renderBoard(); } };
  // New strength settings restart the hints with them.
  $('level').onchange = $('time').onchange = () => { if (S.search && S.search.mode === 'hint') hint(); };
  $('solve').onclick = solve;
  $('analyze').onclick = analyze;
  $('stop').onclick = () => { S.autoplay = false; call('api/stop', { method: 'POST' }); };
  $('edit').onclick = startEdit;
  $('editCancel').onclick = () => { endEdit(); render(); };
  $('editDone').onclick = finishEdit;
  $('editClear').onclick = () => { S.edit.board = Array(64).fill('-'); renderBoard(); };
  $('editStart').onclick = () => { S.edit.board = STANDARD.slice(0, 64).split(''); $('editSide').value = 'X'; renderBoard(); };
  $('import').onclick = () => importText($('text').value);
  $('file').onchange = async () => {
    const f = $('file').files[0];
    if (!f) return;
    if (f.size > 60000) { showError(`${f.name}: too large for one game (${f.size} bytes)`); return; }
    importText(await f.text());
    $('file').value = '';
  };
  $('exportGGF').onclick = () => { $('text').value = S.game.ggf; };
  $('exportText').onclick = () => { $('text').value = S.game.transcript || '(no moves)'; };
  $('download').onclick = () => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([S.game.ggf + '\n'], { type: 'text/plain' }));
    a.download = 'outflank.ggf';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  $('link').onclick = async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      $('progress').textContent = 'Link copied.';
    } catch (e) {
      $('text').value = location.href; // no clipboard (e.g. plain http from another machine)
      $('progress').textContent = 'Link shown below: copy it from the text box.';
    }
  };
  window.addEventListener('resize', renderGraph);
  // A link pasted into the address bar of an open page (saveLink's own
  // updates use replaceState, which fires no event).
  window.addEventListener('hashchange', async () => {
    stopSearch();
    await loadLink();
    changed();
  });
}

async function main() {
  init();
  try {
    const r = await call('api/info');
    const info = await r.json();
    const threads = info.threads ? ` · ${info.threads} thread${info.threads === 1 ? '' : 's'}` : '';
    $('version').textContent = `${info.name} ${info.version}${threads}${info.book ? ' · book' : ''}`;
    $('level').value = info.level;
    S.name = info.name;
  } catch (e) {
    showError(window.outflankFetch ? `The engine does not answer: ${e.message}` : 'The server does not answer: is "outflank web" still running?');
  }
  await loadLink();
  changed();
}

main();
