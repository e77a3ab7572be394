// The Transfer resource (domain/transfer/resource.ts) and the public transfer.* events
// (publicEvents.ts): every field of the spec's Transfer and Transfer leg tables, null where it does
// not apply; money with displayValue; the remitter's account number masked to its last four; the
// schema parses every resource built (no field beyond it); transfer.created carries the resource,
// transfer.updated data.status and source.originator (IN_REVIEW after funds: Events rule 2), and
// transfer.failed only a failure before funds.
import t, { type Test } from 'tap'
import { PUBLIC_EVENT_TYPES, type PublicEvent, publicEventOf } from '../../../domain/publicEvents.js'
import { swiftRouting } from '../../../domain/rails/index.js'
import { fromWire } from '../../../domain/shared/money/index.js'
import { type TransferEvent, transferEventSchemas } from '../../../domain/transfer/events.js'
import { transferPublicEvents } from '../../../domain/transfer/publicEvents.js'
import { type TransferResource, toTransferResource, transferResourceSchema } from '../../../domain/transfer/resource.js'
import {
  CUSTOMER,
  ORIGINATOR,
  SIDES,
  TRANSFER,
  agentApprovalAsked,
  agentDecision,
  at,
  cmd,
  internalPlan,
  opened,
  plan,
  run,
} from './transferFixtures.js'

/** The spec's Transfer table, field by field (counterparty is present only when expanded). */
const SPEC_TRANSFER_FIELDS = [
  'id',
  'organizationId',
  'sourceCustomerId',
  'flow',
  'status',
  'source',
  'destination',
  'sourceAmount',
  'destinationAmount',
  'createdAt',
  'updatedAt',
  'legs',
  'fundingNeeded',
  'clientReferenceId',
  'counterpartyId',
  'agentId',
  'agentApprovalStatus',
  'agentApproval',
  'refund',
  'quoteId',
  'exchangeRate',
  'referenceRate',
  'referenceRateAsOf',
  'referenceProvider',
  'developerFeeFixed',
  'developerFeePercent',
  'developerFee',
  'depositInstructions',
  'returnedToAccountId',
  'returnedAt',
  'currentLegIndex',
  'isThirdParty',
  'remarks',
  'internalRemarks',
  'uetr',
  'imad',
  'omad',
  'achTraceNumber',
  'txHash',
  'originatingAccount',
  'systemRemark',
  'metadata',
  'estimatedSettlementAt',
  'nextCutoffAt',
  'cutoffTimezone',
]
/** Ours, beyond the spec's table: why it failed, was held in review or was reversed. */
// draftId: the transfer draft it was made from (issue 27), beside the spec's fields.
const OUR_FIELDS = ['failureReason', 'draftId']
const SPEC_SOURCE_FIELDS = [
  'currency',
  'paymentRail',
  'fundingCurrency',
  'direction',
  'accountId',
  'accountType',
  'externalAccountId',
  'fromAddress',
  'refundAccountId',
  'accountName',
  'originator',
]
const SPEC_ORIGINATOR_FIELDS = ['name', 'bankName', 'routingNumber', 'accountNumber', 'swiftBic', 'bankCountry']
const SPEC_DESTINATION_FIELDS = [
  'currency',
  'paymentRail',
  'accountId',
  'accountType',
  'externalAccountId',
  'toAddress',
  'accountName',
  'bankName',
  'bankCountryCode',
  'wireMessage',
  'achReference',
  'swiftReference',
  'rtpReference',
  'payoutReference',
]
const SPEC_LEG_FIELDS = [
  'id',
  'sequence',
  'type',
  'inputCurrency',
  'outputCurrency',
  'inputRail',
  'outputRail',
  'status',
  'startedAt',
  'completedAt',
  'uetr',
  'imad',
  'omad',
  'achTraceNumber',
  'txHash',
  'developerFee',
  'feeTxHash',
]
const SPEC_REFUND_FIELDS = ['status', 'reason', 'amount', 'address', 'txHash', 'initiatedAt', 'completedAt']
const SPEC_DEVELOPER_FEE_FIELDS = ['amount', 'fixed', 'percent', 'txHash']
const SPEC_DEPOSIT_FIELDS = ['type', 'paymentRail', 'toAddress', 'amount', 'blockchainMemo', 'accountId']
const SPEC_ORIGINATING_ACCOUNT_FIELDS = ['bankName', 'routingNumber', 'accountNumber']
const MONEY_FIELDS = ['currency', 'exponent', 'value', 'displayValue']

