/**
 * One CSV line (RFC 4180, CRLF). A cell that a spreadsheet would read as a formula (=, +, -, @, tab, carriage
 * return first: a customer's message can be anything) starts with an apostrophe, so that it is shown, never run.
 */
export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`
}

function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return ''
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** A stream of the pieces an async iterator gives, read one at a time as the client takes them. */
export function textStream(pieces: AsyncIterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await pieces.next()
      if (done) controller.close()
      else controller.enqueue(encoder.encode(value))
    },
    async cancel() {
      await pieces.return?.()
    },
  })
}
