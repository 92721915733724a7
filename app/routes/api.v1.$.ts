import { apiFailure } from '~/http/api.server'
import { AppError } from '~/utils/errors'

/** Unknown API paths answer in the API's envelope, not with the sign-in page. */
const notFound = () => apiFailure(new AppError('NOT_FOUND', 'Not found'))

export const loader = notFound
export const action = notFound
