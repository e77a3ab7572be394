// The import rule of design.md's Layout table, checked on every import of every service file:
// dependencies point down the table, the domain uses only pure packages, and no files import each
// other in a cycle. No exceptions.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { importCycles, readImports } from './importGraph.js'
import { layoutViolation } from './layoutRules.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

t.test('every import follows the Layout table', async (t) => {
  const { imports } = readImports(root)
  t.ok(imports.length > 500, `read the imports (${imports.length})`)
  const found: string[] = []
  for (const i of imports) {
    const why = layoutViolation(i)
    if (why) found.push(`${i.from} -> ${i.to}: ${why}`)
  }
  t.same(found, [], 'no import runs up the table')
})

t.test('no import cycles between files', async (t) => {
  const { files, imports } = readImports(root)
  t.same(importCycles(files, imports), [], 'no files import each other, directly or through others')
})

t.test('the rule itself: it catches what the table forbids and passes what it allows', async (t) => {
  const at = (from: string, to: string, external = false) => layoutViolation({ from, to, external })
  t.ok(at('domain/customer/x.ts', 'pg', true), 'the domain may not use a database driver')
  t.ok(at('domain/customer/x.ts', 'node:fs', true), 'nor the file system')
  t.equal(at('domain/customer/x.ts', 'zod', true), undefined, 'zod is pure')
  t.equal(at('domain/customer/x.ts', 'domain/shared/address.ts'), undefined, 'an aggregate builds on shared value objects')
  t.ok(at('domain/shared/x.ts', 'domain/customer/y.ts'), 'shared domain code may not import an aggregate')
  t.ok(at('domain/x.ts', 'events/catalog.ts'), 'the domain imports nothing above it')
  t.ok(at('commands/x/y.ts', 'projections/z.ts'), 'commands may not read projections')
  t.equal(at('webhooks/x.ts', 'commands/runtime/y.ts'), undefined, 'webhooks may use the command runtime')
  t.ok(at('webhooks/x.ts', 'commands/customers/y.ts'), 'but no write route')
  t.ok(at('webhooks/x.ts', 'read-api/y.ts'), 'nor the read API')
  t.equal(at('server/x.ts', 'webhooks/y.ts'), undefined, 'the server wires everything')
  t.ok(at('newfolder/x.ts', 'domain/y.ts'), 'a folder missing from the table is an error')
  t.ok(at('sdk/src/x.ts', 'http/errorBody.ts'), 'the SDK imports nothing of the service')
  t.ok(at('sdk/src/x.ts', 'node:crypto', true), 'the SDK runs in browsers: no node: module')
  t.equal(at('sdk/src/x.ts', 'openapi-fetch', true), undefined, 'openapi-fetch is its one dependency')
  t.equal(at('sdk/codegen/x.ts', 'node:fs', true), undefined, 'its generator runs in Node')
  t.same(
    importCycles(
      ['a.ts', 'b.ts', 'c.ts', 'd.ts'],
      [
        { from: 'a.ts', to: 'b.ts', external: false },
        { from: 'b.ts', to: 'c.ts', external: false },
        { from: 'c.ts', to: 'a.ts', external: false },
        { from: 'd.ts', to: 'a.ts', external: false },
      ],
    ),
    [['a.ts', 'b.ts', 'c.ts']],
    'a three-file cycle is found, and a file that only imports into it is not part of it',
  )
})
