import { useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Button, Checkbox, Group, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { Link, useNavigate } from '@remix-run/react'
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { FormError } from '~/components/auth/form-error'
import { fieldProps } from '~/components/forms/field-props'
import { PendingButton } from '~/components/forms/pending-button'
import type { DialogSubmission } from '~/components/hooks/use-dialog-fetcher'
import { KNOWLEDGE_LIMITS, type KnowledgeSourceKind } from '~/lib/knowledge/knowledge'
import { knowledgeEditSchemas, type KnowledgeEdit } from '~/lib/knowledge/forms'
import { ignoreInterruption } from '~/lib/shared/navigation'
import { KNOWLEDGE_PATH, NEW_SOURCE_PATHS } from './paths'
import { KNOWLEDGE_TEXTS as T } from './texts'
import type { KnowledgeDetail } from './types'

/** What the add and edit actions answer: the form's result, the saved source, or why it was not saved. */
export type SourceFormAnswer = {
  result: SubmissionResult<string[]>
  saved: { id: string; title: string } | null
  error: string | null
}

/** Every field of every kind's form, by name (what Conform needs to name them; the schemas check the values). */
type SourceFields = {
  kind: string
  question: string
  answer: string
  title: string
  text: string
  url: string
  crawl: boolean
  maxPages: number
}

const SUBMIT_LABELS: Record<KnowledgeSourceKind, string> = {
  faq: 'Add FAQ',
  text: 'Add text',
  file: 'Upload file',
  url: 'Add web page',
}

/** The values the form starts with: the source's (editing), or a new FAQ's question from "Try a question". */
function defaultsOf(kind: KnowledgeSourceKind, source?: KnowledgeDetail, question?: string) {
  if (!source) return { kind, question, crawl: false, maxPages: 10 }
  return {
    kind,
    question: source.question ?? undefined,
    answer: kind === 'faq' ? (source.body ?? undefined) : undefined,
    title: source.title,
    text: kind === 'text' ? (source.body ?? undefined) : undefined,
    url: source.url ?? undefined,
    crawl: source.crawl,
    maxPages: source.crawl ? source.maxPages : 10,
  }
}

/**
 * Add FAQ / Add text / Add web page, and the edit form of any kind of source (a file: its title). The same
 * component serves the dialog (a fetcher's Form) and the page section shown without JavaScript (a plain Form that
 * posts the page). Validated here and again by the action, with the same schema.
 */
export function SourceForm({
  kind,
  source,
  question,
  submission,
}: {
  kind: KnowledgeSourceKind
  /** The source being edited; none: a new one. */
  source?: KnowledgeDetail
  question?: string
  submission: DialogSubmission<SourceFormAnswer>
}) {
  const navigate = useNavigate()
  const formRef = useRef<HTMLFormElement>(null)
  const { hydrated, FormComponent, response, settled: done, pending } = submission
  const editing = source !== undefined
  const schema = knowledgeEditSchemas[kind]

  const [form, fields] = useForm<SourceFields, KnowledgeEdit>({
    id: editing ? `edit-source-${source.id}` : `add-${kind}`,
    lastResult: response?.result,
    defaultValue: defaultsOf(kind, source, question),
    constraint: getZodConstraint(schema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const [crawl, setCrawl] = useState(
    () =>
      fields.crawl.initialValue === 'on' ||
      (fields.crawl.initialValue === undefined && Boolean(source?.crawl)),
  )

  useEffect(() => {
    if (!done) return
    if (done.saved) {
      notifications.show({ color: 'green', message: editing ? T.updated : T.added[kind] })
      ignoreInterruption(navigate(KNOWLEDGE_PATH, { preventScrollReset: true }))
    } else if (done.error) {
      notifications.show({
        color: 'red',
        message: editing ? T.updateFailed(done.error) : T.addFailed(done.error),
      })
    }
  }, [done, editing, kind, navigate])

  // A refused form puts the focus on its first field with an error (the dialog keeps it inside).
  const [focusError, setFocusError] = useState(false)
  const [seenResult, setSeenResult] = useState(response?.result)
  if (response?.result !== seenResult) {
    setSeenResult(response?.result)
    if (response?.result?.error) setFocusError(true)
  }
  useEffect(() => {
    if (!focusError || pending) return
    const frame = requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
      setFocusError(false)
    })
    return () => cancelAnimationFrame(frame)
  }, [focusError, pending])
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (parseWithZod(new FormData(event.currentTarget), { schema }).status === 'error') setFocusError(true)
    form.onSubmit(event)
  }

  const input = (field: Parameters<typeof fieldProps>[0]) => ({ ...fieldProps(field), disabled: pending })

  const kindFields = {
    faq: (
      <>
        <Textarea
          key={fields.question.key}
          {...input(fields.question)}
          label="Question"
          description="As a customer would ask it"
          placeholder="Do you ship to Austria?"
          required
          autosize
          minRows={1}
          maxRows={4}
          maxLength={KNOWLEDGE_LIMITS.questionLength}
          data-autofocus
        />
        <Textarea
          key={fields.answer.key}
          {...input(fields.answer)}
          label="Answer"
          placeholder="Yes, we ship to Austria within three working days."
          required
          autosize
          minRows={4}
          maxRows={12}
          maxLength={KNOWLEDGE_LIMITS.answerLength}
        />
      </>
    ),
    text: (
      <>
        <TextInput
          key={fields.title.key}
          {...input(fields.title)}
          label="Title"
          placeholder="Returns policy"
          required
          maxLength={KNOWLEDGE_LIMITS.titleLength}
          data-autofocus
        />
        <Textarea
          key={fields.text.key}
          {...input(fields.text)}
          label="Text"
          description="Plain text; headings in Markdown (# Heading) keep their passages together"
          required
          autosize
          minRows={8}
          maxRows={18}
          maxLength={KNOWLEDGE_LIMITS.textLength}
        />
      </>
    ),
    file: (
      <>
        <TextInput
          key={fields.title.key}
          {...input(fields.title)}
          label="Title"
          required
          maxLength={KNOWLEDGE_LIMITS.titleLength}
          data-autofocus
        />
        <Text size="sm" c="gray.7">
          {source?.fileName ? `File: ${source.fileName}. ` : ''}To replace the file,{' '}
          <Link to={NEW_SOURCE_PATHS.file} preventScrollReset>
            upload the new one
          </Link>{' '}
          and delete this source.
        </Text>
      </>
    ),
    url: (
      <>
        <TextInput
          key={fields.url.key}
          {...input(fields.url)}
          type="url"
          label="URL"
          placeholder="https://www.example.com/help"
          required
          maxLength={KNOWLEDGE_LIMITS.urlLength}
          data-autofocus
        />
        <Checkbox
          key={fields.crawl.key}
          id={fields.crawl.id}
          name={fields.crawl.name}
          label="Also read the pages it links to on the same site"
          checked={crawl}
          onChange={(event) => setCrawl(event.currentTarget.checked)}
          disabled={pending}
        />
        <NumberInput
          key={fields.maxPages.key}
          {...input(fields.maxPages)}
          label="Page limit"
          description={`From 1 to ${KNOWLEDGE_LIMITS.maxPages}`}
          min={1}
          max={KNOWLEDGE_LIMITS.maxPages}
          allowDecimal={false}
          hideControls={!hydrated}
          // Without JavaScript the box cannot enable it: it is always there, and read only when the box is ticked.
          disabled={pending || (hydrated && !crawl)}
          w={240}
        />
      </>
    ),
  } satisfies Record<KnowledgeSourceKind, ReactNode>

  const title = editing ? 'Edit source' : SUBMIT_LABELS[kind]
  return (
    <FormComponent
      ref={formRef}
      method="post"
      id={form.id}
      onSubmit={onSubmit}
      noValidate={hydrated}
      aria-label={title}
      preventScrollReset
    >
      <Stack gap="md">
        <FormError message={form.errors?.[0]} />
        {hydrated ? null : <input type="hidden" name="noscript" value="true" />}
        <input type="hidden" name="kind" value={kind} />
        {kindFields[kind]}
        {editing && kind !== 'file' ? (
          <Text size="sm" c="gray.7">
            Saving reads the source into passages again; agents answer from the new ones once it is Ready.
          </Text>
        ) : null}
        <Group justify="flex-end">
          {pending ? (
            <Button variant="default" disabled>
              Cancel
            </Button>
          ) : (
            <Button variant="default" component={Link} to={KNOWLEDGE_PATH} preventScrollReset>
              Cancel
            </Button>
          )}
          <PendingButton pending={pending} pendingLabel="Saving...">
            {editing ? 'Save changes' : SUBMIT_LABELS[kind]}
          </PendingButton>
        </Group>
      </Stack>
    </FormComponent>
  )
}
