import { useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'

/**
 * A Conform form checked in the browser by the same zod schema the server parses it with: first on submit, then
 * as the user corrects a field; the browser's own constraints come from the schema for pages without JavaScript.
 */
export function useSchemaForm<Schema extends z.ZodType<unknown, Record<string, unknown>>>(
  id: string,
  schema: Schema,
  lastResult: SubmissionResult<string[]> | undefined,
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
}
