// Wallet addresses (domain/shared/chain): EVM with EIP-55, Solana base58 32 bytes, Tron base58check,
// Bitcoin segwit and legacy per environment; the sandbox's own addresses and its rejection trigger.
import { address as bitcoinAddress, networks } from 'bitcoinjs-lib'
import bs58 from 'bs58'
import bs58check from 'bs58check'
import fc from 'fast-check'
import t, { type Test } from 'tap'
import { DomainError } from '../../domain/errors.js'
import {
  ADDRESS_TYPES,
  type AddressType,
  SANDBOX_ADDRESS_BYTES,
  SANDBOX_REJECTED_WALLET_ADDRESSES,
  WALLET_ADDRESS_LIMITS,
  isSandboxRejectedWalletAddress,
  sandboxWalletAddress,
  validateWalletAddress,
} from '../../domain/shared/chain/index.js'
import type { Environment } from '../../domain/shared/environment.js'

const RUNS = { seed: 20261124, numRuns: 300 } as const

function valid(t: Test, type: AddressType, address: string, environment: Environment = 'production'): string | undefined {
  const checked = validateWalletAddress(type, address, environment)
  if (checked.ok) return checked.value
  t.fail(`${type} ${address} refused in ${environment}: ${checked.error.message}`)
  return undefined
}

function refusedWith(t: Test, type: AddressType, address: string, reason: RegExp, environment: Environment = 'production'): void {
  const checked = validateWalletAddress(type, address, environment)
  const label = `${type} ${JSON.stringify(address.slice(0, 70))} in ${environment}`
  if (checked.ok) {
    t.fail(`${label} accepted as ${checked.value}`)
    return
  }
  t.equal(checked.error.code, 'invalid_wallet_address', label)
  t.same(
    checked.error.details.map((d) => d.field),
    ['walletAddress'],
  )
  t.match(checked.error.details[0]?.message, reason, label)
}

t.test('EVM: the EIP-55 test vectors, normalized to the checksummed form', async (t) => {
  const vectors = [
    // All caps and all lower: their checksum happens to have one case.
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    // Normal
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ]
  for (const vector of vectors) {
    t.equal(valid(t, 'EVM', vector), vector, `${vector} as given`)
    t.equal(valid(t, 'EVM', vector.toLowerCase()), vector, 'all lower case: no checksum, normalized to it')
    t.equal(valid(t, 'EVM', `0x${vector.slice(2).toUpperCase()}`), vector, 'all upper case: no checksum, normalized to it')
  }
  t.equal(valid(t, 'EVM', '0xdAC17F958D2ee523a2206206994597C13D831ec7'), '0xdAC17F958D2ee523a2206206994597C13D831ec7', 'USDT on Ethereum')
})

