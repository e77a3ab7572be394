// The FX read operations: the pairs an organization (or one of its customers) can quote on, the
// indicative rate of a pair, and the organization's FX settings. Pairs and rates are cached about 30
// seconds per organization and pricing (spec: Limits), with Cache-Control and asOf telling how fresh.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { ALL_CORRIDORS, customerMayUse } from '../../domain/fx/corridors.js'
import { corridorLimits, limitsWire } from '../../domain/fx/corridorLimits.js'
import { fxRatesNotEnabled, fxRatesOnBehalfOfRequired } from '../../domain/fx/errors.js'
import { rateFigures } from '../../domain/fx/indicativeRate.js'
import { type FxPair, checkPair, pairKey, pairKind } from '../../domain/fx/pair.js'
import {
  fxPairListResource,
  fxCustomerPricingResource,
  fxRateResource,
  fxSettingsResource,
  pairListQuerySchema,
  pairQuerySchema,
  sideResource,
} from '../../domain/fx/resource.js'
import { sandboxLiquidityProvider } from '../../domain/fx/sandboxLiquidityProvider.js'
import { assertPairOffered, pairOffered } from '../../domain/fx-settings/settings.js'
import { notFound } from '../../domain/errors.js'
import type { Environment } from '../../domain/shared/environment.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { expiringCache } from './expiringCache.js'
import { type FxView, fxReads } from './reads.js'

const TAGS = ['FX']

export const FX_READ_CACHE = { ttlMs: 30_000, maxEntries: 10_000 } as const

type PairList = z.infer<typeof fxPairListResource>
type CachedRate = z.infer<typeof fxRateResource>

/** The customer the request acts for: onBehalfOf or X-On-Behalf-Of; naming two different ones is 404 for the second. */
function actingFor(request: FastifyRequest, query: string | undefined): string | undefined {
  const header = request.onBehalfOf
  if (query !== undefined && header !== undefined && query !== header) throw notFound('Customer', query)
  return query ?? header
}

function cacheHeader(reply: FastifyReply, expiresAtMs: number, nowMs: number): void {
  reply.header('cache-control', `private, max-age=${Math.max(0, Math.ceil((expiresAtMs - nowMs) / 1000))}`)
}