const sorted = (keys: Iterable<string>) => [...keys].sort()

/** Every money object of a resource, with where it is. */
function moneyOf(r: TransferResource): [string, unknown][] {
  return [
    ['sourceAmount', r.sourceAmount],
    ['destinationAmount', r.destinationAmount],
    ...(r.developerFee ? [['developerFee.amount', r.developerFee.amount] as [string, unknown]] : []),
    ...(r.refund ? [['refund.amount', r.refund.amount] as [string, unknown]] : []),
    ...(r.depositInstructions ? [['depositInstructions.amount', r.depositInstructions.amount] as [string, unknown]] : []),
    ...r.legs.flatMap((leg, i) => (leg.developerFee ? [[`legs.${i}.developerFee`, leg.developerFee] as [string, unknown]] : [])),
  ]
}

/** The shape checks every resource passes, whatever its state. */
function checkShape(t: Test, r: TransferResource, name: string) {
  t.same(sorted(Object.keys(r)), sorted([...SPEC_TRANSFER_FIELDS, ...OUR_FIELDS]), `${name}: every spec field, and ours only`)
  t.notOk(
    Object.values(r).some((v) => v === undefined),
    `${name}: no field undefined (null where it does not apply)`,
  )
  t.same(sorted(Object.keys(r.source)), sorted(SPEC_SOURCE_FIELDS), `${name}: source fields`)
  if (r.source.originator) t.same(sorted(Object.keys(r.source.originator)), sorted(SPEC_ORIGINATOR_FIELDS), `${name}: originator`)
  t.same(sorted(Object.keys(r.destination)), sorted(SPEC_DESTINATION_FIELDS), `${name}: destination fields`)
  for (const leg of r.legs) t.same(sorted(Object.keys(leg)), sorted(SPEC_LEG_FIELDS), `${name}: leg ${leg.sequence} fields`)
  t.same(
    r.legs.map((leg) => leg.sequence),
    r.legs.map((_, i) => i),
    `${name}: sequences from 0`,
  )
  t.ok(
    r.legs.every((leg) => leg.id.startsWith('tleg_')),
    `${name}: tleg_ ids`,
  )
  if (r.refund) t.same(sorted(Object.keys(r.refund)), sorted(SPEC_REFUND_FIELDS), `${name}: refund fields`)
  if (r.developerFee) t.same(sorted(Object.keys(r.developerFee)), sorted(SPEC_DEVELOPER_FEE_FIELDS), `${name}: developerFee fields`)
  if (r.depositInstructions)
    t.ok(
      SPEC_DEPOSIT_FIELDS.every((f) => f in r.depositInstructions!),
      `${name}: depositInstructions has the spec's fields`,
    )
  if (r.originatingAccount)
    t.same(sorted(Object.keys(r.originatingAccount)), sorted(SPEC_ORIGINATING_ACCOUNT_FIELDS), `${name}: originatingAccount fields`)
  for (const [where, m] of moneyOf(r)) {
    t.same(sorted(Object.keys(m as object)), sorted(MONEY_FIELDS), `${name}: ${where} is a money object`)
    t.doesNotThrow(() => fromWire(m as TransferResource['sourceAmount']), `${name}: ${where} displayValue agrees with value`)
  }
  const parsed = transferResourceSchema.strict().safeParse(r)
  t.ok(parsed.success, `${name}: transferResourceSchema parses it, strictly`)
  t.same(parsed.data, r, `${name}: unchanged by the schema`)
}

const withFee = { fee: { fixedMinor: 1_000_000n, percent: '0.01' } }
const cryptoPlan = (o: Parameters<typeof plan>[2] = {}) => plan(SIDES.ethUsdc, SIDES.solUsdc, o)
const routing = swiftRouting({ senderBic: 'CHASUS33XXX', receiverBic: 'DEUTDEFFXXX', now: new Date(at(0)) })

