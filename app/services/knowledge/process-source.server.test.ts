import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { knowledgePassages } from '~/db/schema'
import { getLogger } from '~/utils/logger.server'
import { withTestDatabase } from '../../../tests/setup/database'
import { newOwnerScope } from '../../../tests/setup/scope'
import { UNSUPPORTED_FILE_MESSAGE } from '~/lib/knowledge/knowledge'
import { makeDocx, makePdf, makeZip, PNG_BYTES } from '../../../tests/fakes/documents'
import { startSiteFake, type SiteFake } from '../../../tests/fakes/site-server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import type { KnowledgeJobData } from './knowledge-queue.server'
import { processKnowledgeSource } from './process-source.server'
import { searchPassages } from './search.server'
import {
  createKnowledgeSource,
  deleteKnowledgeSource,
  getKnowledgeSource,
  refreshKnowledgeSource,
  updateKnowledgeSource,
  type UploadedFile,
} from './sources.server'

const getDb = withTestDatabase()
let site: SiteFake
beforeAll(async () => {
  site = await startSiteFake({ slowMs: 5_000 })
})
afterAll(() => site.close())

/** The jobs a change sends, worked here by the job's own function (the queue itself is tested elsewhere). */
function jobRecorder() {
  const sent: KnowledgeJobData[] = []
  return { sent, jobs: async (_tx: unknown, job: KnowledgeJobData) => void sent.push(job) }
}

async function processAll(scope: OrganizationScope, sent: KnowledgeJobData[], allowPrivateHosts = true) {
  const deps = { db: scope.db, logger: getLogger('warn'), web: { allowPrivateHosts } }
  const outcomes = []
  while (sent.length) outcomes.push(await processKnowledgeSource(deps, sent.shift()!))
  return outcomes
}

const passagesOf = async (scope: OrganizationScope, sourceId: string) =>
  scope.db
    .select()
    .from(knowledgePassages)
    .where(eq(knowledgePassages.sourceId, sourceId))
    .orderBy(knowledgePassages.position)

