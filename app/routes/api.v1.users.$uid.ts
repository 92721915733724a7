import { endpoints } from '~/lib/api/endpoints'
import { getProfile } from '~/services/auth/profile.server'
import { apiRoute, handle } from '~/http/api.server'
import { AppError } from '~/utils/errors'

const route = apiRoute(
  handle(endpoints.getProfile, async ({ caller, params }) => {
    // Another user's uid is answered exactly like an unknown one.
    if (params.uid !== caller.user.firebaseUid) throw new AppError('NOT_FOUND', 'User not found')
    return { data: await getProfile({ db: caller.db, user: caller.user }) }
  }),
)

export const loader = route
export const action = route
