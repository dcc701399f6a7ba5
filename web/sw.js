// The page's service worker (docs/web.md), written by `make web` (tools/build_web.py), which
// fills in the build's cache name and files. At install it caches every file the page needs;
// then it answers every request from that cache (the network only for what is not in it), so
// the page, once opened, starts and plays with no network, from a phone's home screen too.
// The cache is named after a hash of the files: a new build is a new worker with a new cache,
// and when it takes over it deletes the caches of the builds before it.
const CACHE = @CACHE@;
const PREFIX = @PREFIX@;
const FILES = @FILES@;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      // "reload": the files from the server, not from the browser's HTTP cache of an older build
      .then((cache) => cache.addAll(FILES.map((name) => new Request(name, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  // ignoreSearch: index.html?game=aces_up&seed=7 is index.html
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch: true }))
      .then((hit) => hit || fetch(request)),
  );
});
