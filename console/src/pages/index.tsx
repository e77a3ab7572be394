// Which pages a session sees (by its key's role) and which page a path shows.
import type { JSX } from 'preact'
import { match } from '../router.js'
import { AccountPage, AccountsPage } from './accounts.js'
import { AgentPage, AgentsPage } from './agents.js'
import { CustomerPage, CustomersPage } from './customers.js'
import { FxTradePage, FxTradesPage } from './fxTrades.js'
import { ConsumersPage, ParkedEventsPage, ResourceHistoryPage } from './operator.js'
import { TransferPage, TransfersPage } from './transfers.js'
import { WebhookEndpointPage, WebhookEndpointsPage } from './webhookEndpoints.js'
import { WebhookMessagePage, WebhookMessagesPage } from './webhookMessages.js'

type Route = { pattern: string; page: (params: Record<string, string>) => JSX.Element }

const TENANT_ROUTES: Route[] = [
  { pattern: '/', page: () => <CustomersPage /> },
  { pattern: '/customers', page: () => <CustomersPage /> },
  { pattern: '/customers/:id', page: (p) => <CustomerPage id={p.id!} /> },
  { pattern: '/accounts', page: () => <AccountsPage /> },
  { pattern: '/accounts/:id', page: (p) => <AccountPage id={p.id!} /> },
  { pattern: '/transfers', page: () => <TransfersPage /> },
  { pattern: '/transfers/:id', page: (p) => <TransferPage id={p.id!} /> },
  { pattern: '/fx-trades', page: () => <FxTradesPage /> },
  { pattern: '/fx-trades/:id', page: (p) => <FxTradePage id={p.id!} /> },
  { pattern: '/agents', page: () => <AgentsPage /> },
  { pattern: '/agents/:id', page: (p) => <AgentPage id={p.id!} /> },
  { pattern: '/webhooks', page: () => <WebhookEndpointsPage /> },
  { pattern: '/webhooks/endpoints/:id', page: (p) => <WebhookEndpointPage id={p.id!} /> },
  { pattern: '/webhooks/messages', page: () => <WebhookMessagesPage /> },
  { pattern: '/webhooks/messages/:id', page: (p) => <WebhookMessagePage id={p.id!} /> },
]

const OPERATOR_ROUTES: Route[] = [
  { pattern: '/', page: () => <ConsumersPage /> },
  { pattern: '/operator/consumers', page: () => <ConsumersPage /> },
  { pattern: '/operator/parked', page: () => <ParkedEventsPage /> },
  { pattern: '/operator/history', page: () => <ResourceHistoryPage /> },
]

const TENANT_LINKS = [
  { to: '/customers', title: 'Customers' },
  { to: '/accounts', title: 'Accounts' },
  { to: '/transfers', title: 'Transfers' },
  { to: '/fx-trades', title: 'FX trades' },
  { to: '/agents', title: 'Agents' },
  { to: '/webhooks', title: 'Webhooks' },
]

const OPERATOR_LINKS = [
  { to: '/operator/consumers', title: 'Consumers' },
  { to: '/operator/parked', title: 'Parked events' },
  { to: '/operator/history', title: 'Resource history' },
]

const isOperator = (role: string): boolean => role === 'OPERATOR'

export function navigationFor(role: string): { to: string; title: string }[] {
  return isOperator(role) ? OPERATOR_LINKS : TENANT_LINKS
}

export function pageFor(path: string, role: string): JSX.Element {
  for (const route of isOperator(role) ? OPERATOR_ROUTES : TENANT_ROUTES) {
    const params = match(route.pattern, path)
    if (params) return route.page(params)
  }
  return (
    <section>
      <h1>Not found</h1>
      <p class="muted">No console page at {path}.</p>
    </section>
  )
}
