// No Docker engine on CI machines: check docker-compose.yml's syntax and wiring, not a running stack.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'

type Healthcheck = { test?: string[] | string }
type Service = {
  image?: string
  build?: unknown
  command?: string | string[]
  environment?: Record<string, string | number | boolean> | string[]
  depends_on?: Record<string, { condition?: string }> | string[]
  ports?: string[]
  healthcheck?: Healthcheck
}

const root = new URL('../../', import.meta.url)
const compose = parse(readFileSync(new URL('docker-compose.yml', root), 'utf8')) as { services?: Record<string, Service> }
const services = compose.services ?? {}

/** Both compose spellings of `environment` as one map. */
function env(service: Service | undefined): Record<string, string> {
  const raw = service?.environment ?? {}
  if (Array.isArray(raw))
    return Object.fromEntries(raw.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]))
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, String(v)]))
}

function healthcheckCommand(service: Service | undefined): string {
  const test = service?.healthcheck?.test
  return Array.isArray(test) ? test.join(' ') : (test ?? '')
}

const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8')

t.test('three services, each with a health check', async (t) => {
  t.same(Object.keys(services).sort(), ['eventstore', 'postgres', 'service'])
  for (const [name, service] of Object.entries(services)) {
    // The service's own is the image's (Dockerfile HEALTHCHECK), unless compose overrides it.
    if (name === 'service' && !service.healthcheck) continue
    t.ok(healthcheckCommand(service).length > 0, `${name} has a healthcheck`)
    t.notMatch(healthcheckCommand(service), /^NONE/, `${name} healthcheck not disabled`)
  }
})

t.test('eventstore: insecure single node without projections, live-checked', async (t) => {
  const eventstore = services.eventstore
  t.equal(eventstore?.image, 'eventstore/eventstore:24.10')
  t.equal(env(eventstore).EVENTSTORE_INSECURE, 'true')
  t.equal(env(eventstore).EVENTSTORE_RUN_PROJECTIONS, 'None')
  t.match(healthcheckCommand(eventstore), /curl .*http:\/\/localhost:2113\/health\/live/)
})

t.test('postgres: checked with pg_isready', async (t) => {
  t.match(services.postgres?.image ?? '', /^postgres:15/)
  t.match(healthcheckCommand(services.postgres), /pg_isready/)
  t.equal(env(services.postgres).POSTGRES_DB, 'payments')
})

t.test('service: built here, wired to the other two, started once they are healthy', async (t) => {
  const service = services.service
  t.ok(service?.build, 'built from the Dockerfile')
  t.equal(service?.command, undefined, "the image's command: the compiled server")
  const vars = env(service)
  t.equal(vars.APP_ENV, 'sandbox')
  t.equal(vars.PORT, '3000')
  t.equal(vars.HOST, '0.0.0.0', 'reachable through the published port')

  const database = new URL(vars.DATABASE_URL ?? '')
  t.equal(database.protocol, 'postgres:')
  t.equal(database.hostname, 'postgres', 'DATABASE_URL points at the postgres service')
  t.equal(database.port, '5432')
  t.equal(database.pathname, '/payments', 'the database the postgres service creates')
  t.equal(
    `${database.username}:${database.password}`,
    `${env(services.postgres).POSTGRES_USER}:${env(services.postgres).POSTGRES_PASSWORD}`,
  )

  const eventstore = new URL(vars.EVENTSTORE_URL ?? '')
  t.equal(eventstore.protocol, 'esdb:')
  t.equal(eventstore.hostname, 'eventstore', 'EVENTSTORE_URL points at the eventstore service')
  t.equal(eventstore.port, '2113')
  t.equal(eventstore.searchParams.get('tls'), 'false', 'matches the insecure node')

  const dependsOn = service?.depends_on
  t.ok(dependsOn && !Array.isArray(dependsOn), 'depends_on in long form, with conditions')
  if (dependsOn && !Array.isArray(dependsOn)) {
    t.same(Object.keys(dependsOn).sort(), ['eventstore', 'postgres'])
    for (const [name, dependency] of Object.entries(dependsOn))
      t.equal(dependency.condition, 'service_healthy', `waits for ${name} to be healthy`)
  }
  t.ok(
    service?.ports?.some((p) => String(p).split(':').at(-1) === '3000'),
    'port 3000 published',
  )
  t.notOk(service?.healthcheck, "the image's health check")
})

// test/build/compiledServer.e2e.test.ts holds the install and the command to what it runs.
t.test('Dockerfile: node:20-slim, built in one stage, run compiled in another, with a health check', async (t) => {
  t.match(dockerfile, /^FROM node:20-slim AS build$/m)
  t.match(dockerfile, /^RUN npm run build$/m)
  t.match(dockerfile, /^FROM node:20-slim$/m)
  t.match(dockerfile, /^RUN npm ci --omit=dev/m)
  t.match(dockerfile, /^COPY --from=build \/app\/dist \.\/dist$/m)
  t.match(dockerfile, /^USER node$/m)
  t.match(dockerfile, /^HEALTHCHECK [^]*http:\/\/127\.0\.0\.1:' \+ \(process\.env\.PORT \|\| 3000\) \+ '\/health/m)
  t.match(dockerfile, /^CMD \["node", "--enable-source-maps", "dist\/server\/main\.js"\]$/m)
})
