// Stablecoin balance accounts and external bank accounts through HTTP: addresses made per chain,
// chain/currency fit, treasury vs customer wallets; US, IBAN and SWIFT bank accounts with every
// check (IBAN, BIC, ABA check digit, account number), masked on every read and sealed at rest.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'
import { validateWalletAddress } from '../../domain/shared/chain/index.js'

const h = await startTestApp(t)
const customer = await createIndividual(h)
const openWallet = (payload: Record<string, unknown>) => h.request({ method: 'POST', url: '/v1/balance-accounts/stablecoin', payload })
const addBank = (payload: Record<string, unknown>) =>
  h.request({ method: 'POST', url: '/v1/external-bank-accounts', payload: { accountOwnerName: 'Ada Lovelace', ...payload } })

t.test('stablecoin accounts: an address of the chain, customer or treasury', async (t) => {
  for (const [chain, addressType] of [
    ['SOLANA', 'SOLANA'],
    ['ETHEREUM', 'EVM'],
    ['TRON', 'TRON'],
    ['BASE', 'EVM'],
  ] as const) {
    const currency = chain === 'TRON' ? 'USDT' : 'USDC'
    const res = await openWallet({ customerId: customer.id, currency, chain })
    t.equal(res.statusCode, 201, chain)
    const account = res.json()
    t.match(account, {
      id: /^inw_/,
      type: 'INFINITE_WALLET',
      status: 'ACTIVE',
      currencyCodes: [currency],
      chains: [chain],
      addressType,
      walletType: 'CUSTOMER',
      holdsBalance: true,
      balanceSourceEligible: true,
    })
    t.ok(validateWalletAddress(addressType, account.walletAddress, 'sandbox').ok, `${chain} address ${account.walletAddress} is valid`)
  }
  const treasury = (await openWallet({ currency: 'USDC', chain: 'SOLANA', metadata: { nickname: 'Payout treasury' } })).json()
  t.match(treasury, { customerId: null, walletType: 'TREASURY', balanceSourceEligible: false, metadata: { nickname: 'Payout treasury' } })
  const misfit = await openWallet({ currency: 'USAT', chain: 'SOLANA' })
  t.equal(misfit.statusCode, 422)
  t.match(misfit.json(), { code: 'currency_not_on_chain', details: [{ field: 'chain' }] })
  t.equal((await openWallet({ currency: 'BTC', chain: 'BITCOIN' })).statusCode, 400, 'only stablecoins')
  t.equal((await openWallet({ currency: 'USDC', chain: 'NEAR' })).statusCode, 400)
})

t.test('a US bank account: routing check digit, account number, masked, sealed', async (t) => {
  const res = await addBank({ customerId: customer.id, routingNumber: '021000021', accountNumber: '000123456789', bankName: 'Chase' })
  t.equal(res.statusCode, 201)
  const account = res.json()
  t.match(account, {
    id: /^eba_/,
    type: 'EXTERNAL_BANK',
    status: 'ACTIVE',
    currencyCodes: ['USD'],
    accountNumber: '****6789',
    routingNumber: '021000021',
    accountType: 'CHECKING',
    bankCountry: 'US',
    holdsBalance: false,
    provider: 'EXTERNAL',
  })
  t.ok(account.paymentRails.includes('ACH') && account.paymentRails.includes('WIRE'))
  const read = (await h.request({ method: 'GET', url: `/v1/accounts/${account.id}` })).body
  t.notOk(read.includes('000123456789'), 'the full number is never read back')
  const rows = await h.runtime.db.selectFrom('accounts').select('resource').where('id', '=', account.id).execute()
  t.notOk(JSON.stringify(rows).includes('123456789'), 'the read model holds only the mask')
  const events = await h.runtime.store.readStream(`account-${account.id}`)
  t.equal((events[0]!.data['details'] as { accountNumber: string }).accountNumber, '000123456789', 'the store opens it for the rails')
})

t.test('bank coordinates are checked, every problem named', async (t) => {
  const badCheck = await addBank({ routingNumber: '021000022', accountNumber: '12' })
  t.equal(badCheck.statusCode, 422)
  t.match(badCheck.json(), { code: 'invalid_bank_account' })
  const fields = (badCheck.json().details as { field: string }[]).map((d) => d.field).sort()
  t.same(fields, ['accountNumber', 'routingNumber'], 'both problems at once')
  const iban = await addBank({ iban: 'DE89370400440532013001', currency: 'EUR' })
  t.match(iban.json(), { code: 'invalid_bank_account', details: [{ field: 'iban' }] }, 'one wrong digit')
  const nothing = await addBank({ currency: 'EUR' })
  t.match(nothing.json(), { code: 'invalid_bank_account', details: [{ field: 'iban' }] })
  const mixed = await addBank({ iban: 'DE89370400440532013000', currency: 'EUR', routingNumber: '021000021' })
  t.match(mixed.json(), { details: [{ field: 'routingNumber' }] })
  const usdEuro = await addBank({ routingNumber: '021000021', accountNumber: '123456', currency: 'EUR' })
  t.match(usdEuro.json(), { details: [{ field: 'currency' }] })
  const country = await addBank({ iban: 'DE89370400440532013000', currency: 'EUR', bankCountry: 'FR' })
  t.match(country.json(), { details: [{ field: 'bankCountry' }] })
})

t.test('IBAN and SWIFT accounts reach their rails', async (t) => {
  const sepa = await addBank({ iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', currency: 'EUR' })
  t.equal(sepa.statusCode, 201)
  t.match(sepa.json(), { iban: '****3000', accountNumber: null, bankCountry: 'DE', bic: 'COBADEFFXXX', currencyCodes: ['EUR'] })
  t.ok(sepa.json().paymentRails.includes('SEPA'))
  const uk = await addBank({ iban: 'GB82WEST12345698765432', currency: 'GBP' })
  t.ok(uk.json().paymentRails.includes('FASTER_PAYMENTS'))
  const swift = await addBank({ bic: 'BOTKJPJT', accountNumber: '1234567', currency: 'JPY' })
  t.equal(swift.statusCode, 201)
  t.match(swift.json(), { bankCountry: 'JP', paymentRails: ['SWIFT'], accountNumber: '****4567', currencyCodes: ['JPY'] })
})
