// The browser build's stand-in for the server: window.outflankFetch takes
// the page's API requests (as fetch does) to the engine in a Web Worker
// and rebuilds each answer as a Response, a search's events streamed as
// they come, so that app.js reads them as it reads "outflank web"'s. An
// aborted request cancels its search in the engine.
'use strict';

(() => {
  const created = performance.now();
  const worker = new Worker('static/worker.js');
  const pending = new Map(); // id -> {resolve, reject, ctrl, headed}
  let next = 1;
  let failed = '';

  const progress = document.getElementById('progress');
  progress.textContent = 'Loading the engine (about 13 MB the first time)…';

  worker.onmessage = (e) => {
    const m = e.data;
    if (m.type === 'ready' || m.type === 'loaded') {
      // When each step of the engine's start ended, in ms from the
      // page's opening, for the tests: at 'ready' it serves the page
      // (the book's moves), at 'loaded' it can search.
      const shift = m.times.origin - performance.timeOrigin;
      const t = { worker: Math.round(created) };
      for (const [k, v] of Object.entries(m.times)) if (k !== 'origin') t[k] = Math.round(v + shift);
      window.outflankStartup = t;
      if (progress.textContent.startsWith('Loading the engine')) progress.textContent = '';
      return;
    }
    if (m.type === 'failed') {
      failed = m.text;
      for (const p of pending.values()) p.reject(new Error(failed));
      pending.clear();
      return;
    }
    const p = pending.get(m.id);
    if (!p) return;
    if (m.type === 'head') {
      p.headed = true;
      const init = { status: m.status, headers: { 'Content-Type': m.contentType || 'application/json' } };
      // These statuses may not have a body.
      p.resolve(new Response([101, 204, 205, 304].includes(m.status) ? null : p.body, init));
    } else if (m.type === 'chunk') {
      p.ctrl.enqueue(new TextEncoder().encode(m.data));
    } else if (m.type === 'end') {
      p.ctrl.close();
      pending.delete(m.id);
    }
  };

  window.outflankFetch = (path, opts = {}) => new Promise((resolve, reject) => {
    if (failed) {
      reject(new Error(failed));
      return;
    }
    const id = next++;
    const p = { resolve, reject, headed: false };
    p.body = new ReadableStream({ start(c) { p.ctrl = c; } });
    pending.set(id, p);
    const signal = opts.signal;
    if (signal) {
      signal.addEventListener('abort', () => {
        if (!pending.has(id)) return;
        pending.delete(id);
        worker.postMessage({ cancel: id });
        const err = new DOMException('The request was aborted.', 'AbortError');
        if (p.headed) p.ctrl.error(err);
        else reject(err);
      });
    }
    worker.postMessage({ id, method: opts.method || 'GET', path, body: opts.body || '' });
  });

  // Offline after the first visit: the service worker keeps every file.
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('sw.js').catch((e) => console.warn('no offline copy:', e));
  }
})();
