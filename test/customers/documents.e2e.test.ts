// Document upload through HTTP: doc_ ids, type and size limits, bytes checked against the type,
// content stored durably (sealed) in Postgres, never logged, downloaded through GET .../content.
import { Writable } from 'node:stream'
import pino from 'pino'
import t from 'tap'
import { REDACTED_PATHS } from '../../server/logger.js'
import { DOCUMENT_LIMITS } from '../../domain/document/content.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual, fieldsOf, PDF, PNG } from './fixtures.js'

const lines: string[] = []
const sink = new Writable({
  write(chunk, _e, done) {
    lines.push(String(chunk))
    done()
  },
})
const logger = pino({ level: 'debug', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink)
const h = await startTestApp(t, { LOG_LEVEL: 'debug' }, { logger })

const post = (payload: Record<string, unknown>, apiKey?: string) =>
  h.request({ method: 'POST', url: '/v1/documents', payload, ...(apiKey ? { apiKey } : {}) })
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jpeg-secret-content-marker')])

t.test('upload: 201 with a doc_ id and metadata; the bytes are stored in Postgres, never logged', async (t) => {
  const c = await createIndividual(h)
  const res = await post({ customerId: c.id, fileName: 'passport.jpg', contentType: 'image/jpeg', content: JPEG.toString('base64') })
  t.equal(res.statusCode, 201)
  const doc = res.json()
  t.match(doc, {
    id: /^doc_[0-9a-z]{26}$/,
    customerId: c.id,
    fileName: 'passport.jpg',
    contentType: 'image/jpeg',
    sizeBytes: JPEG.length,
    sha256: /^[0-9a-f]{64}$/,
  })
  t.notOk('content' in doc, 'content is never returned')
  const got = await h.request({ method: 'GET', url: `/v1/documents/${doc.id}` })
  t.same(got.json(), doc)
  const row = await h.runtime.db.selectFrom('document_contents').selectAll().where('document_id', '=', doc.id).executeTakeFirstOrThrow()
  t.notOk(row.content.includes(Buffer.from('jpeg-secret-content-marker')), 'the stored bytes are sealed')
  const content = await h.request({ method: 'GET', url: `/v1/documents/${doc.id}/content` })
  t.ok(Buffer.compare(content.rawPayload, JPEG) === 0, 'the stored bytes open to the upload')
  t.equal(row.sha256, doc.sha256)
  const all = lines.join('')
  t.notOk(all.includes('jpeg-secret-content-marker') || all.includes(JPEG.toString('base64')), 'content never logged')
  t.ok(all.includes(res.headers['x-request-id'] as string), 'the request itself was logged at debug')
})

t.test('types: PDF, JPEG and PNG only, and the bytes must match the declared type', async (t) => {
  t.equal((await post({ fileName: 'a.pdf', contentType: 'application/pdf', content: PDF.toString('base64') })).statusCode, 201)
  t.equal((await post({ fileName: 'a.png', contentType: 'image/png', content: PNG.toString('base64') })).statusCode, 201)
  const gif = await post({ fileName: 'a.gif', contentType: 'image/gif', content: Buffer.from('GIF89a').toString('base64') })
  t.equal(gif.statusCode, 400)
  t.same(fieldsOf(gif.json()), ['body.contentType'])
  const mismatch = await post({
    fileName: 'evil.pdf',
    contentType: 'application/pdf',
    content: Buffer.from('MZ\x90\x00executable').toString('base64'),
  })
  t.equal(mismatch.statusCode, 422)
  t.equal(mismatch.json().code, 'document_content_mismatch')
  t.same(fieldsOf(mismatch.json()), ['contentType'])
  const notBase64 = await post({ fileName: 'a.pdf', contentType: 'application/pdf', content: '%PDF-not base64!' })
  t.equal(notBase64.statusCode, 422)
  t.equal(notBase64.json().code, 'document_content_invalid')
  t.equal(
    (await post({ fileName: '../etc/passwd', contentType: 'application/pdf', content: PDF.toString('base64') })).statusCode,
    400,
    'a path is not a file name',
  )
})

t.test('size: at most 5 MiB decoded; larger bodies are refused before parsing', async (t) => {
  const max = Buffer.alloc(DOCUMENT_LIMITS.maxBytes, 0x20)
  PDF.copy(max)
  t.equal(
    (await post({ fileName: 'max.pdf', contentType: 'application/pdf', content: max.toString('base64') })).statusCode,
    201,
    'exactly 5 MiB',
  )
  const over = Buffer.concat([max, Buffer.from('x')])
  const res = await post({ fileName: 'big.pdf', contentType: 'application/pdf', content: over.toString('base64') })
  t.equal(res.statusCode, 422, 'one byte over')
  t.equal(res.json().code, 'document_too_large')
  t.same(fieldsOf(res.json()), ['content'])
  const longer = await post({
    fileName: 'big.pdf',
    contentType: 'application/pdf',
    content: Buffer.concat([over, Buffer.alloc(3)]).toString('base64'),
  })
  t.equal(longer.statusCode, 400, 'base64 longer than the limit allows: refused by the schema')
  t.same(fieldsOf(longer.json()), ['body.content'])
  const huge = await h.request({
    method: 'POST',
    url: '/v1/documents',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ fileName: 'h.pdf', contentType: 'application/pdf', content: 'A'.repeat(8 * 1024 * 1024) }),
  })
  t.equal(huge.statusCode, 413)
})

t.test('customer binding and tenants', async (t) => {
  const other = await h.newOrganization('Other')
  const res = await post({
    customerId: 'cus_00000000000000000000000000',
    fileName: 'a.png',
    contentType: 'image/png',
    content: PNG.toString('base64'),
  })
  t.equal(res.statusCode, 404, 'unknown customer')
  const mine = (await post({ fileName: 'a.png', contentType: 'image/png', content: PNG.toString('base64') })).json()
  t.equal(
    (await h.request({ method: 'GET', url: `/v1/documents/${mine.id}`, apiKey: other.apiKey })).statusCode,
    404,
    'another organization: 404',
  )
})
