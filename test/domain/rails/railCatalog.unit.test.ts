// The rail catalog (domain/rails/railCatalog.ts): every rail is a spec payment rail with a real
// IANA zone, well-formed ordered cut-offs, and the tracking ids its messages carry.
import t from 'tap'
import {
  CHAIN_TX_HASHES,
  RAIL_CATALOG,
  SANDBOX_RAILS,
  SWIFT_SETTLEMENT_SYSTEMS,
  isSandboxRail,
  railFacts,
} from '../../../domain/rails/index.js'
import { CHAINS } from '../../../domain/shared/chain/index.js'
import { PAYMENT_RAILS } from '../../../domain/shared/paymentRails.js'

t.test('the rail list names every catalog rail once, and each is a spec payment rail', async (t) => {
  t.same([...SANDBOX_RAILS].sort(), Object.keys(RAIL_CATALOG).sort())
  t.equal(new Set(SANDBOX_RAILS).size, SANDBOX_RAILS.length)
  for (const rail of SANDBOX_RAILS) t.ok((PAYMENT_RAILS as readonly string[]).includes(rail), rail)
  t.ok(isSandboxRail('ACH'))
  t.notOk(isSandboxRail('UPI'), 'a spec rail the sandbox does not settle')
  t.notOk(isSandboxRail('toString'), 'no prototype keys')
})

t.test('each rail has a valid zone and cut-offs in time order', async (t) => {
  const facts = [...SANDBOX_RAILS.map((rail) => railFacts(rail)), ...Object.values(SWIFT_SETTLEMENT_SYSTEMS)]
  for (const rail of facts) {
    t.doesNotThrow(() => new Intl.DateTimeFormat('en', { timeZone: rail.timeZone }), rail.timeZone)
    const minutes = rail.windows.map((w) => w.cutoff.hour * 60 + w.cutoff.minute)
    t.same(
      minutes,
      [...minutes].sort((a, b) => a - b),
      'in order',
    )
    t.ok(minutes.every((m) => m >= 0 && m < 24 * 60))
    t.equal(rail.windows.length === 0, rail.calendar === 'ALWAYS_OPEN', '24/7 exactly when without cut-offs')
  }
})

t.test('the zones and tracking ids the brief names', async (t) => {
  t.equal(RAIL_CATALOG.ACH.timeZone, 'America/New_York')
  t.equal(RAIL_CATALOG.FEDWIRE.timeZone, 'America/New_York')
  t.equal(RAIL_CATALOG.SEPA.timeZone, 'Europe/Berlin')
  t.equal(RAIL_CATALOG.CHAPS.timeZone, 'Europe/London')
  t.equal(RAIL_CATALOG.SPEI.timeZone, 'America/Mexico_City')
  t.equal(RAIL_CATALOG.PIX.timeZone, 'America/Sao_Paulo')
  t.same(RAIL_CATALOG.WIRE.trackingIds, ['imad', 'omad'])
  t.same(RAIL_CATALOG.ACH_SAME_DAY.trackingIds, ['achTraceNumber'])
  t.same(RAIL_CATALOG.SWIFT.trackingIds, ['uetr'])
  t.equal(railFacts('SWIFT', 'EUR').timeZone, 'Europe/Berlin')
  t.same(Object.keys(CHAIN_TX_HASHES).sort(), [...CHAINS].sort(), 'every chain has a tx hash format')
})
