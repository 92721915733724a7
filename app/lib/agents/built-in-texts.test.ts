import { describe, expect, it } from 'vitest'
import { BEHAVIOUR_TEXTS } from './behaviour'
import { BUILT_IN_TEXTS, builtInTextFor, targetLanguage, type AgentLanguage } from './built-in-texts'

// Which words a customer gets for one of the agent's built-in messages (issue 36, docs/decisions/071 and 072).
const DEFAULT_HANDOFF = BEHAVIOUR_TEXTS.handoffMessage
const inCustomers: AgentLanguage = { replyLanguage: null, translations: {} }

describe('the built-in messages a customer gets', () => {
  it("in the customer's language while the agent keeps the English default; the owner's own words as written", () => {
    expect(builtInTextFor('handoff', DEFAULT_HANDOFF, inCustomers, 'es')).toBe(BUILT_IN_TEXTS.es.handoff)
    expect(builtInTextFor('handoff', `  ${DEFAULT_HANDOFF}\n`, inCustomers, 'pt')).toBe(
      BUILT_IN_TEXTS.pt.handoff,
    )
    expect(builtInTextFor('handoff', 'Un momento, Ana te atiende.', inCustomers, 'es')).toBe(
      'Un momento, Ana te atiende.',
    )
    // Unknown, or a language the defaults do not ship in: the agent's text.
    expect(builtInTextFor('handoff', DEFAULT_HANDOFF, inCustomers, null)).toBe(DEFAULT_HANDOFF)
    expect(builtInTextFor('handoff', DEFAULT_HANDOFF, inCustomers, 'ja')).toBe(DEFAULT_HANDOFF)
    // Malay customers read the Indonesian.
    expect(builtInTextFor('fallback', BEHAVIOUR_TEXTS.fallbackMessage, inCustomers, 'ms')).toBe(
      BUILT_IN_TEXTS.id.fallback,
    )
  })

  it('an agent fixed to a language sends in it, whatever the customer writes', () => {
    const spanish: AgentLanguage = { replyLanguage: 'es', translations: {} }
    expect(builtInTextFor('fallback', BEHAVIOUR_TEXTS.fallbackMessage, spanish, 'en')).toBe(
      BUILT_IN_TEXTS.es.fallback,
    )
    expect(builtInTextFor('unreadable', BEHAVIOUR_TEXTS.unreadableMessage, spanish, null)).toBe(
      BUILT_IN_TEXTS.es.unreadable,
    )
    expect(targetLanguage(spanish, 'de')).toBe('es')
    expect(targetLanguage(inCustomers, 'de')).toBe('de')
    expect(targetLanguage(inCustomers, 'ms')).toBe('id')
    expect(targetLanguage(inCustomers, 'ja')).toBeNull()
  })

  it("the owner's translation first, in the target language, whether the agent's text is the default or their own", () => {
    const agent: AgentLanguage = {
      replyLanguage: null,
      translations: { pt: { handoff: '  Já chamo a Ana para você.  ' }, id: { fallback: 'Maaf ya!' } },
    }
    expect(builtInTextFor('handoff', DEFAULT_HANDOFF, agent, 'pt')).toBe('Já chamo a Ana para você.')
    expect(builtInTextFor('handoff', 'Ana will help you.', agent, 'pt')).toBe('Já chamo a Ana para você.')
    // Other messages and other languages: as without it.
    expect(builtInTextFor('fallback', BEHAVIOUR_TEXTS.fallbackMessage, agent, 'pt')).toBe(
      BUILT_IN_TEXTS.pt.fallback,
    )
    expect(builtInTextFor('handoff', DEFAULT_HANDOFF, agent, 'es')).toBe(BUILT_IN_TEXTS.es.handoff)
    expect(builtInTextFor('fallback', BEHAVIOUR_TEXTS.fallbackMessage, agent, 'ms')).toBe('Maaf ya!')
    // Fixed to Portuguese: a Spanish customer gets the Portuguese translation.
    expect(builtInTextFor('handoff', DEFAULT_HANDOFF, { ...agent, replyLanguage: 'pt' }, 'es')).toBe(
      'Já chamo a Ana para você.',
    )
  })

  it('an empty translation is none, and a message the owner emptied is sent in no language', () => {
    const agent: AgentLanguage = {
      replyLanguage: null,
      translations: { es: { handoff: '  ', fallback: 'Ups' } },
    }
    expect(builtInTextFor('handoff', DEFAULT_HANDOFF, agent, 'es')).toBe(BUILT_IN_TEXTS.es.handoff)
    expect(builtInTextFor('fallback', '', agent, 'es')).toBe('')
    expect(builtInTextFor('fallback', '   ', { ...agent, replyLanguage: 'es' }, 'en').trim()).toBe('')
  })
})
