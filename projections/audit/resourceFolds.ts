// What a read model would hold for one resource after a prefix of its stream: each resource the audit
// area reads as of a revision or a time, folded with its projector's own steps (the decider's evolve
// the projector runs, the account row's patches, the balances' work), so the row an earlier revision
// gives is the row the projector wrote then. The read API makes the resource from it as its live read does.
import type { AccountEvent } from '../../domain/account/events.js'
import { accountAggregate } from '../../domain/account/index.js'
import { agentAggregate } from '../../domain/agent/index.js'
import { customerAggregate } from '../../domain/customer/index.js'
import { fxTradeAggregate } from '../../domain/fx-trade/index.js'
import { invoiceAggregate } from '../../domain/invoice/index.js'
import { transferAggregate } from '../../domain/transfer/index.js'
import { webhookEndpointAggregate } from '../../domain/webhook-endpoint/index.js'
import type { AccountResource } from '../../domain/account/resource.js'
import type { AgentState, OpenAgent } from '../../domain/agent/decider.js'
import type { AgentEvent } from '../../domain/agent/events.js'
import type { CustomerEvent } from '../../domain/customer/events.js'
import { type Customer, type CustomerState, evolveCustomer, initialCustomerState } from '../../domain/customer/state.js'
import type { FxTradeState, OpenFxTrade } from '../../domain/fx-trade/decider.js'
import type { FxTradeEvent } from '../../domain/fx-trade/events.js'
import type { InvoiceEvent } from '../../domain/invoice/events.js'
import type { ExistingInvoice, InvoiceState } from '../../domain/invoice/state.js'
import type { TransferEvent } from '../../domain/transfer/events.js'
import type { OpenTransferState, TransferState } from '../../domain/transfer/state.js'
import type { WebhookEndpointState } from '../../domain/webhook-endpoint/decider.js'
import type { WebhookEndpointEvent } from '../../domain/webhook-endpoint/events.js'
import type { DomainEvent } from '../../domain/decider.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { accountResourceAfter } from '../accounts.js'
import { type BalanceWork, applyBalanceEvent, balanceOfWork, forgetBalanceWrites, newBalanceWork } from '../balances.js'
import { parsedEvent } from '../parsedEvent.js'

/** The resources the audit area reads as of a revision or a time (issue 29, point 3). */
export const AUDIT_RESOURCE_TYPES = [
  'CUSTOMER',
  'ACCOUNT',
  'BALANCE',
  'TRANSFER',
  'FX_TRADE',
  'AGENT',
  'INVOICE',
  'WEBHOOK_ENDPOINT',
] as const
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number]

/** A balance account's balance as its rows would hold it. */
export type FoldedBalance = { accountId: string; updatedAt: string; balances: { currency: string; available: string; committed: string }[] }
/** An endpoint that exists (its state's status is then active; deleted is a gap). */
type OpenEndpoint = Exclude<WebhookEndpointState, { status: 'none' }>

/** What each resource's fold gives when the resource exists at that point: what its live read makes the resource from. */
export type FoldedRow = {
  CUSTOMER: Customer
  ACCOUNT: AccountResource
  BALANCE: FoldedBalance
  TRANSFER: OpenTransferState
  FX_TRADE: OpenFxTrade
  AGENT: OpenAgent
  INVOICE: ExistingInvoice
  WEBHOOK_ENDPOINT: OpenEndpoint
}

/** Why a fold has no row: the resource was deleted by then, or (a balance) the account holds none. */
export type FoldGap = 'deleted' | 'holds_no_balance'

/** One resource's fold over its state `S`. */
type ResourceFold<S, Row> = {
  /** The stream category the resource's events are in (`<category>-<id>`). */
  category: string
  initial(): S
  /** `event` parsed (and upcast) as every consumer sees it. */
  apply(state: S, event: RecordedEvent): S
  finish(state: S, id: string): Row | FoldGap
}

/** A fold started for one resource, its state kept inside: one table holds folds of different states. */
export type RunningFold<Row> = { apply(event: RecordedEvent): void; finish(): Row | FoldGap }
export type RowFold<Row> = { category: string; start(id: string): RunningFold<Row> }

function rowFold<S, Row>(fold: ResourceFold<S, Row>): RowFold<Row> {
  return {
    category: fold.category,
    start(id) {
      let state = fold.initial()
      return {
        apply: (event) => {
          state = fold.apply(state, event)
        },
        finish: () => fold.finish(state, id),
      }
    },
  }
}

/** A fold of the decider's own evolve, the one its projector runs. */
function deciderFold<S, E extends DomainEvent, Row>(
  aggregate: { streamCategory: string; decider: { initialState(): S; evolve(state: S, event: E): S } },
  row: (state: S) => Row | FoldGap,
): ResourceFold<S, Row> {
  const { decider } = aggregate
  return {
    category: aggregate.streamCategory,
    initial: () => decider.initialState(),
    apply: (state, event) => decider.evolve(state, parsedEvent<E>(event)),
    finish: (state) => row(state),
  }
}

const customerFold: ResourceFold<CustomerState, Customer> = {
  category: customerAggregate.streamCategory,
  initial: initialCustomerState,
  apply: (state, event) => evolveCustomer(state, parsedEvent<CustomerEvent>(event)),
  finish: (state) => (state.exists ? state : 'deleted'),
}

const accountFold: ResourceFold<AccountResource | undefined, AccountResource> = {
  category: accountAggregate.streamCategory,
  initial: () => undefined,
  apply: (resource, event) => accountResourceAfter(resource, parsedEvent<AccountEvent>(event)),
  // The stream's first event opens the account: a fold that reached any event has a resource.
  finish: (resource) => resource ?? 'deleted',
}

const balanceFold: ResourceFold<BalanceWork, FoldedBalance> = {
  category: accountAggregate.streamCategory,
  initial: newBalanceWork,
  apply: (work, event) => {
    applyBalanceEvent(work, parsedEvent<AccountEvent>(event), event.id)
    forgetBalanceWrites(work)
    return work
  },
  finish: (work, id) => {
    const balance = balanceOfWork(work, id)
    return balance ? { accountId: id, ...balance } : 'holds_no_balance'
  },
}

export const RESOURCE_FOLDS: { readonly [T in AuditResourceType]: RowFold<FoldedRow[T]> } = {
  CUSTOMER: rowFold(customerFold),
  ACCOUNT: rowFold(accountFold),
  BALANCE: rowFold(balanceFold),
  TRANSFER: rowFold(
    deciderFold<TransferState, TransferEvent, OpenTransferState>(transferAggregate, (s) => (s.status === 'none' ? 'deleted' : s)),
  ),
  FX_TRADE: rowFold(deciderFold<FxTradeState, FxTradeEvent, OpenFxTrade>(fxTradeAggregate, (s) => (s.status === 'none' ? 'deleted' : s))),
  AGENT: rowFold(deciderFold<AgentState, AgentEvent, OpenAgent>(agentAggregate, (s) => (s.status === 'none' ? 'deleted' : s))),
  INVOICE: rowFold(
    deciderFold<InvoiceState, InvoiceEvent, ExistingInvoice>(invoiceAggregate, (s) =>
      s.status === 'none' || s.status === 'deleted' ? 'deleted' : s,
    ),
  ),
  WEBHOOK_ENDPOINT: rowFold(
    deciderFold<WebhookEndpointState, WebhookEndpointEvent, OpenEndpoint>(webhookEndpointAggregate, (s) =>
      s.status === 'none' || s.status === 'deleted' ? 'deleted' : s,
    ),
  ),
}
