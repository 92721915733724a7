import { describe, expect, it } from 'vitest'
import { AGENT_KNOWLEDGE_DEFAULTS } from '~/lib/knowledge/knowledge'
import { AGENT_BEHAVIOUR_DEFAULTS, BEHAVIOUR_TEXTS, DEFAULT_OFFICE_HOURS } from './behaviour'
import { BUILT_IN_TEXTS } from './built-in-texts'
import { shownTranslation, shownTranslations, translationsToStore } from './translations'

// What the agent form's translation boxes show, and what a save keeps of them (docs/decisions/072).
const newAgent = { ...AGENT_BEHAVIOUR_DEFAULTS, ...AGENT_KNOWLEDGE_DEFAULTS, translations: {} }

describe("the owner's translations", () => {
  it('each box shows what the agent sends in that language now', () => {
    const shown = shownTranslations(newAgent)
    expect(shown.es.handoff).toBe(BUILT_IN_TEXTS.es.handoff)
    expect(shown.en['out-of-hours']).toBe(BEHAVIOUR_TEXTS.outOfHoursMessage)
    expect(shown.tr['no-knowledge']).toBe(BUILT_IN_TEXTS.tr['no-knowledge'])
    const own = {
      ...newAgent,
      handoffMessage: 'Ana will help you.',
      fallbackMessage: '',
      officeHours: { ...DEFAULT_OFFICE_HOURS, message: 'Closed!' },
      translations: { de: { handoff: 'Ana hilft Ihnen.' }, es: { fallback: 'Ups' } },
    }
    expect(shownTranslation(own, 'de', 'handoff')).toBe('Ana hilft Ihnen.')
    expect(shownTranslation(own, 'es', 'handoff')).toBe('Ana will help you.')
    expect(shownTranslation(own, 'es', 'out-of-hours')).toBe('Closed!')
    // Switched off above: the translation is kept for when it is switched back on; none shows empty.
    expect(shownTranslation(own, 'es', 'fallback')).toBe('Ups')
    expect(shownTranslation(own, 'fr', 'fallback')).toBe('')
  })

  it('an untouched form stores nothing; a changed box is stored, trimmed', () => {
    expect(translationsToStore(shownTranslations(newAgent), newAgent, newAgent)).toEqual({})
    expect(translationsToStore(shownTranslations(newAgent), newAgent)).toEqual({})
    const given = shownTranslations(newAgent)
    given.pt.handoff = '  Já chamo a Ana.  '
    given.es.fallback = ''
    expect(translationsToStore(given, newAgent, newAgent)).toEqual({ pt: { handoff: 'Já chamo a Ana.' } })
  })

  it("a box left as filled follows the agent's own message changed in the same save; the API's keeps its words", () => {
    const given = shownTranslations(newAgent)
    const saved = { ...newAgent, handoffMessage: 'Ana will help you.' }
    // The form showed the Spanish default: not the owner's choice, so Spanish customers get Ana's message.
    expect(translationsToStore(given, saved, newAgent)).toEqual({})
    // An API body says what it wants: the Spanish default, now that the English is the owner's, is a translation.
    expect(translationsToStore({ es: { handoff: BUILT_IN_TEXTS.es.handoff } }, saved)).toEqual({
      es: { handoff: BUILT_IN_TEXTS.es.handoff },
    })
  })

  it('a stored translation left as shown is kept; emptied, it goes', () => {
    const agent = { ...newAgent, translations: { pt: { handoff: 'Já chamo a Ana.' } } }
    const given = shownTranslations(agent)
    expect(translationsToStore(given, agent, agent)).toEqual({ pt: { handoff: 'Já chamo a Ana.' } })
    given.pt.handoff = ''
    expect(translationsToStore(given, agent, agent)).toEqual({})
  })
})
