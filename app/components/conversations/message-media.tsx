import { Anchor, Modal, Text, UnstyledButton } from '@mantine/core'
import { useState } from 'react'
import { MESSAGE_KIND_LABELS, type ConversationMessage } from '~/lib/conversations/conversations'
import classes from './conversations.module.css'
import { CONVERSATION_UI_TEXTS as T } from './texts'

type Media = NonNullable<ConversationMessage['media']>

/** What the customer sent, named for a screen reader ("Voice note", "Photo"). */
function kindName(media: Media) {
  const name = MESSAGE_KIND_LABELS[media.kind].replace(/^\[|\]$/g, '')
  return name.charAt(0).toUpperCase() + name.slice(1)
}

/** A photo as a thumbnail; a click shows it whole in a dialog. */
function Picture({ src, alt }: { src: string; alt: string }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <UnstyledButton
        onClick={() => setOpen(true)}
        aria-label={T.enlargePicture(alt)}
        className={classes.thumbnail}
      >
        <img src={src} alt={alt} loading="lazy" />
      </UnstyledButton>
      <Modal opened={open} onClose={() => setOpen(false)} title={alt} size="auto" centered>
        <img src={src} alt={alt} className={classes.picture} />
      </Modal>
    </>
  )
}

/**
 * The file of a message in the transcript (a customer's, or one a person sent) (docs/decisions/074): a sound plays, a picture is a thumbnail
 * that enlarges, anything else is a link. A voice note's transcript is the message's text, labelled as such.
 */
export function MessageMedia({ media, src, from }: { media: Media; src: string; from: string }) {
  const name = T.mediaFrom(kindName(media), from)
  const type = media.file?.contentType ?? ''
  return (
    <>
      {!media.file ? null : type.startsWith('audio/') || type === 'video/mp4' ? (
        <audio controls preload="metadata" src={src} aria-label={name} className={classes.audio} />
      ) : type.startsWith('image/') ? (
        <Picture src={src} alt={name} />
      ) : (
        <Anchor href={src} size="sm" download>
          {media.fileName ?? T.downloadFile}
        </Anchor>
      )}
      {media.state === 'read' && (media.kind === 'voice' || media.kind === 'audio') ? (
        <Text size="xs" c="gray.7">
          {T.transcriptOf}
        </Text>
      ) : null}
    </>
  )
}
