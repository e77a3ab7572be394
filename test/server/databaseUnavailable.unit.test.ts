// Which errors mean the database is out of reach (a 503 the client may retry) rather than a fault
// of the service (a 500): issue 24, D13.
import t from 'tap'
import { isDatabaseUnavailable } from '../../events/databaseUnavailable.js'

const withCode = (message: string, code: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, ...extra })

t.test('unreachable: refused, reset, socket gone, shut down, terminated, timed out, wrapped', async (t) => {
  for (const [what, error] of [
    ['refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED', { syscall: 'connect' })],
    ['Unix socket gone', withCode('connect ENOENT /data/postgres/.s.PGSQL.5432', 'ENOENT', { syscall: 'connect' })],
    ['reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['admin shutdown', withCode('terminating connection due to administrator command', '57P01')],
    ['starting up', withCode('the database system is starting up', '57P03')],
    ['connection failure class 08', withCode('connection failure', '08006')],
    ['terminated', new Error('Connection terminated unexpectedly')],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['not queryable', new Error('Client has encountered a connection error and is not queryable')],
    ['wrapped', new Error('append failed', { cause: withCode('x', '57P01') })],
    ['both families refused', new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')], 'connect')],
  ] as const)
    t.ok(isDatabaseUnavailable(error), what)
})

t.test('not unavailability: bugs, constraint and data errors, a missing file', async (t) => {
  for (const [what, error] of [
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['syntax error', withCode('syntax error at or near "x"', '42601')],
    ['a file not found while reading', withCode("ENOENT: no such file or directory, open 'x'", 'ENOENT', { syscall: 'open' })],
    ['not an error', 'Connection terminated'],
    ['null', null],
  ] as const)
    t.notOk(isDatabaseUnavailable(error), what)
  const cyclic: Error & { cause?: unknown } = new Error('loop')
  cyclic.cause = cyclic
  t.notOk(isDatabaseUnavailable(cyclic), 'a cyclic cause chain ends')
})
