// `customers erase <customerId> --reason <text> [--operator <name>]`: erases a customer's personal
// data at once (crypto-shredding its data key), with an audit event naming who and why. Erasing
// again is a no-op that says so (alreadyErased).
import { parseArgs } from 'node:util'
import { eraseCustomerByOperator } from '../../commands/customers/eraseCustomer.js'
import { CUSTOMER_LIMITS } from '../../domain/customer/limits.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { cliActor } from '../cliRuntime.js'

/** Longer than any id we issue; stops an accidental paste of a whole file into a stream name. */
const MAX_CUSTOMER_ID_LENGTH = 100

export const customersErase: CliCommand = {
  words: ['customers', 'erase'],
  usage: 'customers erase <customerId> --reason <text> [--operator <name>]',
  summary: "erase a customer's personal data now (shreds its data key; audited)",
  parse(argv) {
    const { positionals, values } = parseOrUsage(customersErase, () =>
      parseArgs({
        args: argv,
        options: { reason: { type: 'string' }, operator: { type: 'string' } },
        strict: true,
        allowPositionals: true,
      }),
    )
    const customerId = positionals[0] ?? ''
    if (positionals.length !== 1 || customerId.length === 0 || customerId.length > MAX_CUSTOMER_ID_LENGTH)
      throw usageError(customersErase, `exactly one customer id (1 to ${MAX_CUSTOMER_ID_LENGTH} characters) is required`)
    const reason = values.reason?.trim() ?? ''
    if (reason.length === 0 || reason.length > CUSTOMER_LIMITS.erasureReasonMaxLength)
      throw usageError(customersErase, `--reason is required, 1 to ${CUSTOMER_LIMITS.erasureReasonMaxLength} characters`)
    const operator = values.operator?.trim()
    if (operator !== undefined && (operator.length === 0 || operator.length > CUSTOMER_LIMITS.erasedByMaxLength))
      throw usageError(customersErase, `--operator must be 1 to ${CUSTOMER_LIMITS.erasedByMaxLength} characters`)
    return async ({ runtime, out }) => {
      const actor = cliActor()
      // An unknown customer is refused (DomainError not_found: exit 1, statusCode 404) before any append.
      const result = await eraseCustomerByOperator(runtime, { customerId, reason, erasedBy: operator ?? actor, actor })
      await out.document(result)
    }
  },
}
