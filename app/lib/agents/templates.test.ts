import { describe, expect, it } from 'vitest'
import { AGENT_DEFAULTS, createAgentSchema, creativityLabel } from './schemas'
import { AGENT_TEMPLATES, findTemplate, readableIdFrom } from './templates'

describe('agent templates', () => {
  it('each makes a valid agent with the spec defaults, its ID made from its name', () => {
    expect(AGENT_TEMPLATES.map((template) => template.id)).toEqual([
      'shop',
      'restaurant',
      'clinic',
      'salon',
      'services',
    ])
    for (const template of AGENT_TEMPLATES) {
      const parsed = createAgentSchema.safeParse({
        name: template.name,
        readableId: readableIdFrom(template.name),
        description: template.description,
        systemPrompt: template.systemPrompt,
        modelType: AGENT_DEFAULTS.modelType,
        creativityLevel: AGENT_DEFAULTS.creativityLevel,
      })
      expect(parsed.success, template.id).toBe(true)
      // The owner's parts are marked, and the prompt says not to invent what it does not know.
      expect(template.systemPrompt).toMatch(/\[[^\]]+\]/)
      expect(template.systemPrompt).toContain('never invent')
    }
  })

  it('finds a template by its id only', () => {
    expect(findTemplate('salon')?.name).toBe('Salon Assistant')
    expect(findTemplate('nope')).toBeUndefined()
    expect(findTemplate(null)).toBeUndefined()
  })
})

describe('readableIdFrom', () => {
  it('makes lowercase ASCII words joined by hyphens', () => {
    expect(readableIdFrom('Bakery Helper')).toBe('bakery-helper')
    expect(readableIdFrom('  Bäckerei Müller & Söhne! ')).toBe('backerei-muller-sohne')
    expect(readableIdFrom('Café 24/7')).toBe('cafe-24-7')
  })

  it('stays valid: at most 50 characters with no trailing hyphen, at least 3', () => {
    const long = readableIdFrom(`${'a'.repeat(49)} b`)
    expect(long).toBe('a'.repeat(49))
    expect(readableIdFrom('Al')).toBe('al-agent')
    expect(readableIdFrom('Пекарня')).toBe('agent')
    for (const name of ['Al', 'Пекарня', 'x'.repeat(80), 'Bakery Helper']) {
      expect(readableIdFrom(name)).toMatch(/^[a-z0-9-]{3,50}$/)
    }
  })
})

describe('creativityLabel', () => {
  it('reads the default 70% as Balanced; Creative is the top of the scale', () => {
    expect(creativityLabel(AGENT_DEFAULTS.creativityLevel)).toBe('Balanced')
    expect([0, 0.2, 0.3, 0.5, 0.7, 0.8, 1].map(creativityLabel)).toEqual([
      'Focused',
      'Focused',
      'Balanced',
      'Balanced',
      'Balanced',
      'Creative',
      'Creative',
    ])
  })
})
