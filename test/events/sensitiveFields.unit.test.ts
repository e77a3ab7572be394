// What the event log seals, event type by event type: the catalog's schemas walked for their
// sensitive marks. A mark lost by a schema edit (a `.max()` after `sensitive()`) or a new personal
// field left unmarked shows here as a changed list; docs/decisions.md lists the same fields.
import t from 'tap'
import { sensitivePaths } from '../../domain/shared/sensitive/index.js'
import { AGGREGATES } from '../../events/catalog.js'

const address = (at: string) => [
  `${at}.addressLine1`,
  `${at}.addressLine2`,
  `${at}.transliterated.addressLine1`,
  `${at}.transliterated.addressLine2`,
]

const person = (at: string) => [
  `${at}.phone`,
  ...address(`${at}.address`),
  `${at}.dateOfBirth`,
  `${at}.taxIdentificationNumber`,
  `${at}.governmentId.idNumber`,
]

const EXPECTED: Record<string, string[]> = {
  WebhookEndpointCreated: ['secret'],
  WebhookEndpointSecretRotated: ['secret'],
  CustomerCreated: ['phone'],
  IndividualVerificationSaved: [
    'changes.phone',
    'changes.dateOfBirth',
    ...address('changes.address'),
    'changes.taxIdentificationNumber',
    'changes.governmentId.idNumber',
  ],
  BusinessVerificationSaved: [
    'changes.taxIdentificationNumber',
    ...address('changes.registeredAddress'),
    ...address('changes.physicalAddress'),
    'changes.phone',
  ],
  AssociatedEntityAdded: person('data'),
  AssociatedEntityUpdated: person('changes'),
  CounterpartyCreated: address('address'),
  // Invoices: the payer's name, email and street lines (issue 28).
  InvoiceCreated: ['payer.name', 'payer.email', ...address('payer.address')],
  InvoiceUpdated: ['payer.name', 'payer.email', ...address('payer.address')],
  // External bank accounts: the full number and IBAN (reads show their last four only).
  AccountOpened: [
    'details.accountNumber',
    'details.iban',
    'details.coordinates.accountNumber',
    'details.coordinates.iban',
    'details.coordinates.beneficiaryName',
    'details.coordinates.beneficiaryAddress',
  ],
  // Transfers: the remitter's name and account number, wherever an event carries the originator.
  ...Object.fromEntries(
    [
      'TransferFunded',
      'TransferSubmitted',
      'TransferAgentApprovalDecided',
      'TransferLegStarted',
      'TransferLegCompleted',
      'TransferHeldForReview',
      'TransferReviewCleared',
      'TransferFundsSuspended',
      'TransferCreated',
      'FixedRouteDepositReceived',
    ].map((type) => [type, ['originator.accountNumber', 'originator.name']]),
  ),
}

t.test('every sensitive field of every event type, and no other', async (t) => {
  const found: Record<string, string[]> = {}
  for (const aggregate of AGGREGATES)
    for (const [type, schema] of Object.entries(aggregate.eventSchemas)) {
      const paths = sensitivePaths(schema)
      if (paths.length > 0) found[type] = paths
    }
  t.same(
    Object.fromEntries(Object.entries(found).map(([k, v]) => [k, [...v].sort()])),
    Object.fromEntries(Object.entries(EXPECTED).map(([k, v]) => [k, [...v].sort()])),
  )
})
