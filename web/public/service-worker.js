/**
 * Atende's service worker (docs/product/push.md#the-service-worker), served at /service-worker.js, never cached.
 * - `push`: shows the notification the server sent ({kind, title, body, tag, url}); one `tag` per ticket, chat or
 *   announcement, so a newer push replaces the older one instead of stacking. Every push shows a notification (the
 *   server sends none while a tab of the user is visible), as browsers require of a push subscription.
 * - `notificationclick`: focuses a tab of the product and opens the notification's page there, or opens a new window.
 */
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let p = null;
  try {
    p = event.data ? event.data.json() : null;
  } catch {
    p = null;
  }
  if (!p || typeof p.title !== "string") p = { title: "Atende", body: "", tag: "atende", url: "/" };
  event.waitUntil(
    self.registration.showNotification(p.title, {
      body: typeof p.body === "string" ? p.body : "",
      tag: typeof p.tag === "string" ? p.tag : "atende",
      renotify: true,
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      data: { url: typeof p.url === "string" && p.url.startsWith("/") ? p.url : "/", kind: p.kind },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const tab = tabs.find((c) => new URL(c.url).origin === self.location.origin);
      if (tab) {
        await tab.focus();
        if ("navigate" in tab) return tab.navigate(url);
        return undefined;
      }
      return self.clients.openWindow(url);
    })(),
  );
});
