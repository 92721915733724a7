import { Button, CloseButton, Group, Text } from '@mantine/core'
import { IconPaperclip } from '@tabler/icons-react'
import { useCallback, useId, useRef, useState } from 'react'
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_LIMITS,
  ATTACHMENT_TEXTS,
  type AttachmentPlatform,
} from '~/lib/conversations/attachments'
import classes from './conversations.module.css'
import { CONVERSATION_UI_TEXTS as T } from './texts'

/** Why the chosen file cannot go, told before it is sent: over the platform's limit (the server checks its type). */
function sizeProblem(platform: AttachmentPlatform, file: File): string | null {
  const kind = file.type === 'image/jpeg' || file.type === 'image/png' ? 'photo' : 'file'
  const limit = ATTACHMENT_LIMITS[platform][kind]
  return file.size > limit ? ATTACHMENT_TEXTS.tooLarge(kind, platform, limit) : null
}

/** The composer's attachment: the file chosen (one), what is wrong with it, and how to take it away. */
export function useAttachment(platform: AttachmentPlatform) {
  const input = useRef<HTMLInputElement>(null)
  const [file, setFile] = useState<File | null>(null)
  const clear = useCallback(() => {
    if (input.current) input.current.value = ''
    setFile(null)
  }, [])
  return { input, file, setFile, clear, error: file ? sizeProblem(platform, file) : null }
}

/**
 * "Attach": a native file input (so that the form sends it with or without JavaScript), out of sight but in the
 * tab order, labelled by the button that shows its focus; the chosen file's name and a way to remove it.
 */
export function AttachmentPicker({ attachment }: { attachment: ReturnType<typeof useAttachment> }) {
  const id = useId()
  const { file } = attachment
  return (
    <Group gap={4} wrap="wrap" justify="flex-end" miw={0}>
      {file ? (
        <Group gap={2} wrap="nowrap" miw={0}>
          <Text size="sm" truncate maw={160} title={file.name}>
            {file.name}
          </Text>
          <CloseButton size="sm" aria-label={T.removeAttachment(file.name)} onClick={attachment.clear} />
        </Group>
      ) : null}
      <input
        ref={attachment.input}
        id={id}
        type="file"
        name="attachment"
        accept={ATTACHMENT_ACCEPT}
        aria-label={T.attachLabel}
        className={classes.fileInput}
        onChange={(event) => attachment.setFile(event.currentTarget.files?.[0] ?? null)}
      />
      <Button
        component="label"
        htmlFor={id}
        variant="default"
        leftSection={<IconPaperclip size={16} aria-hidden />}
      >
        {file ? T.attachAnother : T.attach}
      </Button>
    </Group>
  )
}
