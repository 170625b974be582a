// The engine of the browser build: a Web Worker that runs Outflank
// compiled to WebAssembly, so that a search never freezes the page. It
// fetches the engine, the evaluation weights and the opening book (each
// gzipped, cached by the service worker, unpacked here by the browser),
// starts the engine, and passes the page's API requests to it (messages
// {id, method, path, body}, or {cancel: id}); the answers come back as
// {id, type: head|chunk|end}. The engine starts as soon as it is compiled
// and waits for the weights and the book itself (main.go), so that its own
// start overlaps their fetching; it serves the page once it has the book,
// and searches once it has the weights.
'use strict';
importScripts('wasm_exec.js');

const queue = []; // requests that came before the engine was up
let ready = false;
// When each step of the start ended, in ms from the worker's start (the
// page adds its own clock's offset): for the tests, and for anyone who
// wants to see where a slow start goes.
const times = { origin: performance.timeOrigin };
const stamp = (name) => { times[name] = Math.round(performance.now()); };
stamp('script');

function handle(m) {
  if (m.cancel) self.outflankCancel(m.cancel);
  else self.outflankServe(m.id, m.method, m.path, m.body || '');
}

self.onmessage = (e) => {
  if (ready) handle(e.data);
  else queue.push(e.data);
};

// Called by the engine once it is serving (the book read; a search waits
// for the weights), with when its steps ended.
self.outflankReady = (engine) => {
  ready = true;
  Object.assign(times, engine);
  stamp('ready');
  postMessage({ type: 'ready', times });
  for (const m of queue.splice(0)) handle(m);
};

// Called by the engine once the weights are read and it can search.
self.outflankLoaded = (engine) => {
  Object.assign(times, engine);
  stamp('loaded');
  postMessage({ type: 'loaded', times });
};

self.outflankFailed = (text) => postMessage({ type: 'failed', text });

// unpacked fetches a gzipped file of the site and returns its bytes,
// unpacked by the browser.
async function unpacked(name) {
  const r = await fetch(`${name}.gz`);
  if (!r.ok) throw new Error(`${name}.gz: HTTP ${r.status}`);
  const b = new Uint8Array(await new Response(r.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
  stamp(`${name} unpacked`);
  return b;
}

// The engine reads these promises of the data's bytes (main.go), and
// says what failed; until it reads them, a failure is not reported twice.
// The weights are fetched once the engine and the book are unpacked: the
// first move, a book move, needs only those two, and on two cores the
// three unpacked at once each took longer.
const engine = unpacked('outflank.wasm');
self.outflankBook = unpacked('book');
self.outflankWeights = Promise.allSettled([engine, self.outflankBook]).then(() => unpacked('weights'));
self.outflankWeights.catch(() => {});
self.outflankBook.catch(() => {});

(async () => {
  try {
    const go = new Go();
    const { instance } = await WebAssembly.instantiate(await engine, go.importObject);
    stamp('compiled');
    go.run(instance);
  } catch (e) {
    self.outflankFailed(`the engine did not start: ${e.message || e}`);
  }
})();
