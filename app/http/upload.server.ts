import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from '@remix-run/node'
import { AppError } from '~/utils/errors'

export const isMultipart = (request: Request) =>
  /^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')

/**
 * A multipart/form-data body (an upload), each part kept in memory up to `maxPartBytes`: reading stops at the
 * first byte past it, and the upload is refused with `tooLarge` (413). The HTTP entry has already refused a whole
 * body much larger than that (REQUEST_BODY_LIMITS). A body that is not multipart is read as a plain form.
 */
export async function readUploadForm(
  request: Request,
  { maxPartBytes, tooLarge }: { maxPartBytes: number; tooLarge: string },
): Promise<FormData> {
  try {
    return await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: maxPartBytes }),
    )
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) throw new AppError('PAYLOAD_TOO_LARGE', tooLarge)
    if (request.signal.aborted) throw error
    throw new AppError('VALIDATION_ERROR', 'The upload could not be read as multipart/form-data')
  }
}
