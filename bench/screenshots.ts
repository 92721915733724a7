#!/usr/bin/env node
/**
 * The README's screenshots: `npm run screenshots` writes docs/images/dashboard.png (the dashboard, `/`) and
 * docs/images/inbox.png (the inbox with a conversation open, `/conversations/<id>`) and docs/images/inbox-contact.png
 * (the same, its customer's details opened), 1280 px wide.
 *
 *  1. A throwaway data directory seeded as bench/lighthouse-dashboard.ts seeds one, smaller (SCREENSHOT_CONVERSATIONS,
 *     300, and about SCREENSHOT_MESSAGES, 5,000, messages over the last 30 days; no other organization), with a
 *     small shop's texts: customers' names, questions about opening hours, delivery, prices and cakes, and the
 *     answers. Then, in SQL, the shop's names: the organization, its owner, 2 agents and 3 channels (Telegram,
 *     WhatsApp, Facebook), healthy; and the analytics rollup's run.
 *  2. The production build (built when missing) served on that directory by bench/lighthouse.js's startServer,
 *     with a session for the owner as its cookie in Debian's headless Chromium (CHROME_PATH to use another).
 *  3. The dashboard once its charts are drawn, from its top to the first chart (taller than 800 px); the inbox
 *     with the most recent conversation of 4 to 7 exchanges, all answered by the AI, open.
 * SCREENSHOT_PHONE_DIR=<dir> also writes the same pages 390 px wide there (a phone; for checking, not the README).
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from '@playwright/test'
import { sql } from 'drizzle-orm'
import { buildAppIfMissing, freePort, OFFLINE_CHROMIUM_FLAGS } from '../scripts/lib/processes.js'
import { type SeedTexts } from './lib/analytics-seed'
import { ownerCookie, withSeededDataDir } from './lib/seeded-data-dir'
import { startServer, waitForHealthy } from './lighthouse.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const OUT_DIR = path.join(ROOT, 'docs/images')
const PHONE_DIR = process.env.SCREENSHOT_PHONE_DIR
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium'
const CONVERSATIONS = Number(process.env.SCREENSHOT_CONVERSATIONS) || 300
const MESSAGES = Number(process.env.SCREENSHOT_MESSAGES) || 5_000
const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

const SHOP = {
  name: 'Linden Street Bakery',
  owner: { name: 'Anna Becker', email: 'anna@lindenbakery.example' },
  agents: ['Shop assistant', 'Orders & delivery'],
  // channel 1, 2, 3 (seeded as Telegram bots)
  channels: [
    { platform: 'telegram', type: 'telegram_bot', metadata: { username: 'linden_bakery_bot' } },
    { platform: 'whatsapp', type: 'whatsapp_number', metadata: { phoneNumber: '+49 30 5550 1414' } },
    { platform: 'facebook', type: 'facebook_page', metadata: { name: 'Linden Street Bakery' } },
  ],
}

/** A conversation reads these pairs in order, from a point drawn from its id. */
const TEXTS: SeedTexts = {
  exchanges: [
    [
      'Hi! What time do you open on Saturdays?',
      "Hi! On Saturdays we're open from 8:00 to 16:00, on Sundays from 9:00 to 13:00. See you soon!",
    ],
    [
      'Do you deliver to Prenzlauer Berg?',
      'Yes, we deliver everywhere inside the Ring. Delivery is free over €25, otherwise it is €3.90.',
    ],
    [
      'How much is a sourdough loaf?',
      'Our classic sourdough is €5.20 and the rye sourdough €5.80. Both come out of the oven at 7:30.',
    ],
    [
      'Can I order a birthday cake for Friday?',
      'Of course! Cakes need 48 hours’ notice. Which flavour would you like, and for how many people?',
    ],
    [
      'Chocolate, for about 12 people',
      'A 24 cm chocolate cake serves 12 and costs €38. Shall I note it down for pickup on Friday?',
    ],
    ['Yes please, around 3 pm', 'Done! Your cake will be ready at the counter on Friday at 15:00.'],
    [
      'Do you have gluten-free bread?',
      'Yes: a gluten-free buckwheat loaf (€6.50) on Tuesdays, Thursdays and Saturdays.',
    ],
    [
      'Is the café dog-friendly?',
      'It is! Dogs are welcome inside, and there is always a water bowl by the door.',
    ],
    [
      "Where exactly are you? I can't find the entrance",
      'We are at Lindenstraße 14: the green door next to the pharmacy.',
    ],
    [
      "My order hasn't arrived yet",
      'Sorry about that! The courier is running about 15 minutes late today; your order is on its way.',
    ],
    ['Can I pay by card?', 'Yes: cards, Apple Pay and Google Pay, and cash of course.'],
    [
      'Do you have vegan croissants?',
      'We do, €2.40 each. They usually sell out by 11, so come early or pre-order here.',
    ],
    [
      'Can I change my delivery address?',
      "Sure, send me the new address and I'll update your order before it leaves the bakery.",
    ],
    [
      'Are you open on public holidays?',
      'On most holidays from 9:00 to 13:00. We are closed on 25 and 26 December and on 1 January.',
    ],
    [
      'Do you do office breakfasts?',
      'Yes! The breakfast platter for 10 is €65 with pastries, fruit and coffee. Order by 14:00 the day before.',
    ],
    ['Thanks so much!', 'You’re welcome! Have a lovely day.'],
    [
      'Can I pick it up instead of delivery?',
      'Of course, pickup is free. Your order will be ready at the counter at the time you choose.',
    ],
    [
      'How long does the bread stay fresh?',
      'Sourdough keeps 3 to 4 days wrapped in a cloth. You can also slice it and freeze it.',
    ],
    [
      'Anything nut-free for a school party?',
      'Our butter cookies and plain muffins are made without nuts. A tray of 24 is €28.',
    ],
    [
      'Is there parking nearby?',
      'There is street parking on Lindenstraße and a car park two minutes away on Marktplatz.',
    ],
    ["What's today's soup?", 'Roasted tomato with basil: €5.50 a bowl, with a slice of bread.'],
  ],
  firstNames: (
    'Emma Lukas Sofia Jonas Mia Noah Hannah Elias Lea Ben Amira Paul Clara ' +
    'Mateo Lina Felix Aylin David Marta Jakob Chloé Oskar Yuki Leon Zoe Omar'
  ).split(' '),
  lastNames: (
    'Schmidt Müller Weber Novak Rossi Kowalski Fischer Yilmaz Meyer Garcia ' +
    'Hoffmann Nguyen Wagner Dubois Schulz Jensen Koch Popescu Richter Silva'
  ).split(' '),
}

