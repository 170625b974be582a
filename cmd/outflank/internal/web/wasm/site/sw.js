// The browser build's service worker: it keeps every file of the site in
// the cache on the first visit, so that the board and its engine work
// offline after it, and answers from the cache first. A new build (another
// BUILD) caches its files afresh and deletes the old cache.
'use strict';
const CACHE = 'outflank-BUILD';
const FILES = FILES_LIST;

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('outflank-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (e) => {
  if (e.request.method !== 'GET') return;
  e.respondWith(caches.open(CACHE).then((c) => c.match(e.request, { ignoreSearch: true })).then((r) => r || fetch(e.request)));
});
