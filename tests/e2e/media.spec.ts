import type { Page } from '@playwright/test'
import { photo } from '../fakes/photo'
import { sha256Of, voiceNote } from '../fakes/voice-note'
import { botWithAgent, FAKE_TELEGRAM_URL, telegramCalls } from './channel-helpers'
import { expect, test } from './helpers'

test.describe.configure({ timeout: 180_000 }) // sign-up, connect, a voice note answered

// A customer's voice note (issue 37): fetched from the Telegram fake, transcribed by the model fake, answered,
// and played in the inbox with its transcript under it.

const SCREENSHOTS = process.env.E2E_SCREENSHOT_DIR
async function screenshot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true })
}

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.ok).toBe(true)
  return response.json() as Promise<Record<string, unknown>>
}

/** A message from Ann carrying a file (`fields` name it, as Telegram's Message does), to the bot's webhook. */
async function deliverFile(token: string, chatId: number, bytes: Buffer, fields: (fileId: string) => object) {
  const file = await post(`${FAKE_TELEGRAM_URL}/__fake/files`, { token, base64: bytes.toString('base64') })
  const update = {
    update_id: chatId,
    message: {
      message_id: chatId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private', first_name: 'Ann' },
      from: { id: chatId, is_bot: false, first_name: 'Ann' },
      ...fields(String(file.file_id)),
    },
  }
  const delivered = await post(`${FAKE_TELEGRAM_URL}/__fake/deliver`, { token, update })
  expect(delivered.status).toBe(200)
}

/** A voice note the transcription fake knows. */
async function deliverVoiceNote(token: string, chatId: number, said: string) {
  const clip = voiceNote(`e2e-${chatId}`, 2)
  await post(`${process.env.E2E_FAKE_MODEL_URL}/__fake/transcripts`, { sha256: sha256Of(clip), text: said })
  await deliverFile(token, chatId, clip, (file_id) => ({
    voice: { file_id, file_unique_id: `u${chatId}`, duration: 2, mime_type: 'audio/ogg' },
  }))
}

const sentCount = async (token: string) =>
  (await telegramCalls(token)).filter((c) => c.method === 'sendMessage').length

test('a voice note is answered from its transcript, and plays in the inbox with the transcript under it', async ({
  page,
}) => {
  const { bot } = await botWithAgent(page)
  const chatId = 500_000 + Math.floor(Math.random() * 100_000)
  const said = 'Do you deliver on Saturdays?'
  await deliverVoiceNote(bot.token, chatId, said)
  await expect.poll(() => sentCount(bot.token), { timeout: 20_000 }).toBe(1)
  expect((await telegramCalls(bot.token)).find((c) => c.method === 'sendMessage')?.params.text).toBe(
    `Echo: ${said}`,
  )

  await page.goto('/conversations')
  await page.getByRole('link', { name: /Ann/ }).click()
  const messages = page.getByRole('list', { name: 'Messages' })
  const player = messages.getByLabel('Voice note from Ann')
  await expect(player).toBeVisible()
  await expect(messages.getByText('What they said:')).toBeVisible()
  await expect(messages.getByText(said, { exact: true })).toBeVisible()
  // The browser reads the file from the media route (same origin, within the page's policy) and can play it.
  await expect
    .poll(() => player.evaluate((audio: HTMLAudioElement) => Math.round(audio.duration)), { timeout: 10_000 })
    .toBe(2)
  await player.evaluate((audio: HTMLAudioElement) => audio.play())
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime > 0)).toBe(true)
  await screenshot(page, 'conversation-voice-note')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshot(page, 'conversation-voice-note-phone')

  // Served as a sound, never as a page; another conversation's path does not find it.
  const src = await player.getAttribute('src')
  const file = await page.request.get(src ?? '')
  expect(file.status()).toBe(200)
  expect(file.headers()['content-type']).toBe('audio/ogg')
  expect(file.headers()['x-content-type-options']).toBe('nosniff')
  const elsewhere = await page.request.get(
    (src ?? '').replace(/conversations\/[0-9a-f-]{36}/, 'conversations/00000000-0000-4000-8000-000000000000'),
  )
  expect(elsewhere.status()).toBe(404)
})

