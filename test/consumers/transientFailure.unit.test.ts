// Which failures a consumer retries for as long as they last and never parks on
// (events/consumers/transientFailure.ts): the database unreachable (the same rule the HTTP side
// answers 503 by, events/databaseUnavailable.ts) or contended; anything else parks after its attempts.
import t from 'tap'
import { isTransientFailure } from '../../events/consumers/transientFailure.js'
import { DomainError } from '../../domain/errors.js'

const withCode = (message: string, code: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, ...extra })

t.test('unreachable or contended: transient', async (t) => {
  const cases: [string, unknown][] = [
    ['a stopped embedded cluster (its Unix socket gone)', withCode('connect ENOENT /tmp/.s.PGSQL.5432', 'ENOENT', { syscall: 'connect' })],
    ['connection refused', withCode('connect ECONNREFUSED', 'ECONNREFUSED')],
    ['admin shutdown', withCode('terminating connection due to administrator command', '57P01')],
    ['a connection exception', withCode('connection failure', '08006')],
    ['too many connections', withCode('too many clients', '53300')],
    ['a serialization failure', withCode('could not serialize access', '40001')],
    ['a deadlock', withCode('deadlock detected', '40P01')],
    ['a lock not available', withCode('could not obtain lock', '55P03')],
    ['the pool timed out', new Error('timeout exceeded when trying to connect')],
    ['a connection lost under a query', new Error('Connection terminated unexpectedly')],
    ['the event store conflict', Object.assign(new Error('wrong expected version'), { name: 'WrongExpectedVersionError' })],
    ['wrapped as a cause', new Error('projector failed', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') })],
    ['inside an AggregateError', new AggregateError([withCode('connect ECONNREFUSED', 'ECONNREFUSED')], 'all failed')],
  ]
  for (const [what, error] of cases) t.ok(isTransientFailure(error), what)
})

t.test('anything else: not transient (the event parks after its attempts)', async (t) => {
  const cases: [string, unknown][] = [
    ['a domain refusal', new DomainError('conflict', 'account_closed', 'Account acc_x is closed')],
    ['a range error', new RangeError('a movement moves a positive amount within bounds')],
    ['a type error', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a file not found (not a connect)', withCode('ENOENT: no such file', 'ENOENT', { syscall: 'open' })],
    ['a constraint violation', withCode('duplicate key value', '23505')],
    ['not an error', 'a string'],
  ]
  for (const [what, error] of cases) t.notOk(isTransientFailure(error), what)
})
