import { describe, expect, it } from 'vitest'
import { DEFAULT_OFFICE_HOURS, officeHoursAt, officeHoursSchema, type OfficeHours } from './behaviour'

const berlin: OfficeHours = { ...DEFAULT_OFFICE_HOURS, timeZone: 'Europe/Berlin' }

describe('officeHoursAt', () => {
  it('is open inside the day’s hours, in the schedule’s time zone', () => {
    // Tuesday 2026-11-24 09:30 in Berlin is 08:30 UTC (CET, UTC+1).
    expect(officeHoursAt(berlin, new Date('2026-11-24T08:30:00Z'))).toEqual({ open: true })
    expect(officeHoursAt(berlin, new Date('2026-11-24T15:59:00Z'))).toEqual({ open: true })
  })

  it('is closed before opening, since the previous day’s closing time', () => {
    expect(officeHoursAt(berlin, new Date('2026-11-24T07:59:00Z'))).toEqual({
      open: false,
      closedSince: new Date('2026-11-23T16:00:00Z'),
    })
  })

  it('is closed after closing, since that closing time; the weekend goes back to Friday', () => {
    expect(officeHoursAt(berlin, new Date('2026-11-24T16:00:00Z'))).toEqual({
      open: false,
      closedSince: new Date('2026-11-24T16:00:00Z'),
    })
    // Sunday 2026-11-29 12:00 Berlin: closed since Friday 17:00 (16:00 UTC).
    expect(officeHoursAt(berlin, new Date('2026-11-29T11:00:00Z'))).toEqual({
      open: false,
      closedSince: new Date('2026-11-27T16:00:00Z'),
    })
  })

  it('follows daylight saving time', () => {
    // Tuesday 2026-07-14: Berlin is UTC+2, so 09:00 local is 07:00 UTC.
    expect(officeHoursAt(berlin, new Date('2026-07-14T07:00:00Z'))).toEqual({ open: true })
    expect(officeHoursAt(berlin, new Date('2026-07-14T06:59:00Z')).open).toBe(false)
  })

  it('a week with no open day has been closed since the epoch', () => {
    const days = Object.fromEntries(
      Object.entries(berlin.days).map(([day, hours]) => [day, { ...hours, open: false }]),
    ) as OfficeHours['days']
    expect(officeHoursAt({ ...berlin, days }, new Date())).toEqual({ open: false, closedSince: new Date(0) })
  })

  it('a day open until 24:00 closes at midnight', () => {
    const days = { ...berlin.days, tuesday: { open: true, opens: '00:00', closes: '24:00' } }
    expect(officeHoursAt({ ...berlin, days }, new Date('2026-11-24T22:59:00Z'))).toEqual({ open: true })
    expect(officeHoursAt({ ...berlin, days }, new Date('2026-11-24T23:00:00Z'))).toEqual({
      open: false,
      closedSince: new Date('2026-11-24T23:00:00Z'),
    })
  })
})

describe('officeHoursSchema', () => {
  it('refuses an unknown time zone and a day that closes before it opens', () => {
    const result = officeHoursSchema.safeParse({
      ...berlin,
      timeZone: 'Mars/Olympus',
      days: { ...berlin.days, monday: { open: true, opens: '18:00', closes: '09:00' } },
    })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['timeZone', 'Time zone must be an IANA time zone such as Europe/Berlin'],
      ['days.monday.closes', 'Closing time must be after opening time'],
    ])
  })
})
