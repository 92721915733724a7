import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { AGENT_BEHAVIOUR_DEFAULTS, BEHAVIOUR_TEXTS, DEFAULT_OFFICE_HOURS } from './behaviour'
import { BEHAVIOUR_FORM_MARKER, timeZoneList } from './behaviour-form'
import { KNOWLEDGE_FORM_MARKER } from './knowledge'
import { createAgentSchema, updateAgentSchema } from './schemas'
import { scheduleLines } from './office-hours-summary'

// The Behaviour tab as a browser posts it (FormData through Conform, as the actions and the client parse it).
const formData = (entries: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(entries)) data.append(name, value)
  return data
}
const basics = { name: 'Support Bot', systemPrompt: 'You are a helpful agent.' }
const tab = {
  [BEHAVIOUR_FORM_MARKER]: 'true',
  burstWaitSeconds: '3',
  handoffMessage: 'A person will help you.',
}
const create = (entries: Record<string, string>) =>
  parseWithZod(formData({ ...basics, readableId: 'support-bot', ...entries }), { schema: createAgentSchema })
/** The edit form posts every tab; its Knowledge tab as it shows an agent without knowledge. */
const knowledgeTab = {
  [KNOWLEDGE_FORM_MARKER]: 'true',
  knowledgeMode: 'none',
  knowledgePassages: '5',
  knowledgeMinRelevance: '0.2',
}
const edit = (entries: Record<string, string>) =>
  parseWithZod(
    formData({ ...basics, modelType: 'medium', creativityLevel: '0.7', ...knowledgeTab, ...entries }),
    {
      schema: updateAgentSchema,
    },
  )
function valueOf<Output>(submission: Submission<unknown, string[], Output>): Output {
  if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error))
  return submission.value
}
const errorsOf = (submission: Submission<unknown, string[], unknown>) =>
  submission.status === 'error' ? submission.error : {}

const mondayOnly = {
  'officeHours.enabled': 'on',
  'officeHours.timeZone': 'Europe/Berlin',
  'officeHours.days.monday.open': 'on',
  'officeHours.days.monday.opens': '08:00',
  'officeHours.days.monday.closes': '12:30',
  'officeHours.outsideHours': 'message',
  'officeHours.message': 'We are closed.',
}

describe('the Behaviour tab of the agent form', () => {
  it('a post that never showed the tab gets a new agent’s defaults', () => {
    expect(valueOf(create({}))).toMatchObject(AGENT_BEHAVIOUR_DEFAULTS)
  })

  it('from the tab, an unticked switch is off and an emptied message sends nothing', () => {
    expect(valueOf(create({ ...tab, fallbackMessage: '', unreadableMessage: '' }))).toMatchObject({
      burstWaitSeconds: 3,
      handoffEnabled: false,
      handoffMessage: 'A person will help you.',
      fallbackMessage: '',
      unreadableMessage: '',
      officeHours: null,
    })
    expect(valueOf(edit({ ...tab, handoffEnabled: 'on', fallbackMessage: 'Sorry!' }))).toMatchObject({
      handoffEnabled: true,
      fallbackMessage: 'Sorry!',
    })
  })

  it('checks the wait and the handoff message with clear texts', () => {
    expect(errorsOf(create({ ...tab, burstWaitSeconds: '45' }))).toEqual({
      burstWaitSeconds: ['The wait must be at most 30 seconds'],
    })
    expect(errorsOf(edit({ ...tab, burstWaitSeconds: '2.5', handoffMessage: '' }))).toEqual({
      burstWaitSeconds: ['The wait must be a whole number of seconds'],
      handoffMessage: ['The handoff message is required'],
    })
    expect(errorsOf(edit({ ...tab, burstWaitSeconds: '' }))).toEqual({
      burstWaitSeconds: ['The wait must be a number of seconds'],
    })
  })

  it('office hours switched off are none, whatever their fields hold', () => {
    const off = { ...mondayOnly, 'officeHours.enabled': '', 'officeHours.timeZone': 'Mars/Olympus' }
    expect(valueOf(create({ ...tab, ...off })).officeHours).toBeNull()
  })

  it('office hours switched on: the schedule, closed days keeping their hours, the message', () => {
    const { officeHours } = valueOf(create({ ...tab, ...mondayOnly }))
    expect(officeHours).toEqual({
      timeZone: 'Europe/Berlin',
      days: {
        ...Object.fromEntries(
          Object.entries(DEFAULT_OFFICE_HOURS.days).map(([day, hours]) => [day, { ...hours, open: false }]),
        ),
        monday: { open: true, opens: '08:00', closes: '12:30' },
      },
      outsideHours: 'message',
      message: 'We are closed.',
    })
    // Answering as usual needs no message: an emptied box keeps the default text.
    const answering = { ...mondayOnly, 'officeHours.outsideHours': 'answer', 'officeHours.message': '' }
    expect(valueOf(create({ ...tab, ...answering })).officeHours?.message).toBe(
      BEHAVIOUR_TEXTS.outOfHoursMessage,
    )
  })

  it('office hours switched on are checked by the API’s schema, each message on its field', () => {
    expect(
      errorsOf(
        create({
          ...tab,
          ...mondayOnly,
          'officeHours.timeZone': 'Mars/Olympus',
          'officeHours.days.monday.opens': '18:00',
          'officeHours.days.monday.closes': '09:00',
          'officeHours.days.tuesday.open': 'on',
          'officeHours.days.tuesday.opens': '',
          'officeHours.days.tuesday.closes': '17:00',
          'officeHours.message': '',
        }),
      ),
    ).toEqual({
      'officeHours.timeZone': ['Time zone must be an IANA time zone such as Europe/Berlin'],
      'officeHours.days.monday.closes': ['Closing time must be after opening time'],
      'officeHours.days.tuesday.opens': ['Opening time must be a time (HH:MM)'],
      'officeHours.message': ['The out-of-hours message is required'],
    })
  })
})

describe('the time zones the form offers', () => {
  it('are UTC first, then the zones this server accepts', () => {
    const zones = timeZoneList()
    expect(zones[0]).toBe('UTC')
    expect(zones).toContain('Europe/Berlin')
    expect(new Set(zones).size).toBe(zones.length)
  })
})

describe('the office hours summary', () => {
  it('joins runs of days with the same hours and leaves closed days out', () => {
    expect(scheduleLines(DEFAULT_OFFICE_HOURS.days)).toEqual(['Mon–Fri 09:00–17:00'])
    const days = {
      ...DEFAULT_OFFICE_HOURS.days,
      wednesday: { open: true, opens: '10:00', closes: '17:00' },
      saturday: { open: true, opens: '10:00', closes: '14:00' },
    }
    expect(scheduleLines(days)).toEqual([
      'Mon–Tue 09:00–17:00',
      'Wed 10:00–17:00',
      'Thu–Fri 09:00–17:00',
      'Sat 10:00–14:00',
    ])
    const closed = Object.fromEntries(
      Object.entries(days).map(([day, hours]) => [day, { ...hours, open: false }]),
    ) as typeof days
    expect(scheduleLines(closed)).toEqual(['Closed every day'])
  })
})