t.test('EVM: refusals', async (t) => {
  refusedWith(t, 'EVM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', /mixed case that does not match its EIP-55 checksum/)
  refusedWith(t, 'EVM', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', /EIP-55/)
  refusedWith(t, 'EVM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', /40 hex digits; got 39/)
  refusedWith(t, 'EVM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0', /40 hex digits; got 41/)
  refusedWith(t, 'EVM', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', /must start with 0x/)
  refusedWith(t, 'EVM', '0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', /must start with 0x/)
  refusedWith(t, 'EVM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg', /hex digits \(0-9, a-f\)/)
  refusedWith(t, 'EVM', ' 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', /spaces or line breaks/)
  refusedWith(t, 'EVM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\n', /spaces or line breaks/)
  refusedWith(t, 'EVM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeАed', /ASCII/) // a Cyrillic А
  refusedWith(t, 'EVM', '0x５aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', /ASCII/) // a full-width 5
  refusedWith(t, 'EVM', '', /is required/)
  refusedWith(t, 'EVM', `0x${'a'.repeat(10_000)}`, /at most 90 characters/)
})

t.test('Solana: base58 that decodes to exactly 32 bytes', async (t) => {
  for (const address of [
    'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', // the USDC mint
    'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', // the USDT mint
    'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', // the token program
    '11111111111111111111111111111111', // the system program: 32 zero bytes
  ]) {
    t.equal(valid(t, 'SOLANA', address), address, address)
  }
  refusedWith(t, 'SOLANA', bs58.encode(new Uint8Array(31).fill(9)), /decodes to 31 bytes; a Solana address is 32/)
  refusedWith(t, 'SOLANA', bs58.encode(new Uint8Array(33).fill(9)), /decodes to 33 bytes/)
  refusedWith(t, 'SOLANA', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10', /base58 characters \(no 0, O, I or l\)/)
  refusedWith(t, 'SOLANA', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDtOv', /base58/)
  refusedWith(t, 'SOLANA', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDtlv', /base58/)
  refusedWith(t, 'SOLANA', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', /base58/)
  refusedWith(t, 'SOLANA', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v ', /spaces/)
  refusedWith(t, 'SOLANA', '1'.repeat(10_000), /at most 90 characters/)
})

t.test('Tron: base58check of 0x41 and 20 bytes, starting with T', async (t) => {
  for (const address of [
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', // USDT on Tron
    'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', // USDC on Tron (retired, still an address)
    'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', // the black hole
  ]) {
    t.equal(valid(t, 'TRON', address), address, address)
  }
  refusedWith(t, 'TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', /checksum that does not match/)
  refusedWith(t, 'TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6', /checksum|decodes/)
  refusedWith(t, 'TRON', '41a614f803b6fd780986a42c78ec9c7f77e6ded13c', /hex form/)
  refusedWith(t, 'TRON', 'AR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', /must start with T/)
  refusedWith(t, 'TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj0t', /base58/)
  // Valid base58check strings that start with T but are no Tron address: 20 and 22 bytes, or version 0x40.
  const short = bs58check.encode(Uint8Array.from([5, ...new Uint8Array(19)]))
  t.ok(short.startsWith('T'), short)
  refusedWith(t, 'TRON', short, /decodes to 20 bytes; a Tron address is 21/)
  const long = bs58check.encode(Uint8Array.from([15, ...new Uint8Array(21)]))
  t.ok(long.startsWith('T'), long)
  refusedWith(t, 'TRON', long, /decodes to 22 bytes/)
  const otherVersion = bs58check.encode(Uint8Array.from([0x40, ...new Uint8Array(20).fill(255)]))
  t.ok(otherVersion.startsWith('T'), otherVersion)
  refusedWith(t, 'TRON', otherVersion, /version byte is not 0x41/)
  refusedWith(t, 'TRON', `T${'1'.repeat(10_000)}`, /at most 90 characters/)
})

t.test('Bitcoin: segwit v0, taproot and legacy; mainnet only in production, testnet too in the sandbox', async (t) => {
  const mainnet = [
    '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', // P2PKH
    '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', // P2SH
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', // P2WPKH
    'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', // P2WSH (BIP-173)
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', // P2TR, bech32m (BIP-350)
    'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr', // P2TR (BIP-86)
  ]
  for (const address of mainnet) {
    t.equal(valid(t, 'BITCOIN', address, 'production'), address, `${address} in production`)
    t.equal(valid(t, 'BITCOIN', address, 'sandbox'), address, `${address} in the sandbox`)
  }
  t.equal(
    valid(t, 'BITCOIN', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'),
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    'an upper-case bech32 address (BIP-173 allows it for QR codes) is stored lower case',
  )
  const testnet = [
    'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', // P2WPKH (BIP-173)
    'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', // P2WSH (BIP-173)
    'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', // P2PKH
    '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', // P2SH
    bitcoinAddress.toBech32(Buffer.from('79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex'), 1, 'tb'), // P2TR
  ]
  for (const address of testnet) {
    t.equal(valid(t, 'BITCOIN', address, 'sandbox'), address, `${address} in the sandbox`)
    refusedWith(t, 'BITCOIN', address, /is a testnet address; this environment takes mainnet addresses/, 'production')
  }
  const regtest = bitcoinAddress.toBech32(new Uint8Array(20).fill(3), 0, networks.regtest.bech32)
  refusedWith(t, 'BITCOIN', regtest, /is a regtest address; this environment takes mainnet or testnet addresses/, 'sandbox')
})

t.test('Bitcoin: refusals', async (t) => {
  refusedWith(t, 'BITCOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', /not a valid bech32 address/) // checksum
  refusedWith(t, 'BITCOIN', 'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', /not a valid bech32 address/) // mixed case
  // BIP-350's invalid vectors: a v1 program under a bech32 (not bech32m) checksum, and a v0 under bech32m.
  refusedWith(t, 'BITCOIN', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', /not a valid bech32 address/)
  refusedWith(t, 'BITCOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', /not a valid bech32 address/)
  refusedWith(t, 'BITCOIN', 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', /segwit version 2; only version 0 and 1/)
  refusedWith(t, 'BITCOIN', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', /no version 1 address has/)
  refusedWith(t, 'BITCOIN', bitcoinAddress.toBech32(new Uint8Array(25).fill(1), 0, 'bc'), /25-byte witness program/)
  // 32 zero bytes are not the x-coordinate of a point on secp256k1: such a taproot output is unspendable.
  refusedWith(t, 'BITCOIN', bitcoinAddress.toBech32(new Uint8Array(32), 1, 'bc'), /taproot address whose key is not a valid public key/)
  refusedWith(t, 'BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', /checksum that does not match/)
  refusedWith(t, 'BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN0', /base58/)
  refusedWith(t, 'BITCOIN', bs58check.encode(Uint8Array.from([0x30, ...new Uint8Array(20)])), /version byte is 0x30/) // a Litecoin P2PKH
  refusedWith(t, 'BITCOIN', bs58check.encode(new Uint8Array(22)), /decodes to 22 bytes/)
  refusedWith(t, 'BITCOIN', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', /base58/)
  refusedWith(t, 'BITCOIN', `bc1q${'q'.repeat(10_000)}`, /at most 90 characters/)
  refusedWith(t, 'BITCOIN', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq\t', /spaces/)
})

t.test('sandbox addresses: built from the bytes given, valid in the sandbox, unchanged by normalization', async (t) => {
  t.equal(sandboxWalletAddress('EVM', new Uint8Array(20).fill(0xab)), valid(t, 'EVM', `0x${'ab'.repeat(20)}`), 'checksummed')
  t.equal(sandboxWalletAddress('SOLANA', new Uint8Array(32)), '11111111111111111111111111111111')
  t.equal(sandboxWalletAddress('TRON', new Uint8Array(20)), 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')
  t.match(sandboxWalletAddress('BITCOIN', new Uint8Array(20).fill(1)), /^tb1q/)
  t.throws(() => sandboxWalletAddress('SOLANA', new Uint8Array(31)), RangeError, 'too few random bytes is a programming error')
  for (const type of ADDRESS_TYPES) {
    t.doesNotThrow(
      () =>
        fc.assert(
          fc.property(fc.uint8Array({ minLength: SANDBOX_ADDRESS_BYTES[type], maxLength: 40 }), (bytes) => {
            const address = sandboxWalletAddress(type, bytes)
            const checked = validateWalletAddress(type, address, 'sandbox')
            return checked.ok && checked.value === address
          }),
          RUNS,
        ),
      `every ${type} sandbox address validates in the sandbox`,
    )
  }
})

t.test('the sandbox rejection trigger: valid addresses, recognized after normalization', async (t) => {
  for (const type of ADDRESS_TYPES) {
    for (const address of SANDBOX_REJECTED_WALLET_ADDRESSES[type]) {
      t.equal(valid(t, type, address, 'sandbox'), address, `${type} ${address} is valid and already normalized`)
      t.ok(isSandboxRejectedWalletAddress(type, address))
    }
  }
  const dead = validateWalletAddress('EVM', '0x000000000000000000000000000000000000dead', 'sandbox')
  t.ok(dead.ok && isSandboxRejectedWalletAddress('EVM', dead.value), 'the lower-case burn address too, once normalized')
  t.notOk(isSandboxRejectedWalletAddress('EVM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'))
  t.notOk(isSandboxRejectedWalletAddress('SOLANA', '0x000000000000000000000000000000000000dEaD'), 'per address type')
})

t.test('no input makes the address check throw, and none is read past the bound', async (t) => {
  const input = fc.oneof(
    fc.string({ maxLength: 120 }),
    fc.string({ unit: 'binary', maxLength: 120 }),
    fc.stringMatching(/^(0x)?[0-9a-fA-F]{38,42}$/),
    fc.stringMatching(/^(bc1|tb1|T|1|3)[1-9A-HJ-NP-Za-km-z]{20,60}$/),
  )
  t.doesNotThrow(
    () =>
      fc.assert(
        fc.property(fc.constantFrom(...ADDRESS_TYPES), fc.constantFrom<Environment>('sandbox', 'production'), input, (type, env, s) => {
          const checked = validateWalletAddress(type, s, env)
          if (checked.ok) return true
          return checked.error instanceof DomainError && checked.error.code === 'invalid_wallet_address'
        }),
        RUNS,
      ),
    'any string: accepted, or refused with the typed error',
  )
  const huge = 'a'.repeat(1_000_000)
  const started = performance.now()
  for (const type of ADDRESS_TYPES) t.notOk(validateWalletAddress(type, huge, 'sandbox').ok)
  t.ok(performance.now() - started < 50, 'a million characters are refused by length, not decoded')
  t.equal(WALLET_ADDRESS_LIMITS.maxLength, 90)
})
