// SWIFT routing (domain/rails/swiftRouting.ts): the metadata.swiftRouting object of a SWIFT payout,
// its steps by stage, BIC validation, and the untracked auto-completion limit and remark.
import t from 'tap'
import { SWIFT_LIMITS, SWIFT_ROUTING_SOURCE, SWIFT_UNTRACKED_SYSTEM_REMARK, swiftRouting } from '../../../domain/rails/index.js'

const now = new Date('2026-11-24T15:00:00Z')

t.test('a cross-border payout passes a correspondent; statuses follow the stage', async (t) => {
  const sent = swiftRouting({ senderBic: 'deutdeff', receiverBic: 'CHASUS33XXX', now })
  if (!sent.ok) throw new Error(sent.error.message)
  t.same(sent.value, {
    source: SWIFT_ROUTING_SOURCE,
    senderBic: 'DEUTDEFF',
    receiverBic: 'CHASUS33XXX',
    checkedAt: '2026-11-24T15:00:00.000Z',
    steps: [
      { label: 'Ordering institution', bic: 'DEUTDEFF', bankName: 'Sandbox Bank Deutschland', status: 'COMPLETED' },
      { label: 'Intermediary (correspondent)', bic: 'SBXCUS33', bankName: 'Sandbox Correspondent New York', status: 'PENDING' },
      { label: 'Beneficiary institution', bic: 'CHASUS33XXX', bankName: 'Sandbox Bank USA', status: 'PENDING' },
    ],
  })
  const statuses = (stage: 'SENT' | 'AT_CORRESPONDENT' | 'CREDITED' | 'UNTRACKED') => {
    const routing = swiftRouting({ senderBic: 'DEUTDEFF', receiverBic: 'CHASUS33', now, stage })
    return routing.ok ? routing.value.steps.map((step) => step.status) : []
  }
  t.same(statuses('AT_CORRESPONDENT'), ['COMPLETED', 'COMPLETED', 'PENDING'])
  t.same(statuses('CREDITED'), ['COMPLETED', 'COMPLETED', 'COMPLETED'])
  t.same(statuses('UNTRACKED'), ['COMPLETED', 'UNKNOWN', 'UNKNOWN'])
})

t.test('a domestic payout has no intermediary; an unknown country gets a generic sandbox name', async (t) => {
  const domestic = swiftRouting({ senderBic: 'BARCGB22', receiverBic: 'HBUKGB4B', now })
  t.same(domestic.ok && domestic.value.steps.map((step) => step.label), ['Ordering institution', 'Beneficiary institution'])
  const japan = swiftRouting({ senderBic: 'CHASUS33', receiverBic: 'BOTKJPJT', now })
  t.same(japan.ok && japan.value.steps.map((step) => step.bankName), [
    'Sandbox Bank USA',
    'Sandbox Correspondent New York',
    'Sandbox Bank JP',
  ])
})

t.test('an invalid BIC is refused naming its field', async (t) => {
  const bad = swiftRouting({ senderBic: 'DEUTDEFF', receiverBic: 'CHAS', now })
  t.equal(bad.ok, false)
  t.match(!bad.ok && bad.error.details[0], { field: 'receiverBic' })
  const badSender = swiftRouting({ senderBic: 'DEUTZZFF', receiverBic: 'CHASUS33', now })
  t.match(!badSender.ok && badSender.error.details[0], { field: 'senderBic' })
})

t.test('an untracked SWIFT payout auto-completes after 24 hours with the spec’s remark', async (t) => {
  t.equal(SWIFT_LIMITS.untrackedAutoCompleteAfterMs, 86_400_000)
  t.match(SWIFT_UNTRACKED_SYSTEM_REMARK, /without tracking/)
  t.match(SWIFT_UNTRACKED_SYSTEM_REMARK, /24 hours/)
  t.match(SWIFT_UNTRACKED_SYSTEM_REMARK, /assumed settlement/)
})
