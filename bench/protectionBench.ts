// The cost of data protection per request, in process on the bench's PostgreSQL: sealing and
// opening one event of each sensitive kind (the event codec, keys cached as in a running server),
// and creating a subject's data key (one INSERT, committed without a WAL flush as the server does).
import { randomBytes, randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { postgresDataKeyStore } from '../events/protection/dataKeys.js'
import { dataProtection } from '../events/protection/dataProtection.js'
import { eventCodec } from '../events/protection/eventCodec.js'
import { localKeyManagement } from '../events/protection/localKeyManagement.js'
import { kekIdOf } from '../events/protection/localKeySource.js'
import { openDataKeyCreationDatabase, openDataKeyDatabase } from '../events/protection/tables.js'
import type { NewEvent, RecordedEvent } from '../events/store/port.js'
import { migrateToLatest, openReadDatabase } from '../projections/database.js'

export const PROTECTION_BENCH_PLAN = { codecRounds: 20_000, keyCreations: 2_000 } as const

export type ProtectionBenchResult = {
  /** Microseconds per event: seal on append, open on read. */
  verificationSealUs: number
  verificationOpenUs: number
  endpointSealUs: number
  endpointOpenUs: number
  /** Milliseconds per new subject's data key, one at a time. */
  keyCreationMs: number
}

const verificationSaved = (customerId: string): NewEvent => ({
  id: randomUUID(),
  type: 'IndividualVerificationSaved',
  metadata: {},
  data: {
    customerId,
    reviewWarnings: [],
    updatedFields: ['phone', 'dateOfBirth', 'taxIdentificationNumber', 'address'],
    summary: {
      id: customerId,
      customerName: 'Ada Lovelace',
      email: 'ada@example.com',
      type: 'INDIVIDUAL',
      status: 'DRAFT',
      countryCode: 'US',
      createdAt: '2026-11-24T00:00:00.000Z',
      updatedAt: '2026-11-24T00:00:00.000Z',
    },
    savedAt: '2026-11-24T00:00:00.000Z',
    changes: {
      phone: '+14155550123',
      dateOfBirth: '1990-12-10',
      nationality: 'US',
      taxIdentificationNumber: '123-45-6789',
      address: { addressLine1: '1 Main St', addressLine2: 'Apt 4', city: 'Springfield', postalCode: '62701', country: 'US' },
    },
  },
})

const endpointCreated = (endpointId: string): NewEvent => ({
  id: randomUUID(),
  type: 'WebhookEndpointCreated',
  metadata: {},
  data: {
    endpointId,
    organizationId: 'org_bench',
    url: 'https://hooks.example.com/payments',
    description: 'bench',
    filterTypes: [],
    metadata: {},
    secret: `whsec_${randomBytes(24).toString('base64')}`,
    createdAt: '2026-11-24T00:00:00.000Z',
  },
})

const recorded = (stream: string, e: NewEvent): RecordedEvent => ({
  ...e,
  stream,
  revision: 0n,
  position: '' as RecordedEvent['position'],
  recordedAt: new Date(),
})

async function perEventUs(stream: string, event: NewEvent, codec: ReturnType<typeof eventCodec>): Promise<{ seal: number; open: number }> {
  await codec.encode(stream, event) // the key created and cached, as after a subject's first write
  let sealed = event
  const sealStart = performance.now()
  for (let i = 0; i < PROTECTION_BENCH_PLAN.codecRounds; i++) sealed = await codec.encode(stream, event)
  const seal = ((performance.now() - sealStart) * 1_000) / PROTECTION_BENCH_PLAN.codecRounds
  const stored = recorded(stream, sealed)
  const openStart = performance.now()
  for (let i = 0; i < PROTECTION_BENCH_PLAN.codecRounds; i++) await codec.decode([stored])
  const open = ((performance.now() - openStart) * 1_000) / PROTECTION_BENCH_PLAN.codecRounds
  return { seal, open }
}

export async function runProtectionBench(connectionString: string): Promise<ProtectionBenchResult> {
  const { db, pool } = openReadDatabase(connectionString, 4)
  const creations = openDataKeyCreationDatabase(connectionString, () => undefined)
  try {
    await migrateToLatest(db)
    const kek = randomBytes(32)
    const keys = postgresDataKeyStore(
      openDataKeyDatabase(pool),
      localKeyManagement({ keks: new Map([[kekIdOf(kek), kek]]), currentKekId: kekIdOf(kek) }),
      creations,
    )
    const codec = eventCodec(dataProtection(keys))
    const verification = await perEventUs('customer-cus_bench', verificationSaved('cus_bench'), codec)
    const endpoint = await perEventUs('webhook_endpoint-ep_bench', endpointCreated('ep_bench'), codec)
    const start = performance.now()
    for (let i = 0; i < PROTECTION_BENCH_PLAN.keyCreations; i++) await keys.keyForWriting(`bench_subject_${i}`)
    const keyCreationMs = (performance.now() - start) / PROTECTION_BENCH_PLAN.keyCreations
    return {
      verificationSealUs: verification.seal,
      verificationOpenUs: verification.open,
      endpointSealUs: endpoint.seal,
      endpointOpenUs: endpoint.open,
      keyCreationMs,
    }
  } finally {
    await creations.destroy()
    await db.destroy()
  }
}
