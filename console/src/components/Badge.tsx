// A status as a coloured label: green when settled well, red when failed, amber while waiting.
import type { JSX } from 'preact'

const GOOD = new Set(['ACTIVE', 'APPROVED', 'COMPLETED', 'PAID', 'SUCCEEDED', 'DELIVERED', 'ENABLED', 'HEALTHY', 'OK', 'ok'])
const BAD = new Set([
  'FAILED',
  'REJECTED',
  'RETURNED',
  'CANCELLED',
  'DISABLED',
  'REVOKED',
  'CLOSED',
  'EXPIRED',
  'PARKED',
  'STALLED',
  'degraded',
  'failing',
  'parked',
])

export function Badge(props: { value: string | undefined | null }): JSX.Element {
  const value = props.value ?? '—'
  const tone = GOOD.has(value) ? 'good' : BAD.has(value) ? 'bad' : 'wait'
  return <span class={`badge ${tone}`}>{value}</span>
}