describe('processing knowledge sources', () => {
  it('an FAQ entry becomes one passage under its question, found by search', async () => {
    const scope = await newOwnerScope(getDb())
    const { sent, jobs } = jobRecorder()
    const source = await createKnowledgeSource(
      scope,
      { kind: 'faq', question: 'Do you deliver on Sundays?', answer: 'No, parcels go out Monday to Friday.' },
      { jobs },
    )
    expect(source.status).toBe('processing')
    expect(await processAll(scope, sent)).toEqual(['ready'])
    const ready = await getKnowledgeSource(scope, source.id)
    expect(ready).toMatchObject({ status: 'ready', passageCount: 1, title: 'Do you deliver on Sundays?' })
    const [hit] = await searchPassages(scope.db, {
      organizationId: scope.organizationId,
      query: 'sunday delivery',
      limit: 1,
    })
    expect(hit).toMatchObject({ sourceId: source.id, text: 'No, parcels go out Monday to Friday.' })
  })

  it('a Markdown text keeps its heading path; an edit replaces its passages', async () => {
    const scope = await newOwnerScope(getDb())
    const { sent, jobs } = jobRecorder()
    const text =
      '# Care guide\n\n## Washing\n\nWash the jacket at 30 degrees.\n\n## Drying\n\nHang it to dry, never tumble.'
    const source = await createKnowledgeSource(scope, { kind: 'text', title: 'Care guide', text }, { jobs })
    await processAll(scope, sent)
    const passages = await passagesOf(scope, source.id)
    expect(passages.map((p) => p.headingPath)).toEqual([['Washing'], ['Drying']])

    await updateKnowledgeSource(scope, source.id, { text: '## Ironing\n\nIron on low heat only.' }, { jobs })
    await processAll(scope, sent)
    expect((await passagesOf(scope, source.id)).map((p) => p.text)).toEqual(['Iron on low heat only.'])
    const tumble = await searchPassages(scope.db, {
      organizationId: scope.organizationId,
      query: 'tumble dry',
      limit: 5,
    })
    expect(tumble.map((hit) => hit.text)).not.toContain('Hang it to dry, never tumble.')
  })

  it('a PDF and a Word file are read by their content, whatever their name', async () => {
    const scope = await newOwnerScope(getDb())
    const { sent, jobs } = jobRecorder()
    const pdf: UploadedFile = {
      name: 'policy.txt',
      bytes: makePdf([['Store hours', 'Open every weekday from nine to six.']]),
    }
    const docx: UploadedFile = {
      name: 'sizes.docx',
      bytes: await makeDocx([
        { style: 'Heading1', text: 'Sizes' },
        { text: 'Our jackets run one size small: order one size up.' },
      ]),
    }
    const a = await createKnowledgeSource(scope, { kind: 'file', file: pdf }, { jobs })
    const b = await createKnowledgeSource(scope, { kind: 'file', file: docx }, { jobs })
    expect(await processAll(scope, sent)).toEqual(['ready', 'ready'])
    expect(await getKnowledgeSource(scope, a.id)).toMatchObject({ status: 'ready', fileType: 'pdf' })
    expect(await getKnowledgeSource(scope, b.id)).toMatchObject({ status: 'ready', fileType: 'docx' })
    expect((await passagesOf(scope, a.id))[0].text).toContain('Open every weekday from nine to six.')
    expect((await passagesOf(scope, b.id))[0]).toMatchObject({ headingPath: ['Sizes'] })
  })

  it('a file that is not a document is refused on upload; one that only looks like one fails with the reason, and nothing is indexed', async () => {
    const scope = await newOwnerScope(getDb())
    const { sent, jobs } = jobRecorder()
    await expect(
      createKnowledgeSource(scope, { kind: 'file', file: { name: 'photo.txt', bytes: PNG_BYTES } }, { jobs }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: UNSUPPORTED_FILE_MESSAGE })
    expect(sent).toEqual([])
    // A ZIP named .docx passes the upload's check; the job finds no Word document in it.
    const source = await createKnowledgeSource(
      scope,
      { kind: 'file', file: { name: 'archive.docx', bytes: await makeZip({ 'readme.txt': 'hello' }) } },
      { jobs },
    )
    expect(await processAll(scope, sent)).toEqual(['failed'])
    expect(await getKnowledgeSource(scope, source.id)).toMatchObject({
      status: 'failed',
      failureReason: 'This file is not a PDF, Word (.docx), Markdown or text file.',
      passageCount: 0,
    })
  })

  it('a web page is fetched without its navigation; its site is followed up to the page limit; a re-fetch replaces the passages', async () => {
    const scope = await newOwnerScope(getDb())
    const { sent, jobs } = jobRecorder()
    site.setPage('/kb', {
      body: '<html><head><title>Help</title></head><body><nav>Menu Login</nav><main><h1>Help</h1><p>Parcels leave our warehouse within two days.</p><a href="/kb/more">more</a></main></body></html>',
      contentType: 'text/html',
    })
    site.setPage('/kb/more', {
      body: '<html><head><title>More help</title></head><body><main><h1>More help</h1><p>Gift wrapping costs three euros.</p></main></body></html>',
      contentType: 'text/html',
    })
    const source = await createKnowledgeSource(
      scope,
      { kind: 'url', url: `${site.url}/kb`, crawl: true, maxPages: 2 },
      { jobs },
    )
    expect(await processAll(scope, sent)).toEqual(['ready'])
    const ready = await getKnowledgeSource(scope, source.id)
    expect(ready.pages?.map((page) => page.url)).toEqual([`${site.url}/kb`, `${site.url}/kb/more`])
    const texts = (await passagesOf(scope, source.id)).map((p) => p.text).join('\n')
    expect(texts).toContain('Parcels leave our warehouse within two days.')
    expect(texts).toContain('Gift wrapping costs three euros.')
    expect(texts).not.toContain('Menu Login')

    site.setPage('/kb', {
      body: '<html><head><title>Help</title></head><body><main><h1>Help</h1><p>Parcels now leave within one day.</p></main></body></html>',
      contentType: 'text/html',
    })
    await refreshKnowledgeSource(scope, source.id, { jobs })
    expect(await processAll(scope, sent)).toEqual(['ready'])
    const after = (await passagesOf(scope, source.id)).map((p) => p.text).join('\n')
    expect(after).toContain('Parcels now leave within one day.')
    expect(after).not.toContain('two days')
  })

  it('a private address is refused without the test allowance', async () => {
    const scope = await newOwnerScope(getDb())
    const { sent, jobs } = jobRecorder()
    const source = await createKnowledgeSource(
      scope,
      { kind: 'url', url: `${site.url}/`, crawl: false, maxPages: 1 },
      { jobs },
    )
    const asked = site.requestCount('/')
    expect(await processAll(scope, sent, false)).toEqual(['failed'])
    const failed = await getKnowledgeSource(scope, source.id)
    expect(failed.status).toBe('failed')
    expect(failed.failureReason).toMatch(/private|local|not allowed|refused/i)
    expect(site.requestCount('/')).toBe(asked)
  })

  it('a job for an older revision writes nothing; a deleted source is never found again', async () => {
    const scope = await newOwnerScope(getDb())
    const { sent, jobs } = jobRecorder()
    const source = await createKnowledgeSource(
      scope,
      { kind: 'faq', question: 'Is there a student discount?', answer: 'Students get ten percent off.' },
      { jobs },
    )
    const old = sent.shift()!
    await updateKnowledgeSource(scope, source.id, { answer: 'Students get fifteen percent off.' }, { jobs })
    const deps = { db: scope.db, logger: getLogger('warn'), web: {} }
    expect(await processKnowledgeSource(deps, old)).toBe('stale')
    expect(await passagesOf(scope, source.id)).toEqual([])
    await processAll(scope, sent)
    expect((await passagesOf(scope, source.id))[0].text).toBe('Students get fifteen percent off.')

    await deleteKnowledgeSource(scope, source.id)
    expect(await passagesOf(scope, source.id)).toEqual([])
    expect(
      await searchPassages(scope.db, {
        organizationId: scope.organizationId,
        query: 'student discount',
        limit: 5,
      }),
    ).toEqual([])
    await expect(getKnowledgeSource(scope, source.id)).rejects.toThrow('Knowledge source not found')
  })

  it("another organization's member can neither read, change, re-fetch nor delete a source", async () => {
    const db = getDb()
    const owner = await newOwnerScope(db)
    const stranger = await newOwnerScope(db)
    const { jobs } = jobRecorder()
    const source = await createKnowledgeSource(owner, { kind: 'faq', question: 'Q?', answer: 'A.' }, { jobs })
    await expect(getKnowledgeSource(stranger, source.id)).rejects.toThrow('Knowledge source not found')
    await expect(updateKnowledgeSource(stranger, source.id, { answer: 'B.' }, { jobs })).rejects.toThrow(
      'Knowledge source not found',
    )
    await expect(refreshKnowledgeSource(stranger, source.id, { jobs })).rejects.toThrow(
      'Knowledge source not found',
    )
    await expect(deleteKnowledgeSource(stranger, source.id)).rejects.toThrow('Knowledge source not found')
    expect((await getKnowledgeSource(owner, source.id)).body).toBe('A.')
  })
})
