import { createServer, type Server } from 'node:http'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/**
 * A local SMTP server (smtp-server) that accepts any user and password over plain SMTP on 127.0.0.1 and parses
 * each mail it accepts (mailparser). `url` is what SMTP_URL takes. `refuseNext(n)` answers the next n mails with
 * a 451 (a temporary refusal), `onAccepted` runs once a mail's data is in, before the 250 (a test kills the
 * sender there). With `controlPort`, another process (the end-to-end tests) reads the mails as JSON at
 * GET http://127.0.0.1:<controlPort>/__fake/mails.
 */

export type ReceivedMail = {
  from: string
  to: string[]
  subject: string
  text: string
  html: string
  messageId: string
}

export type SmtpFake = {
  url: string
  port: number
  mails: ReceivedMail[]
  /** Resolves once `count` mails have been accepted in all, or rejects after `timeoutMs`. */
  waitForMails(count: number, timeoutMs?: number): Promise<ReceivedMail[]>
  refuseNext(count: number): void
  onAccepted?: (mail: ReceivedMail) => void | Promise<void>
  close(): Promise<void>
}

export async function startSmtpFake({
  port = 0,
  controlPort,
}: { port?: number; controlPort?: number } = {}): Promise<SmtpFake> {
  const mails: ReceivedMail[] = []
  const waiters: Array<() => void> = []
  let refusals = 0
  const fake: SmtpFake = {
    url: '',
    port: 0,
    mails,
    refuseNext(count) {
      refusals = count
    },
    waitForMails(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (mails.length < count) return false
          clearTimeout(timer)
          resolve(mails.slice(0, count))
          return true
        }
        const timer = setTimeout(
          () => reject(new Error(`waited ${timeoutMs} ms for ${count} mails, got ${mails.length}`)),
          timeoutMs,
        )
        const wake = () => {
          if (!check()) waiters.push(wake)
        }
        wake()
      })
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await new Promise<void>((resolve) => (control ? control.close(() => resolve()) : resolve()))
    },
  }
  let control: Server | undefined
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'test' })
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          if (refusals > 0) {
            refusals--
            const error = Object.assign(new Error('Try again later'), { responseCode: 451 })
            return callback(error)
          }
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            messageId: parsed.messageId ?? '',
          }
          mails.push(mail)
          await fake.onAccepted?.(mail)
          for (const wake of waiters.splice(0)) wake()
          callback()
        })
        .catch((error: Error) => callback(error))
    },
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
  const address = server.server.address()
  fake.port = typeof address === 'object' && address ? address.port : port
  fake.url = `smtp://user:pass@127.0.0.1:${fake.port}`
  if (controlPort !== undefined) {
    control = createServer((request, response) => {
      const ok = request.method === 'GET' && request.url === '/__fake/mails'
      response.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' })
      response.end(ok ? JSON.stringify(mails) : '{}')
    })
    await new Promise<void>((resolve) => control?.listen(controlPort, '127.0.0.1', () => resolve()))
  }
  return fake
}
