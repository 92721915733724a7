import { parseWithZod } from '@conform-to/zod/v4'
import type { SubmissionResult } from '@conform-to/react'
import { replyRefused } from '~/lib/shared/form-reply'
import { KNOWLEDGE_LIMITS } from '~/lib/knowledge/knowledge'
import {
  FILE_TOO_LARGE_MESSAGE,
  knowledgeChangesOf,
  knowledgeCreateSchemas,
  knowledgeEditSchema,
  knowledgeUploadSchema,
  type KnowledgeFieldKind,
} from '~/lib/knowledge/forms'
import { createKnowledgeSource, updateKnowledgeSource } from '~/services/knowledge/sources.server'
import { ERROR_STATUS, isAppError } from '~/utils/errors'
import { knowledgeDeps } from './knowledge.server'
import { attemptInScope, getCurrentScope } from './organization.server'
import { readUploadForm } from './upload.server'

// The Knowledge page's dialogs (docs/decisions/045): each parses its form with the schema its Conform form
// validates with, calls the sources service in the session's organization and answers
// `{ result, saved, error }` — the form's result, the saved source, or why it was not saved. `noscript`: the form
// was posted without JavaScript, and a success goes back to the list.

const FAILED = ERROR_STATUS.SERVER_ERROR.message

/** What a dialog's action answers (with its HTTP status): `noscript` says the list is where a success goes. */
export type SourceAnswer = {
  result: SubmissionResult<string[]>
  saved: { id: string; title: string } | null
  error: string | null
  noscript: boolean
}

const answer = (body: SourceAnswer, status = 200) => ({ status, body })

/** Add FAQ / Add text / Add web page. */
export async function addSourceFromForm(request: Request, kind: KnowledgeFieldKind) {
  const scope = await getCurrentScope(request)
  const formData = await request.formData()
  const noscript = formData.has('noscript')
  const submission = parseWithZod(formData, { schema: knowledgeCreateSchemas[kind] })
  if (submission.status !== 'success') {
    return answer({ result: submission.reply(), saved: null, error: null, noscript }, 400)
  }
  const deps = await knowledgeDeps()
  const outcome = await attemptInScope(
    scope,
    (s) => createKnowledgeSource(s, submission.value, deps),
    FAILED,
    {
      action: 'add knowledge',
      kind,
    },
  )
  if (!outcome.ok) {
    const { status, reason } = outcome.failure
    return answer(
      { result: replyRefused(submission, outcome.failure, reason), saved: null, error: reason, noscript },
      status,
    )
  }
  const saved = { id: outcome.value.id, title: outcome.value.title }
  return answer({ result: submission.reply({ resetForm: true }), saved, error: null, noscript })
}

/** The edit dialog: the fields of the source's kind (a hidden `kind` field says which). */
export async function editSourceFromForm(request: Request, sourceId: string) {
  const scope = await getCurrentScope(request)
  const formData = await request.formData()
  const noscript = formData.has('noscript')
  const submission = parseWithZod(formData, { schema: knowledgeEditSchema })
  if (submission.status !== 'success') {
    return answer({ result: submission.reply(), saved: null, error: null, noscript }, 400)
  }
  const deps = await knowledgeDeps()
  const outcome = await attemptInScope(
    scope,
    (s) => updateKnowledgeSource(s, sourceId, knowledgeChangesOf(submission.value), deps),
    FAILED,
    { action: 'edit knowledge', sourceId },
  )
  if (!outcome.ok) {
    const { status, reason } = outcome.failure
    return answer(
      { result: replyRefused(submission, outcome.failure, reason), saved: null, error: reason, noscript },
      status,
    )
  }
  const saved = { id: outcome.value.id, title: outcome.value.title }
  return answer({ result: submission.reply(), saved, error: null, noscript })
}

/** The file is never sent back in a reply (it could not be, and should not be). */
const hideFields = ['file']

/**
 * Upload file: a multipart/form-data body whose file part is read no further than 10 MB. Serves the dialog's
 * form without JavaScript and the upload the dialog sends itself (with its progress) once hydrated.
 */
export async function uploadSourceFromForm(request: Request) {
  const scope = await getCurrentScope(request)
  let formData: FormData
  try {
    formData = await readUploadForm(request, {
      maxPartBytes: KNOWLEDGE_LIMITS.fileBytes,
      tooLarge: FILE_TOO_LARGE_MESSAGE,
    })
  } catch (error) {
    if (!isAppError(error)) throw error
    // The body was not read to its end: only the refusal can be answered, on the file's field.
    const status = ERROR_STATUS[error.code].status
    const result = { status: 'error' as const, error: { file: [error.message] } }
    return answer({ result, saved: null, error: error.message, noscript: false }, status)
  }
  const noscript = formData.has('noscript')
  const submission = parseWithZod(formData, { schema: knowledgeUploadSchema })
  if (submission.status !== 'success') {
    return answer({ result: submission.reply({ hideFields }), saved: null, error: null, noscript }, 400)
  }
  const { file, title } = submission.value
  const input = {
    kind: 'file' as const,
    file: { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) },
    title: title || undefined,
  }
  const deps = await knowledgeDeps()
  const outcome = await attemptInScope(scope, (s) => createKnowledgeSource(s, input, deps), FAILED, {
    action: 'upload knowledge',
  })
  if (!outcome.ok) {
    const { status, reason } = outcome.failure
    const result = replyRefused(submission, outcome.failure, reason, hideFields)
    return answer({ result, saved: null, error: reason, noscript }, status)
  }
  const saved = { id: outcome.value.id, title: outcome.value.title }
  return answer({ result: submission.reply({ resetForm: true, hideFields }), saved, error: null, noscript })
}
