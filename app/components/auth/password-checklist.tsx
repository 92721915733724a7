import { List, ThemeIcon, VisuallyHidden } from '@mantine/core'
import { IconCheck, IconX } from '@tabler/icons-react'
import { PASSWORD_RULES } from '~/lib/auth/password-rules'

export function PasswordChecklist({ password }: { password: string }) {
  return (
    <List spacing={4} size="sm" center aria-label="Password requirements" aria-live="polite">
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password)
        return (
          <List.Item
            key={rule.label}
            c={met ? 'teal.8' : 'gray.7'}
            icon={
              <ThemeIcon color={met ? 'teal.7' : 'gray.5'} size={18} radius="xl" aria-hidden>
                {met ? <IconCheck size={12} /> : <IconX size={12} />}
              </ThemeIcon>
            }
          >
            {rule.label}
            <VisuallyHidden>{met ? ' (met)' : ' (not met)'}</VisuallyHidden>
          </List.Item>
        )
      })}
    </List>
  )
}