const SCENARIOS: Record<string, TransferEvent[]> = {
  'crypto deposit, created': run([cmd.create(cryptoPlan())]),
  'agent transfer over a limit, approved': run([...agentApprovalAsked, agentDecision(at(2), 'APPROVED')]),
  'crypto deposit with fee, completed': run([
    cmd.create(cryptoPlan(withFee)),
    cmd.fundDeposit(at(1)),
    cmd.advance(at(2)),
    cmd.advance(at(3)),
  ]),
  'ACH deposit → SEPA, funded with an originator': run([
    cmd.create(plan(SIDES.ach, SIDES.sepa, { fee: { fixedMinor: 100n, percent: '0.01' } })),
    cmd.fundDeposit(at(1)),
  ]),
  'internal draft': run([cmd.create(internalPlan({ status: 'DRAFT' }))]),
  'internal, failed': run([cmd.create(internalPlan()), cmd.fail(at(1))]),
  'internal, cancelled': run([cmd.create(internalPlan()), cmd.cancel(at(1))]),
  'deposit, in review': run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1)), cmd.fail(at(2))]),
  'deposit, refunded': run([
    cmd.create(cryptoPlan()),
    cmd.fundDeposit(at(1)),
    cmd.fail(at(2)),
    cmd.refund(at(3), SIDES.usdcBalance.accountId),
    cmd.completeRefund(at(4)),
  ]),
  'balance → ACH, returned': run([
    cmd.create(plan(SIDES.usdBalance, SIDES.ach, { sandboxTrigger: 'RETURN_AFTER_COMPLETION' })),
    cmd.fundBalance(at(1)),
    cmd.advance(at(2)),
    cmd.advance(at(3)),
    cmd.advance(at(4)),
  ]),
  'SWIFT untracked, assumed settled': run([
    cmd.create({
      ...plan(SIDES.usdBalance, SIDES.swiftUsd, { sandboxTrigger: 'SWIFT_UNTRACKED' }),
      swiftRouting: routing.ok ? routing.value : null,
      metadata: { orderId: 'A-1' },
    }),
    cmd.fundBalance(at(1)),
    cmd.advance(at(2)),
    cmd.assumeSwift(at(86_402), 1),
  ]),
}

t.test('every resource has every spec field, money with displayValue, and passes the strict schema', async (t) => {
  for (const [name, events] of Object.entries(SCENARIOS)) checkShape(t, toTransferResource(opened(events)), name)
})

t.test('null where a field does not apply: a fresh crypto deposit transfer', async (t) => {
  const r = toTransferResource(opened(SCENARIOS['crypto deposit, created']!))
  for (const field of [
    'clientReferenceId',
    'counterpartyId',
    'agentId',
    'agentApprovalStatus',
    'agentApproval',
    'refund',
    'quoteId',
    'draftId',
    'developerFee',
    'returnedToAccountId',
    'returnedAt',
    'remarks',
    'internalRemarks',
    'uetr',
    'imad',
    'omad',
    'achTraceNumber',
    'txHash',
    'originatingAccount',
    'systemRemark',
    'failureReason',
  ] as const)
    t.equal(r[field], null, `${field} is null`)
  t.equal(r.source.originator, null, 'no remitter known yet')
  t.equal(r.source.accountId, null, 'no source account')
  t.equal(r.status, 'PENDING')
  t.equal(r.fundingNeeded, true, 'waiting for the deposit')
  t.match(r.depositInstructions, { type: 'crypto', paymentRail: 'ETHEREUM', toAddress: '0xdeposit', blockchainMemo: null, accountId: null })
  t.same(r.depositInstructions?.amount, { currency: 'USDC', exponent: 6, value: '10000000000', displayValue: '10000.000000' })
  t.same(r.metadata, {})
  t.equal(r.developerFeePercent, null)
  t.equal(r.currentLegIndex, 0)
  t.same(r.source.direction, 'CREDIT')
  t.equal(r.source.fundingCurrency, 'USDC')
  t.ok(
    r.legs.every((leg) => leg.status === 'PENDING' && leg.startedAt === null && leg.txHash === null && leg.developerFee === null),
    'no leg ran',
  )
})

