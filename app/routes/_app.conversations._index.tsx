import { Paper, Text } from '@mantine/core'
import { CONVERSATION_UI_TEXTS as T } from '~/components/conversations/texts'

/** No conversation open: on a wide screen, the place beside the list says what to do. */
export default function NoConversationOpen() {
  return (
    <Paper withBorder p="xl" visibleFrom="md">
      <Text c="gray.7" ta="center">
        {T.selectOne}
      </Text>
      <Text c="gray.7" ta="center" size="sm" mt="xs">
        {T.shortcutsHint}
      </Text>
    </Paper>
  )
}
