import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'

/**
 * pdf.js, run on a worker thread. In Node pdf.js has no worker of its own: its "fake worker" parses on the calling
 * thread, in stretches of a few hundred milliseconds between awaits. On the job worker that delayed every reply
 * job of the process while a long PDF was read, and on the embedded default (where the web process is the worker)
 * every page load: a request's queries each waited for a stretch (docs/decisions/048). On a thread of its own the
 * parsing delays nothing, and it has limits of its own: a PDF that takes longer than `timeoutMs`, or more memory than
 * `memoryMb`, is stopped and refused instead of holding the process.
 *
 * The thread's code is the module below, loaded from a `data:` URL: it needs no file of its own beside the server
 * build, and imports pdf.js by the absolute address resolved here. It returns the raw text items; what they mean
 * (lines, paragraphs) is decided by the caller.
 */

/** A text item as the caller needs it: its string, whether a line ends after it, its baseline and its height. */
export type PdfItem = { str: string; hasEOL: boolean; y: number; height: number }

export type PdfReadResult =
  | { ok: true; pages: PdfItem[][]; title?: string }
  | { ok: false; reason: 'encrypted' | 'unreadable' | 'too-slow' | 'too-large' }

export type PdfReadLimits = { timeoutMs: number; memoryMb: number }

/**
 * An 8,000-page PDF of 6.8 MB (the upload limit is 10 MB) reads in 33 s with 512 MB on a 2-vCPU machine, 44 s with
 * 256 MB; a 1,500-page one needs more than 64 MB. The knowledge job expires after ten minutes.
 */
export const PDF_READ_LIMITS: PdfReadLimits = { timeoutMs: 5 * 60_000, memoryMb: 1024 }

const THREAD_SOURCE = `
import { parentPort, workerData } from 'node:worker_threads'
const pdfjs = await import(workerData.pdfjs)
const task = pdfjs.getDocument({
  data: workerData.bytes,
  isEvalSupported: false,
  enableXfa: false,
  disableFontFace: true,
  useSystemFonts: false,
  useWorkerFetch: false,
  stopAtErrors: false,
  verbosity: pdfjs.VerbosityLevel.ERRORS,
})
try {
  const document = await task.promise
  const pages = []
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number)
    const content = await page.getTextContent()
    pages.push(content.items.filter((item) => 'str' in item).map((item) => ({
      str: item.str,
      hasEOL: item.hasEOL,
      y: item.transform[5],
      height: Math.abs(item.height || item.transform[3] || 0),
    })))
    page.cleanup()
  }
  const info = await document.getMetadata().catch(() => undefined)
  const title = info?.info && typeof info.info.Title === 'string' ? info.info.Title : undefined
  parentPort.postMessage({ ok: true, pages, title })
} catch (error) {
  parentPort.postMessage({ ok: false, reason: error?.name === 'PasswordException' ? 'encrypted' : 'unreadable' })
} finally {
  await task.destroy().catch(() => undefined)
}
`
const THREAD_URL = new URL(`data:text/javascript,${encodeURIComponent(THREAD_SOURCE)}`)

let pdfjsAddress: string | undefined
function pdfjsUrl() {
  pdfjsAddress ??= pathToFileURL(
    createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs'),
  ).href
  return pdfjsAddress
}

/**
 * Reads a PDF's text items, page by page, on a thread of its own. What is wrong with the PDF (damaged, protected,
 * too slow, too large) is a reason; what is wrong with us (the thread cannot start or load pdf.js) is thrown, for
 * the job to log and retry. `pdfjs` is the module's address (the tests give a wrong one).
 */
export function readPdf(
  bytes: Uint8Array,
  limits: PdfReadLimits = PDF_READ_LIMITS,
  pdfjs = pdfjsUrl(),
): Promise<PdfReadResult> {
  // pdf.js takes the buffer over: the thread gets a copy, not the caller's bytes.
  const copy = new Uint8Array(bytes)
  return new Promise((resolve, reject) => {
    let settled = false
    const worker = new Worker(THREAD_URL, {
      workerData: { pdfjs, bytes: copy },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
    })
    const finish = (settle: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      settle()
      void worker.terminate()
    }
    const timer = setTimeout(() => finish(() => resolve({ ok: false, reason: 'too-slow' })), limits.timeoutMs)
    worker.on('message', (result: PdfReadResult) => finish(() => resolve(result)))
    worker.on('error', (error: Error & { code?: string }) =>
      finish(() =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? resolve({ ok: false, reason: 'too-large' })
          : reject(new Error('The PDF reader failed', { cause: error })),
      ),
    )
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`The PDF reader stopped with code ${code} before it answered`))),
    )
  })
}
