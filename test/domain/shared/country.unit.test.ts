// Country codes: the standard's officially assigned alpha-2 codes, and the request schema built on them.
import t from 'tap'
import { COUNTRY_CODES, countryCodeSchema, isCountryCode } from '../../../domain/shared/country.js'

t.test('country codes', async (t) => {
  t.equal(COUNTRY_CODES.length, 249, 'every officially assigned ISO 3166-1 alpha-2 code')
  t.equal(new Set(COUNTRY_CODES).size, 249)
  t.same([...COUNTRY_CODES], [...COUNTRY_CODES].sort(), 'sorted')
  for (const c of COUNTRY_CODES) t.match(c, /^[A-Z]{2}$/)
  for (const ok of ['US', 'GB', 'DE', 'MX', 'BR', 'IN', 'SS', 'SX', 'BQ', 'CW', 'AX', 'AQ', 'UM', 'PS', 'TW']) t.ok(isCountryCode(ok), ok)
  for (const bad of ['UK', 'EU', 'XK', 'AN', 'ZZ', 'us', 'USA', '', 'U', 'YU', 'CS', 'SU']) t.notOk(isCountryCode(bad), bad)
})

t.test('the schema takes exactly the codes, uppercase', async (t) => {
  t.equal(countryCodeSchema.parse('DE'), 'DE')
  t.notOk(countryCodeSchema.safeParse('de').success, 'no case guessing')
  t.notOk(countryCodeSchema.safeParse('XK').success, 'user-assigned codes are refused')
})
