import { describe, expect, it } from 'vitest'
import { savedReplies } from '~/db/schema'
import { MAX_SAVED_REPLIES, SAVED_REPLY_TEXTS } from '~/lib/conversations/saved-replies'
import { withTestDatabase } from '../../../tests/setup/database'
import { newOwnerScope } from '../../../tests/setup/scope'
import {
  createSavedReply,
  deleteSavedReply,
  listSavedReplies,
  updateSavedReply,
} from './saved-replies.server'

const getDb = withTestDatabase()

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal')
    },
    (error: { code: string; message: string }) => ({ code: error.code, message: error.message }),
  )

describe('saved replies', () => {
  it("are the organization's own: added, listed by shortcut, changed and deleted; another's is not found", async () => {
    const ada = await newOwnerScope(getDb())
    const bob = await newOwnerScope(getDb())
    const thanks = await createSavedReply(ada, { shortcut: 'thanks', text: 'Thank you {{first_name}}!' })
    await createSavedReply(ada, { shortcut: 'hours', text: 'We open at nine.' })
    await createSavedReply(bob, { shortcut: 'thanks', text: "Bob's own" })
    expect((await listSavedReplies(ada)).map((r) => r.shortcut)).toEqual(['hours', 'thanks'])

    expect(await updateSavedReply(ada, thanks.id, { shortcut: 'ty', text: 'Thanks!' })).toEqual({
      id: thanks.id,
      shortcut: 'ty',
      text: 'Thanks!',
    })
    const notFound = { code: 'NOT_FOUND', message: SAVED_REPLY_TEXTS.notFound }
    expect(await refusal(updateSavedReply(bob, thanks.id, { shortcut: 'x', text: 'x' }))).toEqual(notFound)
    expect(await refusal(deleteSavedReply(bob, thanks.id))).toEqual(notFound)
    expect(await refusal(deleteSavedReply(ada, 'not-an-id'))).toEqual(notFound)
    expect((await listSavedReplies(bob)).map((r) => r.text)).toEqual(["Bob's own"])

    await deleteSavedReply(ada, thanks.id)
    expect((await listSavedReplies(ada)).map((r) => r.shortcut)).toEqual(['hours'])
  })

  it('refuse a shortcut used twice and more than the limit, and change nothing', async () => {
    const ada = await newOwnerScope(getDb())
    const hours = await createSavedReply(ada, { shortcut: 'hours', text: 'We open at nine.' })
    const other = await createSavedReply(ada, { shortcut: 'other', text: 'Other' })
    const taken = { code: 'VALIDATION_ERROR', message: SAVED_REPLY_TEXTS.shortcutTaken('hours') }
    expect(await refusal(createSavedReply(ada, { shortcut: 'hours', text: 'Again' }))).toEqual(taken)
    expect(await refusal(updateSavedReply(ada, other.id, { shortcut: 'hours', text: 'Again' }))).toEqual(
      taken,
    )
    expect(await listSavedReplies(ada)).toEqual([hours, other])

    await getDb()
      .insert(savedReplies)
      .values(
        Array.from({ length: MAX_SAVED_REPLIES - 2 }, (_, i) => ({
          organizationId: ada.organizationId,
          shortcut: `r${i}`,
          text: 'x',
        })),
      )
    expect(await refusal(createSavedReply(ada, { shortcut: 'one-more', text: 'x' }))).toEqual({
      code: 'VALIDATION_ERROR',
      message: SAVED_REPLY_TEXTS.tooMany,
    })
  })
})
