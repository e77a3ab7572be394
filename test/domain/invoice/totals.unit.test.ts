// Totals: computed in BigInt minor units by the service, each line and the total held to the amount bound.
import t from 'tap'
import { DomainError } from '../../../domain/errors.js'
import { computeTotals } from '../../../domain/invoice/totals.js'

const line = (quantity: number, unitAmount: string) => ({ description: 'x', quantity, unitAmount })

t.test('each line is quantity x unit amount; the total is their sum', async (t) => {
  t.same(computeTotals('USD', [line(2, '1500'), line(1, '2000'), line(3, '0')]), {
    lineItems: [
      { description: 'x', quantity: 2, unitAmountMinor: '1500', amountMinor: '3000' },
      { description: 'x', quantity: 1, unitAmountMinor: '2000', amountMinor: '2000' },
      { description: 'x', quantity: 3, unitAmountMinor: '0', amountMinor: '0' },
    ],
    subtotalMinor: '5000',
    totalMinor: '5000',
  })
})

t.test('exact beyond 2^53: no floating point anywhere', async (t) => {
  // 10^18 USDC minor units is 10^12 USDC, exactly the bound.
  const totals = computeTotals('USDC', [line(1_000_000, '999999999999'), line(1, '1000000')])
  t.equal(totals.totalMinor, '1000000000000000000')
})

t.test('a line or a total above 10^12 major units: 422 amount_too_large naming each', async (t) => {
  const refused = (items: ReturnType<typeof line>[]) => {
    try {
      computeTotals('USD', items)
    } catch (error) {
      return error instanceof DomainError ? { code: error.code, fields: error.details.map((d) => d.field) } : error
    }
    return undefined
  }
  t.same(refused([line(1, '100000000000000')]), undefined, 'exactly 10^12 USD is taken')
  t.same(refused([line(1, '100000000000001')]), { code: 'amount_too_large', fields: ['body.lineItems.0', 'body.lineItems'] })
  t.same(refused([line(2, '60000000000000')]), { code: 'amount_too_large', fields: ['body.lineItems.0', 'body.lineItems'] })
  t.same(
    refused([line(1, '60000000000000'), line(1, '60000000000000')]),
    { code: 'amount_too_large', fields: ['body.lineItems'] },
    'lines within, their total above',
  )
  t.match(refused([line(1_000_000, '99999999999999')]), { code: 'amount_too_large' }, 'the largest quantity at the largest price')
})

t.test('an invoice asks for money: a zero total is refused', async (t) => {
  t.throws(() => computeTotals('USD', [line(5, '0')]), { code: 'invoice_total_zero' })
})
