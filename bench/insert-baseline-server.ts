/**
 * The baseline of `npm run bench:ingest`: the least a webhook receiver can do. A bare node:http server that reads
 * the body and does one INSERT per request into the same database, then answers 200. No framework, no checks, no
 * transaction, no job. PostgreSQL (DATABASE_URL) through a pool of the app's size, or PGlite under DATA_DIR.
 */
import { createServer } from 'node:http'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'

const CREATE = `create table if not exists bench_baseline (
  id bigserial primary key, path text not null, body text not null, received_at timestamptz not null default now())`
const INSERT = 'insert into bench_baseline (path, body) values ($1, $2)'

async function open(): Promise<(path: string, body: string) => Promise<unknown>> {
  const url = process.env.DATABASE_URL
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 })
    await pool.query(CREATE)
    return (p, body) => pool.query(INSERT, [p, body])
  }
  const db = new PGlite(path.join(process.env.DATA_DIR ?? './data', 'pglite'))
  await db.waitReady
  await db.query(CREATE)
  return (p, body) => db.query(INSERT, [p, body])
}

const insert = await open()
createServer((req, res) => {
  if (req.method === 'GET') return void res.writeHead(200).end('ok')
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    insert(req.url ?? '/', Buffer.concat(chunks).toString('utf8')).then(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
      () => res.writeHead(500).end(),
    )
  })
}).listen(Number(process.env.PORT ?? 3000), '127.0.0.1')