type Seeded = { cookie: string; conversationId: string }

/** Seeds the data directory's database; answers the owner's session cookie and the conversation to open. */
async function seed(dataDir: string, sessionSecret: string): Promise<Seeded> {
  const sizes = {
    conversations: CONVERSATIONS,
    messages: MESSAGES,
    otherOrganizations: 0,
    timeZone: 'Europe/Berlin',
    agents: SHOP.agents.length,
    channels: SHOP.channels.length,
    texts: TEXTS,
  }
  return withSeededDataDir(dataDir, sizes, async ({ handle, pglite, org }) => {
    const { db } = handle
    await db.execute(sql`update organizations set name = ${SHOP.name} where id = ${org.id}`)
    await db.execute(
      sql`update users set display_name = ${SHOP.owner.name}, email = ${SHOP.owner.email} where id = ${org.userId}`,
    )
    for (const [i, id] of org.agentIds.entries()) {
      await db.execute(sql`update agents set name = ${SHOP.agents[i]} where id = ${id}`)
    }
    // Connected and working channels, as a running shop's are: no health banner.
    for (const [i, id] of org.channelIds.entries()) {
      const { platform, type, metadata } = SHOP.channels[i]
      await db.execute(
        sql`update channels set platform_name = ${platform}, channel_type = ${type},
              metadata = ${JSON.stringify(metadata)}::jsonb, webhook_subscribed = true,
              health_checked_at = now(), health_problem = null
            where id = ${id}`,
      )
    }
    // Chat ids as the platforms give them, rather than the seed's chat-<org>-<n>.
    await db.execute(
      sql`update conversations c set platform_chat_id = case ch.platform_name
            when 'whatsapp' then (491510000000 + n.n * 7919)::text
            when 'facebook' then (7100000000000000 + n.n * 7919)::text
            else (5200000000 + n.n * 7919)::text end
          from channels ch, (select id, row_number() over (order by id) as n from conversations) n
          where ch.id = c.channel_id and n.id = c.id and c.organization_id = ${org.id}`,
    )
    // Recent, a few exchanges long, every message answered by the AI: a conversation as the product means it.
    const conversation = await pglite.query<{ id: string }>(
      `select c.id from conversations c
       where c.organization_id = $1
         and (select count(*) from messages m where m.conversation_id = c.id) between 8 and 14
         and not exists (select 1 from messages m where m.conversation_id = c.id
           and (m.status <> 'replied' and m.direction = 'inbound' or m.author_user_id is not null))
       -- Telegram's: its customer has a username, and no 24-hour window closes replies in the shot.
       order by (select ch.platform_name = 'telegram' from channels ch where ch.id = c.channel_id) desc,
         c.last_message_at desc limit 1`,
      [org.id],
    )
    const conversationId = conversation.rows[0]?.id
    if (!conversationId) throw new Error('No conversation fits the inbox screenshot; seed more')
    // Moved forward in time (its messages and runs with it) to be the latest: the top of the (open) list, selected.
    const shift = `((select max(last_message_at) from conversations where organization_id = $1::uuid)
      - (select last_message_at from conversations where id = $2::uuid) + interval '3 minutes')`
    await pglite.query(
      `update messages set created_at = created_at + ${shift}, received_at = received_at + ${shift},
         platform_sent_at = platform_sent_at + ${shift}
       where conversation_id = $2::uuid`,
      [org.id, conversationId],
    )
    await pglite.query(
      `update agent_runs set created_at = created_at + ${shift} where context->>'conversationId' = $2::uuid::text`,
      [org.id, conversationId],
    )
    await pglite.query(
      `update conversations set created_at = created_at + ${shift}, last_message_at = last_message_at + ${shift},
         last_inbound_at = last_inbound_at + ${shift}, status = 'open', resolved_at = null
       where id = $2::uuid`,
      [org.id, conversationId],
    )
    // What the contact panel shows of its customer: the handle and language Telegram gives, the team's notes.
    await pglite.query(
      `update conversations c set customer_language = 'de', created_at = c.created_at - interval '41 days',
         customer_handle = case when ch.platform_name = 'telegram'
           then '@' || lower(replace(c.customer_name, ' ', '_')) end,
         customer_notes = 'Regular: a rye sourdough every Saturday. Prefers pickup; allergic to walnuts.'
       from channels ch where ch.id = c.channel_id and c.id = $1::uuid`,
      [conversationId],
    )
    await pglite.query(
      `insert into conversation_labels (organization_id, conversation_id, label)
       values ($1::uuid, $2::uuid, 'regular'), ($1::uuid, $2::uuid, 'pickup') on conflict do nothing`,
      [org.id, conversationId],
    )
    // The bakery keeps its conversations open (no AI resolution while the shots are taken), and its owner has read
    // all but the two latest others (their unread marks).
    await pglite.query(`update organizations set auto_resolve_hours = 0 where id = $1::uuid`, [org.id])
    await pglite.query(
      `insert into conversation_reads (conversation_id, user_id)
       select id, $2::uuid from conversations where organization_id = $1::uuid and id not in (
         select id from conversations where organization_id = $1::uuid and id <> $3::uuid
         order by last_message_at desc limit 2)`,
      [org.id, org.userId, conversationId],
    )
    return { cookie: await ownerCookie(db, org.userId, sessionSecret), conversationId }
  })
}

