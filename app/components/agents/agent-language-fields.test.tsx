// @vitest-environment jsdom
import { parseWithZod } from '@conform-to/zod/v4'
import { MantineProvider } from '@mantine/core'
import { createRemixStub } from '@remix-run/testing'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AGENT_BEHAVIOUR_DEFAULTS } from '~/lib/agents/behaviour'
import { BUILT_IN_LANGUAGES, BUILT_IN_TEXT_KINDS, BUILT_IN_TEXTS } from '~/lib/agents/built-in-texts'
import { createAgentSchema, updateAgentSchema } from '~/lib/agents/schemas'
import { translationsToStore } from '~/lib/agents/translations'
import { AGENT_KNOWLEDGE_DEFAULTS } from '~/lib/knowledge/knowledge'
import { AgentForm } from './agent-form'
import type { AgentItem } from './types'

// The Behaviour tab's Language group as a browser shows and posts it (issue 36, docs/decisions/072): rendered,
// then read back as the FormData the form would send.

beforeAll(() => {
  // What Mantine's tabs and combobox need of a browser that jsdom lacks.
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) satisfies MediaQueryList
  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Element.prototype.scrollIntoView ??= () => {}
})
afterEach(cleanup)

const AGENT: AgentItem = {
  id: '7b0c8f52-5d43-4a0a-9d4b-2a1f6f7c9e11',
  readableId: 'shop-helper',
  name: 'Shop Helper',
  description: null,
  modelType: 'medium',
  creativityLevel: 0.7,
  systemPrompt: 'You answer questions about the shop.',
  maxTokens: 1000,
  topP: 0.9,
  topK: 40,
  status: 'active',
  ...AGENT_BEHAVIOUR_DEFAULTS,
  ...AGENT_KNOWLEDGE_DEFAULTS,
  handoffMessage: 'Ana from the shop will answer you here.',
  replyLanguage: null,
  translations: { pt: { handoff: 'A Ana da loja responde aqui.' } },
  createdBy: 'Ada',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
}

function renderForm(agent?: AgentItem) {
  const Stub = createRemixStub([
    {
      path: '/agents',
      Component: () => (
        <MantineProvider env="test">
          <AgentForm
            agent={agent}
            lastResult={undefined}
            pending={false}
            hydrated
            timeZones={['UTC', 'Europe/Lisbon']}
            knowledgeSources={[]}
          />
        </MantineProvider>
      ),
    },
  ])
  render(<Stub initialEntries={['/agents']} />)
  fireEvent.click(screen.getByRole('tab', { name: 'Behaviour' }))
  const form = screen.getByRole('form', { name: agent ? 'Edit Agent' : 'Create New Agent' })
  return { form: form as HTMLFormElement, posted: () => new FormData(form as HTMLFormElement) }
}

const box = (language: string, kind: string) =>
  document.querySelector<HTMLTextAreaElement>(`textarea[name="translations.${language}.${kind}"]`)

describe('the Language group of the agent form', () => {
  it('offers "Answer in" with the customer’s language first and the ten languages by name', () => {
    renderForm()
    const answerIn = screen.getByRole('textbox', { name: 'Answer in' })
    expect(answerIn).toHaveProperty('value', "The customer's language")
    fireEvent.click(answerIn)
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      "The customer's language",
      'English',
      'Spanish',
      'Portuguese',
      'French',
      'German',
      'Italian',
      'Russian',
      'Ukrainian',
      'Turkish',
      'Indonesian',
    ])
  })

  it('posts every language’s five messages, each filled with what the agent sends now; untouched, nothing is stored', () => {
    const { posted } = renderForm()
    const data = posted()
    for (const language of BUILT_IN_LANGUAGES) {
      for (const kind of BUILT_IN_TEXT_KINDS) {
        expect(data.get(`translations.${language}.${kind}`), `${language} ${kind}`).toBe(
          BUILT_IN_TEXTS[language][kind],
        )
      }
    }
    expect(data.get('replyLanguage')).toBe('')
    data.set('name', 'Shop Helper')
    data.set('readableId', 'shop-helper')
    data.set('systemPrompt', 'You answer questions about the shop.')
    const submission = parseWithZod(data, { schema: createAgentSchema })
    if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error))
    expect(submission.value.replyLanguage).toBeNull()
    const shown = { ...AGENT_BEHAVIOUR_DEFAULTS, ...AGENT_KNOWLEDGE_DEFAULTS, translations: {} }
    expect(translationsToStore(submission.value.translations, submission.value, shown)).toEqual({})
  })

  it('shows one language at a time, labelled, and keeps what was typed in another when switching', () => {
    const { posted } = renderForm(AGENT)
    const section = screen.getByText('Messages in other languages').closest('details')
    if (!section) throw new Error('no section')
    fireEvent.click(screen.getByText('Messages in other languages'))
    // Spanish first: the owner's own handoff, since there is no Spanish one; the default as the placeholder.
    const spanish = within(section).getByRole('group', { name: 'Spanish' })
    const handoff = within(spanish).getByRole('textbox', { name: 'Handoff message in Spanish' })
    expect(handoff).toHaveProperty('value', AGENT.handoffMessage)
    expect(handoff.getAttribute('placeholder')).toBe(BUILT_IN_TEXTS.es.handoff)
    fireEvent.change(handoff, { target: { value: 'Ana te responde aquí.' } })

    fireEvent.click(within(section).getByRole('textbox', { name: 'Messages in' }))
    fireEvent.click(screen.getByRole('option', { name: 'Portuguese' }))
    expect(box('es', 'handoff')?.closest('fieldset')?.hidden).toBe(true)
    expect(box('pt', 'handoff')?.closest('fieldset')?.hidden).toBe(false)
    expect(box('pt', 'handoff')?.value).toBe('A Ana da loja responde aqui.')

    const data = posted()
    expect(data.get('translations.es.handoff')).toBe('Ana te responde aquí.')
    const submission = parseWithZod(data, { schema: updateAgentSchema })
    if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error))
    expect(translationsToStore(submission.value.translations, submission.value, AGENT)).toEqual({
      es: { handoff: 'Ana te responde aquí.' },
      pt: { handoff: 'A Ana da loja responde aqui.' },
    })
  })
  it('a message too long in a language not shown: on submit the section opens on that language, with the error', async () => {
    const { form } = renderForm(AGENT)
    fireEvent.click(screen.getByText('Messages in other languages'))
    const pick = () => screen.getByRole('textbox', { name: 'Messages in' })
    fireEvent.click(pick())
    fireEvent.click(screen.getByRole('option', { name: 'German' }))
    fireEvent.change(screen.getByRole('textbox', { name: 'Fallback message in German' }), {
      target: { value: 'x'.repeat(1001) },
    })
    fireEvent.click(pick())
    fireEvent.click(screen.getByRole('option', { name: 'Italian' }))
    fireEvent.click(screen.getByText('Messages in other languages'))
    await waitFor(() =>
      expect(screen.getByText('Messages in other languages').closest('details')?.open).toBe(false),
    )
    fireEvent.submit(form)
    expect(
      await screen.findByText('The fallback message in German must be at most 1000 characters'),
    ).toBeTruthy()
    expect(pick()).toHaveProperty('value', 'German')
    expect(screen.getByText('Messages in other languages').closest('details')?.open).toBe(true)
    expect(box('de', 'fallback')?.getAttribute('aria-invalid')).toBe('true')
  })
})
