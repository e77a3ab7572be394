// The `metadata.swiftRouting` object of a SWIFT payout: the chain of banks a sandbox payment passes
// (ordering institution, a correspondent when the payment crosses a border, beneficiary institution)
// as a gpi tracker would report it, and the rule for a payout the tracker never confirms.
import { type Checked, accepted } from '../shared/checked.js'
import { validateBic } from '../shared/bank/bic.js'

export const SWIFT_LIMITS = {
  /** A SWIFT payout without tracking is taken as settled this long after it was sent (the spec's 24 hours). */
  untrackedAutoCompleteAfterMs: 24 * 60 * 60 * 1000,
} as const

/** The transfer's systemRemark when an untracked SWIFT payout is auto-completed. */
export const SWIFT_UNTRACKED_SYSTEM_REMARK = 'SWIFT transfer without tracking auto-completed after 24 hours; flagged as assumed settlement.'

/** Where the routing came from: the sandbox's stand-in for the SWIFT gpi Tracker. */
export const SWIFT_ROUTING_SOURCE = 'SANDBOX_GPI_TRACKER'

export const SWIFT_ROUTING_STAGES = ['SENT', 'AT_CORRESPONDENT', 'CREDITED', 'UNTRACKED'] as const
export type SwiftRoutingStage = (typeof SWIFT_ROUTING_STAGES)[number]

export type SwiftStepStatus = 'COMPLETED' | 'PENDING' | 'UNKNOWN'
export type SwiftRoutingStep = { label: string; bic: string; bankName: string; status: SwiftStepStatus }
export type SwiftRouting = { source: string; senderBic: string; receiverBic: string; checkedAt: string; steps: SwiftRoutingStep[] }

/** Sandbox bank names and the USD/EUR/GBP correspondent used for payments into each country. */
const SANDBOX_BANKS: Readonly<Record<string, { bankName: string; correspondentBic: string; correspondentName: string }>> = {
  US: { bankName: 'Sandbox Bank USA', correspondentBic: 'SBXCUS33', correspondentName: 'Sandbox Correspondent New York' },
  GB: { bankName: 'Sandbox Bank UK', correspondentBic: 'SBXCGB2L', correspondentName: 'Sandbox Correspondent London' },
  DE: { bankName: 'Sandbox Bank Deutschland', correspondentBic: 'SBXCDEFF', correspondentName: 'Sandbox Correspondent Frankfurt' },
  FR: { bankName: 'Sandbox Banque France', correspondentBic: 'SBXCDEFF', correspondentName: 'Sandbox Correspondent Frankfurt' },
  MX: { bankName: 'Sandbox Banco México', correspondentBic: 'SBXCUS33', correspondentName: 'Sandbox Correspondent New York' },
  BR: { bankName: 'Sandbox Banco Brasil', correspondentBic: 'SBXCUS33', correspondentName: 'Sandbox Correspondent New York' },
}
const DEFAULT_CORRESPONDENT = SANDBOX_BANKS.US!

const bankNameOf = (country: string): string => SANDBOX_BANKS[country]?.bankName ?? `Sandbox Bank ${country}`

/** Each step's status at a stage: the tracker confirms steps in order; untracked confirms only the first. */
const STATUSES: Record<SwiftRoutingStage, (index: number, last: number) => SwiftStepStatus> = {
  SENT: (index) => (index === 0 ? 'COMPLETED' : 'PENDING'),
  AT_CORRESPONDENT: (index, last) => (index < last ? 'COMPLETED' : 'PENDING'),
  CREDITED: () => 'COMPLETED',
  UNTRACKED: (index) => (index === 0 ? 'COMPLETED' : 'UNKNOWN'),
}

export type SwiftRoutingInput = { senderBic: string; receiverBic: string; now: Date; stage?: SwiftRoutingStage }

/** The routing of a SWIFT payout from `senderBic` to `receiverBic` as seen at `now`. */
export function swiftRouting(input: SwiftRoutingInput): Checked<SwiftRouting> {
  const sender = validateBic(input.senderBic, 'senderBic')
  if (!sender.ok) return sender
  const receiver = validateBic(input.receiverBic, 'receiverBic')
  if (!receiver.ok) return receiver
  const crossBorder = sender.value.country !== receiver.value.country
  const correspondent = SANDBOX_BANKS[receiver.value.country] ?? DEFAULT_CORRESPONDENT
  const banks = [
    { label: 'Ordering institution', bic: sender.value.bic, bankName: bankNameOf(sender.value.country) },
    ...(crossBorder
      ? [{ label: 'Intermediary (correspondent)', bic: correspondent.correspondentBic, bankName: correspondent.correspondentName }]
      : []),
    { label: 'Beneficiary institution', bic: receiver.value.bic, bankName: bankNameOf(receiver.value.country) },
  ]
  const status = STATUSES[input.stage ?? 'SENT']
  return accepted({
    source: SWIFT_ROUTING_SOURCE,
    senderBic: sender.value.bic,
    receiverBic: receiver.value.bic,
    checkedAt: input.now.toISOString(),
    steps: banks.map((bank, index) => ({ ...bank, status: status(index, banks.length - 1) })),
  })
}
