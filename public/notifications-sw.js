// ReplyPilot's service worker: it only shows the pushes the server sends (docs/decisions/068) and opens the
// conversation they name when one is clicked. It caches nothing.
self.addEventListener('push', (event) => {
  let message = { title: 'ReplyPilot', body: '', url: '/notifications' }
  try {
    message = { ...message, ...event.data.json() }
  } catch {
    // A push without a readable body still says something needs you.
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag || undefined,
      data: { url: message.url },
      icon: '/favicon.svg',
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = new URL(event.notification.data?.url || '/notifications', self.location.origin).href
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url.startsWith(self.location.origin))
      if (open) return open.navigate(url).then((client) => (client || open).focus())
      return self.clients.openWindow(url)
    }),
  )
})
