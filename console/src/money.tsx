// A money amount as the API sends it ({ currency, value, displayValue }) or a bare minor-unit string with its currency.
import type { JSX } from 'preact'

type MoneyLike = { currency?: string; value?: string; displayValue?: string } | string | null | undefined

export function Money(props: { amount: MoneyLike; currency?: string }): JSX.Element {
  const { amount } = props
  if (amount === null || amount === undefined) return <span class="muted">—</span>
  if (typeof amount === 'string') return <span class="money">{`${amount} ${props.currency ?? ''} (minor units)`.trim()}</span>
  return <span class="money">{`${amount.displayValue ?? amount.value ?? ''} ${amount.currency ?? props.currency ?? ''}`.trim()}</span>
}
