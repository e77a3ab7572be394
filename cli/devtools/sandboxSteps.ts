// The steps `trigger` builds its recipes from, each one or a few real API operations in a sandbox: a
// customer approved by the sandbox shortcut (the real onboarding steps), accounts, a fund-in, transfers
// driven with the sandbox routes. Every id made is written into `created`, so the command can print what it made.
import { randomUUID } from 'node:crypto'
import type { ApiClient, CreatedResource } from './apiClient.js'
import { CliError } from '../output.js'

export const STEP_LIMITS = {
  /** Rails steps tried before a transfer is declared stuck. */
  maxAdvanceSteps: 12,
  /** Longest a step waits for a state that a workflow reaches after the call that caused it. */
  waitMs: 20_000,
  pollIntervalMs: 100,
} as const

/** What a recipe made, by kind (customer, transfer, ...): printed by `trigger`. */
export type Created = Record<string, string>

export type StepContext = { client: ApiClient; created: Created }

/** What the customer asks to do: enough for the USD recipes (ACH and wire, a balance). */
const CAPABILITIES = ['USD_ACH_PAYIN', 'USD_ACH_PAYOUT', 'USD_WIRE_PAYIN', 'USD_WIRE_PAYOUT', 'USD_BALANCE']

export async function draftCustomer({ client, created }: StepContext): Promise<string> {
  const customer = await client.createIndividualCustomer({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' })
  created.customer = customer.id
  return customer.id
}

/** Saves part of the verification without submitting it: customer.updated. */
export async function updateCustomer(context: StepContext, customerId: string): Promise<void> {
  await context.client.saveCustomerVerification(customerId, { phone: '+14155550123' }, false)
}

/**
 * An APPROVED customer by the sandbox shortcut (POST /v1/sandbox/customers/{id}/simulate-approval): test documents, the
 * verification, submission and review, each as the real commands, so its events and webhooks are the full path's.
 */
export async function approvedCustomer(context: StepContext): Promise<string> {
  const id = await draftCustomer(context)
  await context.client.simulateCustomerApproval(id, CAPABILITIES)
  return id
}

export async function balanceAccount({ client, created }: StepContext, customerId: string): Promise<string> {
  const account = await client.createBalanceAccount(customerId)
  created.balanceAccount = account.id
  return account.id
}

/** A sandbox fund-in of 250.00 USD (its own reference: it credits once). */
export async function fundIn({ client }: StepContext, accountId: string): Promise<void> {
  await client.simulateFundIn(accountId, { amount: '250.00', reference: `trigger-${randomUUID()}` })
}

export async function bankAccount({ client, created }: StepContext, customerId: string): Promise<string> {
  const account = await client.createExternalBankAccount({
    customerId,
    accountOwnerName: 'Ada Lovelace',
    bankName: 'Chase',
    accountNumber: '000123456789',
    routingNumber: '021000021',
  })
  created.externalBankAccount = account.id
  return account.id
}

/**
 * A wire from the customer's bank to the same bank, waiting for its deposit (PENDING). `sourceAmount` in
 * minor units; the sandbox reads some amounts as outcomes (1313: fails before funds, 3131: review after funds).
 */
export async function depositTransfer(context: StepContext, sourceAmount = '1000'): Promise<CreatedResource> {
  const customerId = await approvedCustomer(context)
  const bank = await bankAccount(context, customerId)
  const transfer = await context.client.createTransfer({
    sourceCustomerId: customerId,
    source: { paymentRail: 'WIRE', currency: 'USD', externalAccountId: bank },
    destination: { accountId: bank, paymentRail: 'WIRE' },
    sourceAmount,
  })
  context.created.transfer = transfer.id
  return transfer
}

/** A payout from a funded balance account to the customer's bank by ACH (PROCESSING at once). */
export async function balancePayout(context: StepContext): Promise<{ accountId: string; transfer: CreatedResource }> {
  const customerId = await approvedCustomer(context)
  const accountId = await balanceAccount(context, customerId)
  await fundIn(context, accountId)
  const bank = await bankAccount(context, customerId)
  const transfer = await context.client.createTransfer({
    source: { accountId },
    destination: { accountId: bank, paymentRail: 'ACH' },
    sourceAmount: '2500',
  })
  context.created.transfer = transfer.id
  return { accountId, transfer }
}

/** Drives a transfer with the sandbox's advance until it is `status`; the sandbox may take steps by itself meanwhile. */
export async function advanceUntil({ client }: StepContext, transferId: string, status: string): Promise<void> {
  for (let step = 0; step < STEP_LIMITS.maxAdvanceSteps; step++) {
    const after = (await client.advanceSandboxTransfer(transferId)) ?? (await client.getTransfer(transferId))
    if (after.status === status) return
    await sleep(STEP_LIMITS.pollIntervalMs)
  }
  throw new CliError('trigger_stuck', `transfer ${transferId} did not reach ${status} in ${STEP_LIMITS.maxAdvanceSteps} steps`)
}

/** Polls `read` until it gives a value; undefined after STEP_LIMITS.waitMs. */
export async function eventually<T>(read: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + STEP_LIMITS.waitMs
  for (;;) {
    const value = await read()
    if (value !== undefined || Date.now() > deadline) return value
    await sleep(STEP_LIMITS.pollIntervalMs)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
