import nodemailer from 'nodemailer'

/** One email: plain text always, HTML beside it. */
export type Mail = { to: string; subject: string; text: string; html: string; messageId?: string }

/** Sends an email; throws when the server refuses it or cannot be reached. */
export type Mailer = { send(mail: Mail): Promise<void>; close(): void }

/** A mailer over SMTP_URL (nodemailer): smtp:// upgrades with STARTTLS when offered, smtps:// is TLS from the start. */
export function createSmtpMailer({ smtpUrl, from }: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(smtpUrl, { from })
  return {
    async send({ to, subject, text, html, messageId }) {
      await transport.sendMail({ to, subject, text, html, messageId })
    },
    close: () => transport.close(),
  }
}
