import { AppError } from '~/utils/errors'

export const isMultipart = (request: Request) =>
  /^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')

/**
 * A multipart/form-data body (an upload); a body that is not multipart is read as a plain form. A part larger than
 * `maxPartBytes` is refused with `tooLarge` (413). The body is parsed whole by the platform's own parser: the HTTP
 * entry has already read it, and refused one much larger than that (REQUEST_BODY_LIMITS). Remix's streaming parser
 * (@web3-storage/multipart-parser) was dropped: it split the Content-Disposition header on every `;` and `=`, so a
 * file named `a=b.txt` or `a;b.txt` was refused as unreadable (issue 31).
 */
export async function readUploadForm(
  request: Request,
  { maxPartBytes, tooLarge }: { maxPartBytes: number; tooLarge: string },
): Promise<FormData> {
  let form: FormData
  try {
    form = await request.formData()
  } catch (error) {
    if (request.signal.aborted) throw error
    throw new AppError('VALIDATION_ERROR', 'The upload could not be read as multipart/form-data')
  }
  for (const value of form.values()) {
    const size = typeof value === 'string' ? Buffer.byteLength(value) : value.size
    if (size > maxPartBytes) throw new AppError('PAYLOAD_TOO_LARGE', tooLarge)
  }
  return form
}
