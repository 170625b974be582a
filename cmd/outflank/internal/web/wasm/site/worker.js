// The engine of the browser build: a Web Worker that runs Outflank
// compiled to WebAssembly, so that a search never freezes the page. It
// fetches the engine, the evaluation weights and the opening book (each
// gzipped, cached by the service worker), starts the engine, and passes the
// page's API requests to it (messages {id, method, path, body}, or
// {cancel: id}); the answers come back as {id, type: head|chunk|end}.
'use strict';
importScripts('wasm_exec.js');

const queue = []; // requests that came before the engine was up
let ready = false;
const times = {}; // ms from the worker's start: fetched, compiled, ready

function handle(m) {
  if (m.cancel) self.outflankCancel(m.cancel);
  else self.outflankServe(m.id, m.method, m.path, m.body || '');
}

self.onmessage = (e) => {
  if (ready) handle(e.data);
  else queue.push(e.data);
};

// Called by the engine once it is serving.
self.outflankReady = (parse) => {
  ready = true;
  Object.assign(times, { parseWeights: parse.weights, parseBook: parse.book });
  times.ready = Math.round(performance.now());
  postMessage({ type: 'ready', times });
  for (const m of queue.splice(0)) handle(m);
};

self.outflankFailed = (text) => postMessage({ type: 'failed', text });

async function gunzip(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await new Response(r.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
}

(async () => {
  try {
    const [wasm, weights, book] = await Promise.all([gunzip('outflank.wasm.gz'), gunzip('weights.gz'), gunzip('book.gz')]);
    times.fetched = Math.round(performance.now());
    self.outflankWeights = weights;
    self.outflankBook = book;
    const go = new Go();
    const { instance } = await WebAssembly.instantiate(wasm, go.importObject);
    times.compiled = Math.round(performance.now());
    go.run(instance);
  } catch (e) {
    self.outflankFailed(`the engine did not start: ${e.message || e}`);
  }
})();