test('a photo is answered from what it shows, opens larger in the inbox, and a person sends one back', async ({
  page,
}) => {
  const { bot } = await botWithAgent(page)
  const chatId = 600_000 + Math.floor(Math.random() * 100_000)
  const seen = `A red parcel box, its corner crushed ${chatId}.`
  await post(`${process.env.E2E_FAKE_MODEL_URL}/__fake/next`, {
    match: 'A customer sent this photo',
    reply: seen,
  })
  await deliverFile(bot.token, chatId, photo(), (file_id) => ({
    photo: [{ file_id, file_unique_id: `u${chatId}`, width: 96, height: 64 }],
    caption: 'It came like this',
  }))
  await expect.poll(() => sentCount(bot.token), { timeout: 20_000 }).toBe(1)

  await page.goto('/conversations')
  await page.getByRole('link', { name: /Ann/ }).click()
  const messages = page.getByRole('list', { name: 'Messages' })
  await expect(messages.getByText(`It came like this [Photo: ${seen}]`, { exact: true })).toBeVisible()
  const thumbnail = messages.getByRole('button', { name: 'Photo from Ann: show it larger' })
  await expect(thumbnail).toBeVisible()
  await expect
    .poll(() => thumbnail.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(96)
  await thumbnail.click()
  const dialog = page.getByRole('dialog', { name: 'Photo from Ann' })
  await expect(dialog.getByRole('img', { name: 'Photo from Ann' })).toBeVisible()
  await screenshot(page, 'conversation-photo-open')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await screenshot(page, 'conversation-photo')

  // A person sends a picture back: the exact bytes reach Telegram as a photo with the caption, and the transcript
  // shows it like the customer's.
  // Refused by its content, told by the server; over Telegram's photo limit, told before it is sent.
  const attach = page.getByLabel('Attach a picture or a document')
  await attach.setInputFiles({ name: 'anim.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a......') })
  await page.getByRole('button', { name: 'Send' }).click()
  const unsupported = page.getByText('Attach a picture (JPEG or PNG) or a document')
  await expect(unsupported).toBeVisible()
  await page.getByRole('button', { name: 'Remove anim.gif' }).click()
  await expect(unsupported).toBeHidden()
  const huge = Buffer.alloc(11 * 1024 * 1024, 1)
  huge.set([0xff, 0xd8, 0xff])
  await attach.setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: huge })
  await expect(page.getByText('A picture sent on Telegram can be at most 10 MB')).toBeVisible()
  expect((await telegramCalls(bot.token)).filter((c) => /^send(Photo|Document)$/.test(c.method))).toEqual([])

  const sent = photo([30, 160, 90], 80, 48)
  await attach.setInputFiles({
    name: 'replacement.png',
    mimeType: 'image/png',
    buffer: sent,
  })
  await expect(page.getByText('replacement.png')).toBeVisible()
  await page.getByLabel('Your reply').fill('A new box is on its way')
  await screenshot(page, 'composer-attachment')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshot(page, 'composer-attachment-phone')
  await page.getByRole('button', { name: 'Send' }).click()
  const photos = async () => (await telegramCalls(bot.token)).filter((c) => c.method === 'sendPhoto')
  await expect.poll(async () => (await photos()).length).toBe(1)
  expect((await photos())[0].params).toMatchObject({
    caption: 'A new box is on its way',
    photo: { fileName: 'replacement.png', sha256: sha256Of(sent) },
  })
  const mine = messages.getByRole('button', { name: /^Photo from .+: show it larger$/ }).last()
  await expect(mine).not.toHaveAccessibleName('Photo from Ann: show it larger')
  await expect.poll(() => mine.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(80)
  await expect(page.getByText('replacement.png')).toBeHidden()
  await screenshot(page, 'conversation-photo-sent')

  // A body over the reply's 20 MB (and its form's room) is refused before it is read.
  const path = new URL(page.url()).pathname
  const tooLarge = await page.request.post(`${path}/reply`, {
    multipart: {
      clientKey: 'e2e-too-large',
      attachment: { name: 'big.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(22 * 1024 * 1024, 1) },
    },
    headers: { origin: new URL(page.url()).origin },
  })
  expect(tooLarge.status()).toBe(413)
  expect(await tooLarge.text()).toContain('A file can be at most 20 MB')
})
