import { useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Button, Group, Input, Progress, Stack, Text, TextInput } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { Form, Link, useNavigate, useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton } from '~/components/forms/pending-button'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { KNOWLEDGE_FILE_EXTENSIONS, KNOWLEDGE_LIMITS } from '~/lib/knowledge/knowledge'
import { FILE_TOO_LARGE_MESSAGE, KNOWLEDGE_FILE_ACCEPT, knowledgeUploadSchema } from '~/lib/knowledge/forms'
import { ignoreInterruption } from '~/lib/shared/navigation'
import classes from './knowledge.module.css'
import { KNOWLEDGE_PATH, UPLOAD_PATH } from './paths'
import type { SourceFormAnswer } from './source-form'
import { KNOWLEDGE_TEXTS as T } from './texts'

const UPLOAD_FAILED = 'The upload failed. Please try again.'
const NETWORK_ERROR = 'Network error - unable to reach server'

function isAnswer(value: unknown): value is SourceFormAnswer {
  return typeof value === 'object' && value !== null && 'result' in value && 'saved' in value
}

type Upload = { progress: number | null; answer?: SourceFormAnswer; failure?: string }

/**
 * Sends the form itself (once hydrated), so that the dialog can show the upload's progress: a fetcher cannot.
 * The answer is the same as the dialog route's action (UPLOAD_PATH serves it as JSON). Leaving the dialog cancels
 * the upload.
 */
function useUpload() {
  const [upload, setUpload] = useState<Upload>({ progress: null })
  const request = useRef<XMLHttpRequest | null>(null)
  useEffect(() => () => request.current?.abort(), [])

  const send = (formData: FormData) => {
    const xhr = new XMLHttpRequest()
    request.current = xhr
    xhr.open('POST', UPLOAD_PATH)
    xhr.responseType = 'json'
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) {
        setUpload((current) => ({ ...current, progress: Math.round((event.loaded / event.total) * 100) }))
      }
    }
    xhr.onload = () => {
      const body: unknown = xhr.response
      if (isAnswer(body)) setUpload({ progress: null, answer: body })
      // Refused before the body was read (larger than the path takes): the refusal is plain text.
      else if (xhr.status === 413) setUpload({ progress: null, failure: FILE_TOO_LARGE_MESSAGE })
      else setUpload({ progress: null, failure: UPLOAD_FAILED })
    }
    xhr.onerror = () => setUpload({ progress: null, failure: NETWORK_ERROR })
    setUpload({ progress: 0 })
    xhr.send(formData)
  }
  return { ...upload, send }
}

/**
 * Upload file: a .txt, .md, .pdf or .docx file of at most 10 MB, and an optional title. Without JavaScript a plain
 * multipart form posts the page (its action answers with the dialog and its errors, or goes back to the list).
 */
export function UploadForm({ noScriptAnswer }: { noScriptAnswer: SourceFormAnswer | undefined }) {
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const { revalidate } = useRevalidator()
  const upload = useUpload()
  const pending = upload.progress !== null
  const answer = hydrated ? upload.answer : noScriptAnswer

  const [form, fields] = useForm({
    id: 'upload-file',
    lastResult: answer?.result,
    constraint: getZodConstraint(knowledgeUploadSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: knowledgeUploadSchema }),
    onSubmit(event, { formData }) {
      if (!hydrated) return
      event.preventDefault()
      upload.send(formData)
    },
  })

  useEffect(() => {
    if (!hydrated || !upload.answer) return
    const { saved, error } = upload.answer
    if (saved) {
      notifications.show({ color: 'green', message: T.added.file })
      // Not a fetcher's action: the list must be told to reload.
      revalidate()
      ignoreInterruption(navigate(KNOWLEDGE_PATH, { preventScrollReset: true }))
    } else if (error) {
      notifications.show({ color: 'red', message: T.addFailed(error) })
    }
  }, [hydrated, upload.answer, navigate, revalidate])

  // Focus goes to the file field when the server refused the file.
  const fileRef = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (fields.file.errors?.length && !pending) fileRef.current?.focus()
  }, [fields.file.errors, pending])

  const fileError = fields.file.errors?.[0]
  const fileErrorId = `${fields.file.id}-error`
  const fileHelpId = `${fields.file.id}-description`
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      id={form.id}
      onSubmit={form.onSubmit}
      noValidate={hydrated}
      aria-label="Upload file"
      preventScrollReset
    >
      <Stack gap="md">
        <FormError message={form.errors?.[0] ?? upload.failure} />
        {hydrated ? null : <input type="hidden" name="noscript" value="true" />}
        <Input.Wrapper
          label="File"
          required
          labelProps={{ htmlFor: fields.file.id }}
          description={`${KNOWLEDGE_FILE_EXTENSIONS.join(', ')}; at most 10 MB. The type is read from the content.`}
          error={fileError}
          errorProps={{ id: fileErrorId }}
          descriptionProps={{ id: fileHelpId }}
        >
          <input
            ref={fileRef}
            id={fields.file.id}
            name={fields.file.name}
            type="file"
            accept={KNOWLEDGE_FILE_ACCEPT}
            required
            disabled={pending}
            className={classes.fileInput}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? `${fileHelpId} ${fileErrorId}` : fileHelpId}
            data-autofocus
          />
        </Input.Wrapper>
        <TextInput
          key={fields.title.key}
          id={fields.title.id}
          name={fields.title.name}
          defaultValue={typeof fields.title.initialValue === 'string' ? fields.title.initialValue : undefined}
          error={fields.title.errors?.[0]}
          label="Title"
          description="Left empty: the file's name"
          maxLength={KNOWLEDGE_LIMITS.titleLength}
          disabled={pending}
        />
        {pending ? (
          <Stack gap={4}>
            <Text size="sm" id="upload-progress-label">
              Uploading... {upload.progress}%
            </Text>
            <Progress value={upload.progress ?? 0} aria-labelledby="upload-progress-label" animated />
          </Stack>
        ) : null}
        <Group justify="flex-end">
          {pending ? (
            // Leaving the dialog cancels the upload.
            <Button variant="default" component={Link} to={KNOWLEDGE_PATH} preventScrollReset>
              Cancel upload
            </Button>
          ) : (
            <Button variant="default" component={Link} to={KNOWLEDGE_PATH} preventScrollReset>
              Cancel
            </Button>
          )}
          <PendingButton pending={pending} pendingLabel="Uploading...">
            Upload file
          </PendingButton>
        </Group>
      </Stack>
    </Form>
  )
}