export const fxReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; environment: Environment; clock: () => Date }> = async (
  app,
  { db, environment, clock },
) => {
  const reads = fxReads(db, environment)
  const pairLists = expiringCache<PairList>(FX_READ_CACHE)
  const rates = expiringCache<CachedRate>(FX_READ_CACHE)

  const pairEntry = (pair: FxPair): PairList['data'][number] => ({
    source: sideResource(pair.source),
    destination: sideResource(pair.destination),
    kind: pairKind(pair),
    limits: limitsWire(corridorLimits(pair.source.currency, environment)),
  })

  app.get(
    '/fx/pairs',
    {
      schema: {
        operationId: 'listFxPairs',
        tags: TAGS,
        summary: 'List the pairs you can quote on',
        description:
          'Every corridor FX is enabled on for the organization, each with its amount limits in minor units of the source ' +
          'currency. onBehalfOf (or X-On-Behalf-Of) narrows it to the pairs that customer may use: APPROVED, with the ' +
          'capabilities a transfer along the pair needs. Fiat pairs are listed only when fiat pairs are enabled. Not paginated: ' +
          'the list is bounded by the corridors that exist (about 600). Cached about 30 seconds per organization and customer.',
        querystring: pairListQuerySchema,
        headers: readHeaders,
        response: { 200: fxPairListResource, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const customerId = actingFor(request, request.query.onBehalfOf)
      const { sourceCurrency, destinationCurrency } = request.query
      const key = [organizationId, customerId ?? '', sourceCurrency ?? '', destinationCurrency ?? ''].join('|')
      const nowMs = clock().getTime()
      let entry = pairLists.get(key, nowMs)
      if (!entry) {
        const fx = await reads.fxOf(organizationId)
        const customer = customerId === undefined ? undefined : (await reads.customerOf(organizationId, customerId)).facts
        const pairs = ALL_CORRIDORS.filter(
          (pair) =>
            pairOffered(fx.settings, pair) &&
            (sourceCurrency === undefined || pair.source.currency === sourceCurrency) &&
            (destinationCurrency === undefined || pair.destination.currency === destinationCurrency) &&
            (customer === undefined || customerMayUse(customer, pair)),
        ).map(pairEntry)
        entry = pairLists.set(
          key,
          { data: pairs, onBehalfOf: customerId ?? null, total: pairs.length, asOf: new Date(nowMs).toISOString() },
          nowMs,
        )
      }
      cacheHeader(reply, entry.expiresAtMs, nowMs)
      return entry.value
    },
  )

  function assertRatesAllowed(fx: FxView, pair: FxPair): void {
    if (!fx.settings.indicativeRatesEnabled) throw fxRatesNotEnabled()
    assertPairOffered(fx.settings, pair)
  }

  app.get(
    '/fx/rates',
    {
      schema: {
        operationId: 'getFxRate',
        tags: TAGS,
        summary: 'Indicative rate of a pair',
        description:
          'The mid-market reference rate with the spread applied (the customer’s own pricing with onBehalfOf, else the ' +
          'organization’s), both ways, beside the reference rate itself. Takes no amount: a firm price is a quote. onBehalfOf is ' +
          'required when either side is fiat. Cached 30 seconds per organization, customer and pair (so a change of switches, ' +
          'pricing or provider shows within 30 seconds): asOf and Cache-Control say how fresh. Errors in the order they are ' +
          'checked: 400 invalid_request (a field), 400 ' +
          'fx_pair_shape_invalid (a network/rail slot against the currency’s kind; details name each), 400 ' +
          'fx_source_rail_not_supported, 404 fx_pair_unsupported, 400 fx_rates_on_behalf_of_required, 403 fx_rates_not_enabled, 403 ' +
          'fx_fiat_pairs_not_enabled, 409 fx_not_enabled_for_pair, 404 resource_not_found (onBehalfOf), 422 ' +
          'fx_quote_temporarily_unavailable or fx_quote_capacity_exhausted with a hint (never limits or requested).',
        querystring: pairQuerySchema,
        headers: readHeaders,
        response: { 200: fxRateResource, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const { onBehalfOf, ...flat } = request.query
      const pair = checkPair(flat)
      const customerId = actingFor(request, onBehalfOf)
      if (pairKind(pair) === 'FIAT' && customerId === undefined) throw fxRatesOnBehalfOfRequired()
      // A hit answers from memory: the switches, the pricing and the provider were checked when it was made.
      const key = `${organizationId}|${customerId ?? ''}|${pairKey(pair)}`
      const now = clock()
      const nowMs = now.getTime()
      let entry = rates.get(key, nowMs)
      if (!entry) {
        const fx = await reads.fxOf(organizationId)
        assertRatesAllowed(fx, pair)
        const own = customerId === undefined ? undefined : (await reads.customerOf(organizationId, customerId)).spreadBps
        const spreadBps = own ?? fx.settings.spreadBps
        const mid = sandboxLiquidityProvider(environment, fx.provider, fx.capacityUse).midRate(pair, now)
        entry = rates.set(
          key,
          {
            source: sideResource(pair.source),
            destination: sideResource(pair.destination),
            ...rateFigures(mid.mid, spreadBps),
            referenceProvider: mid.provider,
            referenceRateAsOf: mid.asOf,
            spreadBps,
            pricing: own === undefined ? 'ORGANIZATION' : 'CUSTOMER',
            onBehalfOf: customerId ?? null,
            asOf: now.toISOString(),
            cachedUntil: new Date(nowMs + FX_READ_CACHE.ttlMs).toISOString(),
          },
          nowMs,
        )
      }
      cacheHeader(reply, entry.expiresAtMs, nowMs)
      return entry.value
    },
  )

  app.get(
    '/fx/customers/:customerId/pricing',
    {
      schema: {
        operationId: 'getFxCustomerPricing',
        tags: TAGS,
        summary: "Read a customer's FX pricing",
        description:
          'The spread the customer’s rates and quotes carry: its own (pricing CUSTOMER) when one was set, else the ' +
          'organization’s (pricing ORGANIZATION, spreadBps of its own null). 404 for a customer of another organization.',
        params: idParam('customerId', 'cus_', 'Customer'),
        headers: readHeaders,
        response: { 200: fxCustomerPricingResource, ...errorResponses(404) },
      },
    },
    async (request) => reads.customerPricing(principalOf(request).organizationId, actingFor(request, request.params.customerId)!),
  )

  app.get(
    '/fx/settings',
    {
      schema: {
        operationId: 'getFxSettings',
        tags: TAGS,
        summary: 'Read your FX settings',
        description:
          'What FX is enabled for (FX itself, fiat pairs, indicative rates, the enabled pairs as currency patterns), your ' +
          'spread, and each corridor’s limits in US dollars. An organization that never configured FX reads as its ' +
          'environment’s defaults (sandbox: stablecoin pairs and indicative rates on, fiat pairs off; production: FX off) with ' +
          'updatedAt null. The operator changes them (`fx configure`); in sandbox also PUT /v1/sandbox/fx/settings.',
        response: { 200: fxSettingsResource, ...errorResponses() },
      },
    },
    async (request) => reads.settingsResource(principalOf(request).organizationId),
  )
}
