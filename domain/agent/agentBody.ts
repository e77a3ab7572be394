// The request shapes that create and change an agent (spec: Agent; the bodies are "not shown", so
// ours, after Stripe Issuing's spending controls): who it pays for, from which balance account, to
// which payees, and its limits. One source for validation, types and the OpenAPI document.
import { z } from 'zod'
import { isKnownCurrency, positiveMinorAmount, withAmountBound } from '../shared/money/index.js'
import { metadataSchema } from '../shared/metadata.js'

export const AGENT_LIMITS = {
  nameMaxLength: 100,
  descriptionMaxLength: 500,
  maxAllowedDestinations: 100,
  idMaxLength: 64,
} as const
const L = AGENT_LIMITS

export const OVER_LIMIT_ACTIONS = ['DENY', 'REQUEST_APPROVAL'] as const
export type OverLimitAction = (typeof OVER_LIMIT_ACTIONS)[number]
export const MCP_ROLES = ['PAYMENT', 'PAYMENT_OPERATIONS'] as const
export type McpRole = (typeof MCP_ROLES)[number]
export const AGENT_STATUSES = ['ACTIVE', 'PAUSED', 'REVOKED'] as const
export type AgentStatus = (typeof AGENT_STATUSES)[number]

const accountId = z.string().min(1).max(L.idMaxLength)

export const agentLimitsSchema = z
  .object({
    currency: z
      .string()
      .regex(/^[A-Z]{3,5}$/, 'a currency code such as USD or USDC')
      .refine(isKnownCurrency, 'a currency the service knows (USD, EUR, USDC, ...)')
      .describe('The currency the limits are counted in; a transfer in another currency is converted at a recorded rate'),
    perTransaction: positiveMinorAmount.describe(withAmountBound('The most one transfer may move, in minor units of `currency`')),
    perDay: positiveMinorAmount.describe(withAmountBound('The most the agent may move per calendar day (UTC), in minor units')),
    perMonth: positiveMinorAmount.describe(withAmountBound('The most the agent may move per calendar month (UTC), in minor units')),
  })
  .strict()
  .refine((l) => BigInt(l.perTransaction) <= BigInt(l.perDay) && BigInt(l.perDay) <= BigInt(l.perMonth), {
    message: 'must hold perTransaction <= perDay <= perMonth',
  })
  .describe('Spending limits: per transaction, per calendar day and per calendar month (UTC), in minor units of `currency`')
export type AgentLimits = z.infer<typeof agentLimitsSchema>

const allowedDestinations = z
  .array(accountId)
  .max(L.maxAllowedDestinations)
  .refine((ids) => new Set(ids).size === ids.length, 'must not repeat an account')
  .describe(
    `The payee accounts the agent may pay (at most ${L.maxAllowedDestinations}): the customer's own accounts or its counterparties' ` +
      'external accounts (eba_, ewa_, acc_, inw_); empty: the agent pays no one until an owner adds one',
  )

export const createAgentBody = z
  .object({
    name: z.string().trim().min(1).max(L.nameMaxLength),
    description: z.string().max(L.descriptionMaxLength).default(''),
    customerId: z.string().min(1).max(L.idMaxLength).describe('The customer (cus_) the agent pays for'),
    sourceAccountId: accountId.describe("The customer's balance account (acc_ or inw_) the agent's transfers are paid from"),
    allowedDestinationAccountIds: allowedDestinations.default([]),
    limits: agentLimitsSchema,
    overLimitAction: z
      .enum(OVER_LIMIT_ACTIONS)
      .default('DENY')
      .describe(
        'DENY: a transfer over a limit is refused (403 agent_limit_exceeded); REQUEST_APPROVAL: a submitted draft waits for an owner',
      ),
    metadata: metadataSchema.default({}),
    mcpRole: z
      .enum(MCP_ROLES)
      .default('PAYMENT')
      .describe('PAYMENT: creates and submits transfers; PAYMENT_OPERATIONS: reads and cancels, never creates or submits'),
  })
  .strict()
export type CreateAgentBody = z.infer<typeof createAgentBody>

/** What an owner may change; the customer and the source account are fixed (a new agent pays for another). */
export const updateAgentBody = z
  .object({
    name: z.string().trim().min(1).max(L.nameMaxLength).optional(),
    description: z.string().max(L.descriptionMaxLength).optional(),
    allowedDestinationAccountIds: allowedDestinations.optional(),
    limits: agentLimitsSchema.optional(),
    overLimitAction: z.enum(OVER_LIMIT_ACTIONS).optional(),
    metadata: metadataSchema.optional(),
    mcpRole: z.enum(MCP_ROLES).optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'send at least one field to change')
export type UpdateAgentBody = z.infer<typeof updateAgentBody>
