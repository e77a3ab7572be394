// The registries built from the aggregate descriptors: the event catalog, stream names and the
// public-event mappers each cover every aggregate, and no two aggregates claim one name (or, for
// the mappers, one stored event type).
import { invoicePublicEvents } from '../../domain/invoice/publicEvents.js'
import t from 'tap'
import { counterpartyPublicEvents } from '../../domain/counterparty/publicEvents.js'
import { accountPublicEvents } from '../../domain/account/publicEvents.js'
import { transferPublicEvents } from '../../domain/transfer/publicEvents.js'
import { fxQuotePublicEvents } from '../../domain/fx-quote/publicEvents.js'
import { fxTradePublicEvents } from '../../domain/fx-trade/publicEvents.js'
import { agentPublicEvents } from '../../domain/agent/publicEvents.js'
import { agentSpendPublicEvents } from '../../domain/agent-spend/publicEvents.js'
import { customerPublicEvents } from '../../domain/customer/publicEvents.js'
import { liquidityFacilityPublicEvents } from '../../domain/liquidity-facility/publicEvents.js'
import { ID_PREFIXES } from '../../domain/shared/ids.js'
import { webhookEndpointPublicEvents } from '../../domain/webhook-endpoint/publicEvents.js'
import {
  AGGREGATES,
  UnknownEventTypeError,
  UnknownEventVersionError,
  isKnownEventType,
  parseEventData,
  schemaVersionOf,
} from '../../events/catalog.js'
import { streamName, streams } from '../../events/streams.js'
import { publicEventLookupOf, publicEventMappers, registeredPublicEventMappers } from '../../webhooks/publicEventMappers.js'

const SHARED_PREFIX = new Set(['fxTrade', 'agentSpend'])

t.test('no two aggregates share a name, stream category or id prefix; each prefix is a known one', async (t) => {
  for (const key of ['name', 'streamCategory', 'idPrefix'] as const) {
    // An FX trade is also a transfer (spec: both are tfr_), and an agent's spending is the agent's (agt_): shared by design.
    const values = AGGREGATES.filter((a) => key !== 'idPrefix' || !SHARED_PREFIX.has(a.name)).map((a) => a[key])
    t.equal(new Set(values).size, values.length, `${key}s are distinct`)
  }
  t.equal(AGGREGATES.find((a) => a.name === 'fxTrade')?.idPrefix, 'tfr', 'an FX trade has a transfer id')
  t.equal(AGGREGATES.find((a) => a.name === 'agentSpend')?.idPrefix, 'agt', "an agent's spending has its agent's id")
  const prefixes = new Set<string>(Object.values(ID_PREFIXES))
  for (const a of AGGREGATES) t.ok(prefixes.has(a.idPrefix), `${a.name}: ${a.idPrefix}`)
})

t.test('the catalog knows every event type of every descriptor, and nothing else', async (t) => {
  for (const a of AGGREGATES) for (const type of Object.keys(a.eventSchemas)) t.ok(isKnownEventType(type), `${a.name}: ${type}`)
  t.notOk(isKnownEventType('NoSuchEvent'))
  t.throws(() => parseEventData({ type: 'NoSuchEvent', data: {}, metadata: {} }), UnknownEventTypeError)
  t.same(
    parseEventData({
      type: 'DocumentUploaded',
      data: {
        documentId: 'doc_1',
        organizationId: 'org_1',
        customerId: 'cus_1',
        fileName: 'a.pdf',
        contentType: 'application/pdf',
        sizeBytes: 3,
        sha256: 'a'.repeat(64),
        uploadedAt: '2026-01-01T00:00:00.000Z',
        extra: 'stripped',
      },
      metadata: {},
    }).extra,
    undefined,
    'parsing applies the schema',
  )
})

t.test('a stored event is upcast from the version its metadata names to the current one', async (t) => {
  const ref = { invoiceId: 'inv_1', organizationId: 'org_1', customerId: 'cus_1', sendNumber: 1, at: '2026-11-27T09:00:00.000Z' }
  t.equal(schemaVersionOf('InvoiceSent'), 2, 'InvoiceSent has one upcaster')
  t.equal(schemaVersionOf('CustomerCreated'), 1)
  const v1 = { type: 'InvoiceSent', data: { ...ref, delivery: 'RECORDED_ONLY' }, metadata: {} }
  t.same(parseEventData(v1), { ...ref, delivery: { method: 'RECORDED_ONLY' } }, 'version 1 (no schemaVersion) reads as version 2')
  const v2 = { type: 'InvoiceSent', data: { ...ref, delivery: { method: 'RECORDED_ONLY' } }, metadata: { schemaVersion: 2 } }
  t.same(parseEventData(v2), v2.data, 'the current version reads as is')
  t.throws(() => parseEventData({ ...v1, metadata: { schemaVersion: 2 } }), 'version-1 data claiming version 2 fails its schema')
  for (const schemaVersion of [0, 3, 1.5])
    t.throws(() => parseEventData({ ...v2, metadata: { schemaVersion } }), UnknownEventVersionError, `version ${schemaVersion}`)
})

t.test('stream names are the ones stored today', async (t) => {
  t.same(
    {
      organization: streams.organization('org_1'),
      webhookEndpoint: streams.webhookEndpoint('ep_1'),
      customer: streams.customer('cus_1'),
      document: streams.document('doc_1'),
      termsAgreement: streams.termsAgreement('tos_1'),
    },
    {
      organization: 'organization-org_1',
      webhookEndpoint: 'webhook_endpoint-ep_1',
      customer: 'customer-cus_1',
      document: 'document-doc_1',
      termsAgreement: 'terms_agreement-tos_1',
    },
  )
  t.same(Object.keys(streams).sort(), AGGREGATES.map((a) => a.name).sort(), 'one per aggregate')
  for (const a of AGGREGATES) t.equal(streams[a.name]('x_1'), streamName(a, 'x_1'))
})

t.test('the public-event mappers are those of the aggregates that have public events', async (t) => {
  const registered = [
    customerPublicEvents,
    webhookEndpointPublicEvents,
    counterpartyPublicEvents,
    liquidityFacilityPublicEvents,
    accountPublicEvents,
    transferPublicEvents,
    fxQuotePublicEvents,
    fxTradePublicEvents,
    agentPublicEvents,
    agentSpendPublicEvents,
    invoicePublicEvents,
  ]
  t.same(new Set(registeredPublicEventMappers), new Set(registered))
  const byType = registered.flatMap((mappers) => Object.entries(mappers))
  t.same(new Map(byType), publicEventMappers, 'one lookup: each stored type to its aggregate’s mapper')
  for (const aggregate of AGGREGATES)
    for (const type of Object.keys(aggregate.publicEvents ?? {}))
      t.ok(Object.hasOwn(aggregate.eventSchemas, type), `${aggregate.name} maps ${type}, one of its own event types`)
})

t.test('two mappers of one stored type are refused when the lookup is built, not per event', async (t) => {
  const again = { FundsCredited: () => undefined }
  t.throws(() => publicEventLookupOf([...registeredPublicEventMappers, again]), /FundsCredited is mapped by two public event mappers/)
})
