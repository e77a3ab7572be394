// An invoice's payment state, kept apart from its status (Circle's payment intents): how much is due,
// paid and remaining, from two numbers. BigInt logic, minor-unit strings in state and events.
//   UNPAID (nothing paid) → PARTIALLY_PAID (some) → PAID (exactly the amount due) | OVERPAID (more:
//   the excess went to the customer's balance; amountPaid still counts it, so the payer's money is all told)
import { z } from 'zod'
import { assertInvariant } from '../errors.js'

export const PAYMENT_STATES = ['UNPAID', 'PARTIALLY_PAID', 'PAID', 'OVERPAID'] as const
export type PaymentState = (typeof PAYMENT_STATES)[number]
export const paymentStateSchema = z.enum(PAYMENT_STATES).describe('How much of the amount due was paid')

export type PaymentAmounts = {
  paymentState: PaymentState
  amountDueMinor: string
  amountPaidMinor: string
  /** What is still owed, never below zero. */
  amountRemainingMinor: string
}

export function paymentStateOf(dueMinor: bigint, paidMinor: bigint): PaymentState {
  assertInvariant(dueMinor > 0n && paidMinor >= 0n, 'an invoice asks for money and is never paid a negative amount')
  if (paidMinor === 0n) return 'UNPAID'
  if (paidMinor < dueMinor) return 'PARTIALLY_PAID'
  return paidMinor === dueMinor ? 'PAID' : 'OVERPAID'
}

export function paymentAmounts(amountDueMinor: string, amountPaidMinor: string): PaymentAmounts {
  const due = BigInt(amountDueMinor)
  const paid = BigInt(amountPaidMinor)
  const remaining = paid >= due ? 0n : due - paid
  return { paymentState: paymentStateOf(due, paid), amountDueMinor, amountPaidMinor, amountRemainingMinor: remaining.toString() }
}

export type PaymentSplit = { appliedMinor: bigint; excessMinor: bigint; paidAfterMinor: bigint; covers: boolean }

/** How one payment divides: what the invoice takes towards what is still due, and the excess beyond it. */
export function splitPayment(dueMinor: bigint, paidMinor: bigint, amountMinor: bigint): PaymentSplit {
  assertInvariant(amountMinor > 0n, 'a payment is positive')
  const remaining = paidMinor >= dueMinor ? 0n : dueMinor - paidMinor
  const appliedMinor = amountMinor < remaining ? amountMinor : remaining
  const paidAfterMinor = paidMinor + amountMinor
  return { appliedMinor, excessMinor: amountMinor - appliedMinor, paidAfterMinor, covers: paidAfterMinor >= dueMinor }
}
