// Opening external bank accounts (`eba_`): a customer's (or the organization's) account at another
// bank, to pay out to. Checked when created (domain/account/externalBankDetails.ts), so it opens
// ACTIVE; the full account number and IBAN are sealed in its events and masked on every read.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { accountMetadataSchema } from '../../domain/account/accountMetadata.js'
import { checkExternalBank } from '../../domain/account/externalBankDetails.js'
import { accountResourceSchema } from '../../domain/account/resource.js'
import { BANK_LIMITS } from '../../domain/shared/bank/index.js'
import { newId } from '../../domain/shared/ids.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { accountCommands } from './accountCommands.js'
import { customerIdField } from './balanceAccountRoutes.js'
import type { AccountRouteDeps } from './deps.js'
import { optionalOwner } from './ownerFacts.js'
import { EXTERNAL_PROVIDER } from './providers.js'

const coordinate = (what: string) => z.string().max(BANK_LIMITS.inputMaxLength).optional().describe(what)

const externalBankAccountBody = z
  .object({
    customerId: customerIdField,
    accountOwnerName: z.string().trim().min(1).max(200).describe('The name on the account'),
    accountOwnerType: z.enum(['INDIVIDUAL', 'BUSINESS']).default('INDIVIDUAL').describe('Who holds the account (default INDIVIDUAL)'),
    bankName: z.string().trim().min(1).max(200).optional().describe('The bank'),
    currency: z
      .string()
      .regex(/^[A-Z]{3,4}$/)
      .optional()
      .describe('The currency the account is paid in: USD for a US account (the default there), required otherwise'),
    accountNumber: coordinate('The account number: 4-17 digits for a US account; up to 34 letters and digits with a BIC'),
    routingNumber: coordinate('US: the 9-digit ABA routing number (its check digit is verified)'),
    accountType: z.enum(['CHECKING', 'SAVINGS']).optional().describe('US: CHECKING (default) or SAVINGS'),
    iban: coordinate('The IBAN (checked against the IBAN registry: length, format, check digits)'),
    bic: coordinate('The BIC (SWIFT code), 8 or 11 characters'),
    bankCountry: z.string().length(2).optional().describe("ISO 3166-1 alpha-2; must match the IBAN's or BIC's country when given"),
    metadata: accountMetadataSchema.optional(),
  })
  .strict()
  .describe('One of: iban (+ bic); routingNumber + accountNumber (US); bic + accountNumber (SWIFT)')

export const externalBankAccountRoutes: FastifyPluginAsyncZod<AccountRouteDeps> = async (app, deps) => {
  const accounts = deps.commands.bind(accountCommands)
  app.post(
    '/external-bank-accounts',
    {
      schema: {
        operationId: 'createExternalBankAccount',
        tags: ['Accounts'],
        summary: 'Add an external bank account',
        description:
          'Adds an ACTIVE external bank account (eba_, type EXTERNAL_BANK) to pay out to. The coordinates are checked first: 422 ' +
          'invalid_bank_account with one detail per field (IBAN check digits and registry length, BIC format, ABA check digit, ' +
          'account number format, currency, a country that does not match). The account number and IBAN are stored encrypted and ' +
          'shown masked (****1234) on every read.',
        headers: writeHeaders,
        body: externalBankAccountBody,
        response: { 201: accountResourceSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const { customerId, metadata, ...coordinates } = request.body
      const checked = checkExternalBank(coordinates)
      if (!checked.ok) throw checked.error
      const owner = await optionalOwner(request, deps.commands, organizationId, customerId)
      const resource = await accounts.handle(request, {
        type: 'OpenAccount',
        organizationId,
        accountId: newId('eba'),
        now: new Date().toISOString(),
        status: 'ACTIVE',
        account: {
          customerId: owner?.id ?? null,
          kind: 'EXTERNAL_BANK',
          type: 'EXTERNAL_BANK',
          currencyCodes: [checked.value.details.currency],
          paymentRails: checked.value.rails,
          holdsBalance: false,
          balanceSourceEligible: false,
          provider: EXTERNAL_PROVIDER,
          counterpartyId: null,
          metadata: metadata ?? {},
          details: checked.value.details,
        },
      })
      return reply.code(201).send(resource)
    },
  )
}