t.test('fees, tracking and the remitter as the resource shows them', async (t) => {
  const done = toTransferResource(opened(SCENARIOS['crypto deposit with fee, completed']!))
  t.equal(done.status, 'COMPLETED')
  t.equal(done.fundingNeeded, false)
  t.same(done.developerFee?.amount, { currency: 'USDC', exponent: 6, value: '101000000', displayValue: '101.000000' })
  t.match(done.developerFee, { fixed: '1000000', percent: 0.01 })
  t.equal(done.developerFeeFixed, '1000000')
  t.equal(done.developerFeePercent, 0.01)
  t.same(done.legs[0]!.developerFee, done.developerFee?.amount, 'withheld on the first leg')
  t.equal(done.legs[1]!.developerFee, null)
  t.equal(done.txHash, done.legs[1]!.txHash, 'the payout’s hash on the transfer')
  t.equal(done.developerFee?.txHash, done.legs[1]!.feeTxHash, 'the fee’s own hash')
  t.ok(done.developerFee?.txHash)

  const funded = toTransferResource(opened(SCENARIOS['ACH deposit → SEPA, funded with an originator']!))
  t.same(funded.source.originator, { ...ORIGINATOR, accountNumber: '6789' }, 'the account number masked to its last four')
  t.same(funded.originatingAccount, { bankName: ORIGINATOR.bankName, routingNumber: ORIGINATOR.routingNumber, accountNumber: '6789' })
  t.notOk(JSON.stringify(funded).includes(ORIGINATOR.accountNumber), 'the full number appears nowhere')
  t.equal(funded.achTraceNumber, funded.legs[0]!.achTraceNumber, 'the deposit’s trace number')
  t.equal(funded.status, 'PROCESSING')
  t.equal(funded.currentLegIndex, 1)

  const swift = toTransferResource(opened(SCENARIOS['SWIFT untracked, assumed settled']!))
  t.match(swift.systemRemark, /assumed settlement/)
  t.equal(swift.uetr, null, 'untracked')
  t.match(swift.metadata, { orderId: 'A-1', swiftRouting: { senderBic: 'CHASUS33XXX', receiverBic: 'DEUTDEFFXXX' } })

  const returned = toTransferResource(opened(SCENARIOS['balance → ACH, returned']!))
  t.equal(returned.status, 'REVERSED')
  t.equal(returned.returnedToAccountId, SIDES.usdBalance.accountId)
  t.equal(returned.returnedAt, at(4))
  t.match(returned.failureReason, { code: 'R01' })
  t.equal(returned.source.accountId, SIDES.usdBalance.accountId)

  const refunded = toTransferResource(opened(SCENARIOS['deposit, refunded']!))
  t.match(refunded.refund, {
    status: 'COMPLETED',
    reason: 'returned to sender',
    txHash: '0xrefundhash',
    initiatedAt: at(3),
    completedAt: at(4),
  })
  t.equal(refunded.returnedToAccountId, SIDES.usdcBalance.accountId)

  t.match(toTransferResource(opened(SCENARIOS['deposit, in review']!)).failureReason, { code: 'rail_down' })
  t.match(toTransferResource(opened(SCENARIOS['internal, failed']!)), { status: 'FAILED', failureReason: { code: 'rail_down' } })
  t.equal(toTransferResource(opened(SCENARIOS['internal draft']!)).fundingNeeded, false, 'a balance pays it: no deposit needed')
})

const publish = (e: TransferEvent): PublicEvent | undefined =>
  publicEventOf(transferPublicEvents, { type: e.type, data: e.data, recordedAt: new Date(at(0)) })

t.test('transfer.created carries the whole resource, source.originator null at creation', async (t) => {
  for (const events of Object.values(SCENARIOS)) {
    const created = events[0]!
    const p = publish(created)
    t.equal(p?.type, 'transfer.created')
    t.same(p?.data, toTransferResource(opened([created])), 'the resource as created')
    t.match(p?.data, { source: { originator: null } })
    t.same(p?.tags, [TRANSFER, CUSTOMER])
  }
})