/** The dashboard once its figures and charts are there (and the charts' entry animation is over). */
async function dashboard(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/`)
  if (new URL(page.url()).pathname !== '/') throw new Error(`The dashboard sent the browser to ${page.url()}`)
  await page.waitForLoadState('networkidle')
  // Each chart is drawn when it comes near the viewport: scroll past them all, and wait for them.
  const charts = page.locator('[data-chart]')
  for (const chart of await charts.all()) {
    await chart.scrollIntoViewIfNeeded()
    await chart.locator('svg.recharts-surface').first().waitFor()
  }
  await page.waitForTimeout(1_000)
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.waitForTimeout(500)
  // The page from its top to the first chart (messages by outcome): taller than the window on a desktop.
  return page.evaluate(() => {
    const panel = document.querySelector('[data-chart]')?.closest('section')
    return Math.max(window.innerHeight, Math.ceil((panel?.getBoundingClientRect().bottom ?? 0) + 16))
  })
}

/** The inbox with the conversation open: the list beside it, its row selected. */
async function inbox(page: Page, baseUrl: string, conversationId: string) {
  await page.goto(`${baseUrl}/conversations/${conversationId}`)
  // The inbox keeps an event stream open: no network idle; wait for the list and the conversation instead.
  await page.locator(`a[href^="/conversations/${conversationId}"]`).first().waitFor({ state: 'attached' })
  await page.waitForLoadState('load')
  await page.waitForTimeout(1_000)
}

async function shoot(page: Page, file: string, height?: number) {
  // A window as tall as the part shown, so that the sidebar reaches its bottom; the window's own size after.
  const viewport = page.viewportSize() ?? DESKTOP
  if (height) await page.setViewportSize({ width: viewport.width, height })
  await page.screenshot({ path: file, type: 'png' })
  if (height) await page.setViewportSize(viewport)
  console.log(`${path.relative(ROOT, file)}: ${Math.round(statSync(file).size / 1024)} kB`)
}

async function screenshots(browser: Browser, baseUrl: string, { cookie, conversationId }: Seeded) {
  const separator = cookie.indexOf('=')
  const cookies = [{ name: cookie.slice(0, separator), value: cookie.slice(separator + 1), url: baseUrl }]
  const sizes: [string, typeof DESKTOP, string][] = [['desktop', DESKTOP, OUT_DIR]]
  if (PHONE_DIR) sizes.push(['phone', PHONE, PHONE_DIR])
  for (const [kind, viewport, dir] of sizes) {
    mkdirSync(dir, { recursive: true })
    const context = await browser.newContext({
      viewport,
      deviceScaleFactor: 1,
      isMobile: kind === 'phone',
      hasTouch: kind === 'phone',
      locale: 'en-GB',
      timezoneId: 'Europe/Berlin',
      reducedMotion: 'reduce',
    })
    await context.addCookies(cookies)
    const page = await context.newPage()
    const height = await dashboard(page, baseUrl)
    await shoot(page, path.join(dir, 'dashboard.png'), kind === 'phone' ? undefined : height)
    if (kind === 'phone') {
      await page.goto(`${baseUrl}/conversations`)
      await page.locator(`a[href^="/conversations/${conversationId}"]`).first().waitFor()
      await page.waitForTimeout(1_000)
      await shoot(page, path.join(dir, 'inbox-list.png'))
    }
    await inbox(page, baseUrl, conversationId)
    await shoot(page, path.join(dir, 'inbox.png'))
    // The customer beside the chat, opened.
    await page.locator('details summary').first().click()
    await page.waitForTimeout(300)
    await shoot(page, path.join(dir, 'inbox-contact.png'))
    await context.close()
  }
}

async function main() {
  buildAppIfMissing()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'replypilot-screenshots-'))
  // The server startServer starts has the environment of this process.
  process.env.SESSION_SECRET = randomBytes(32).toString('hex')
  process.env.ENCRYPTION_KEY = randomBytes(32).toString('hex')
  // The seeded owner has no Firebase account: an Auth emulator that answers (the embedded default, 127.0.0.1:9099,
  // when one runs there) says the account is gone and the session is deleted. On a port where none answers the
  // session is kept, as it is when the provider is unreachable.
  process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${await freePort()}`
  let server: ReturnType<typeof startServer> | undefined
  let browser: Browser | undefined
  try {
    const seeded = await seed(dataDir, process.env.SESSION_SECRET)
    const port = await freePort()
    const baseUrl = `http://localhost:${port}`
    server = startServer(port, dataDir)
    await waitForHealthy(baseUrl, server)
    browser = await chromium.launch({
      executablePath: CHROME_PATH,
      args: ['--headless', ...OFFLINE_CHROMIUM_FLAGS],
    })
    await screenshots(browser, baseUrl, seeded)
    return 0
  } finally {
    await browser?.close()
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 })
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  },
)