t.test('transfer.updated carries data.status and source.originator (masked); IN_REVIEW after funds', async (t) => {
  const reviewed = run([cmd.create(plan(SIDES.ach, SIDES.sepa)), cmd.fundDeposit(at(1)), cmd.fail(at(2))])
  const held = publish(reviewed.at(-1)!)
  t.equal(held?.type, 'transfer.updated', 'an operational problem after funds is an update (rule 2)')
  t.match(held?.data, {
    id: TRANSFER,
    status: 'IN_REVIEW',
    agentId: null,
    source: { originator: { ...ORIGINATOR, name: null, accountNumber: '6789' } },
    reason: { code: 'rail_down', message: 'The rail is down' },
  })
  t.notOk(JSON.stringify(held).includes(ORIGINATOR.accountNumber), 'masked')

  const submitted = run([cmd.create(internalPlan({ status: 'DRAFT' })), cmd.submit(at(1))])
  t.match(publish(submitted.at(-1)!), { type: 'transfer.updated', data: { status: 'PENDING', source: { originator: null } } })

  const steps = run([cmd.create(plan(SIDES.ach, SIDES.sepa)), cmd.fundDeposit(at(1)), cmd.advance(at(2)), cmd.advance(at(3))])
  for (const e of steps.filter((e) => e.type === 'TransferLegStarted' || e.type === 'TransferLegCompleted'))
    t.match(publish(e), {
      type: 'transfer.updated',
      data: { status: 'PROCESSING', source: { originator: { accountNumber: '6789' } }, legIndex: Number },
    })
  t.match(publish(steps[1]!), { type: 'transfer.processing', data: { status: 'PROCESSING', fundingMethod: 'DEPOSIT' } })
})

t.test('transfer.failed only for a failure before funds; every event maps to a known transfer.* type', async (t) => {
  const all = [
    ...Object.values(SCENARIOS).flat(),
    ...run([cmd.create(internalPlan({ status: 'DRAFT' })), cmd.submit(at(1))]),
    ...run([
      cmd.create(cryptoPlan({ sandboxTrigger: 'REVIEW_AFTER_FUNDING' })),
      cmd.fundDeposit(at(1)),
      cmd.advance(at(2)),
      cmd.advance(at(3)),
    ]),
    ...run([
      cmd.create(internalPlan()),
      cmd.fundBalance(at(1)),
      cmd.advance(at(2)),
      cmd.suspend(at(3), 'DELIVERY', 'clearing'),
      cmd.resolve(at(4), SIDES.usdBalance.accountId),
    ]),
  ]
  const seen = new Set(all.map((e) => e.type))
  t.same(sorted(seen), sorted(Object.keys(transferEventSchemas)), 'the samples cover every transfer event type')
  const known = new Set<string>(PUBLIC_EVENT_TYPES)
  for (const e of all) {
    const p = publish(e)
    t.ok(p, `${e.type} is published`)
    if (!p) continue
    t.ok(p.type.startsWith('transfer.') && known.has(p.type), `${e.type} → ${p.type}, a known transfer.* type`)
    t.equal(p.type === 'transfer.failed', e.type === 'TransferFailed', `${e.type}: transfer.failed only for TransferFailed`)
    const agentId = ('agentId' in e.data ? e.data.agentId : null) ?? null
    t.ok('agentId' in p.data && p.data.agentId === agentId, `${e.type}: agentId on the payload (${agentId})`)
    const approval = ('agentApprovalStatus' in e.data ? e.data.agentApprovalStatus : null) ?? null
    t.ok('agentApprovalStatus' in p.data && p.data.agentApprovalStatus === approval, `${e.type}: agentApprovalStatus on the payload`)
    t.equal(p.data.id, TRANSFER)
    t.ok(p.tags.includes(TRANSFER), `${e.type}: tagged with the transfer`)
    if (p.type === 'transfer.updated') t.ok('status' in p.data && 'source' in p.data, `${e.type}: status and source.originator`)
  }
  t.same(
    sorted(new Set(all.map((e) => publish(e)?.type ?? ''))),
    sorted(PUBLIC_EVENT_TYPES.filter((type) => type.startsWith('transfer.'))),
    'every spec transfer.* type is produced by some event',
  )
})
