// Capabilities a customer may request (spec: requestedCapabilities). Written out as
// literals so `z.enum(CAPABILITIES)` and `Capability` are unions of exact strings.
export const CAPABILITIES = [
  'USD_ACH_PAYIN',
  'USD_ACH_PAYOUT',
  'USD_WIRE_PAYIN',
  'USD_WIRE_PAYOUT',
  'USD_BALANCE',
  'USD_YIELD',
  'SWIFT_PAYIN',
  'SWIFT_PAYOUT',
  'STABLECOIN_PAYIN',
  'STABLECOIN_PAYOUT',
  'STABLECOIN_SWAPS',
  'AED_FX_PAYOUT',
  'AUD_FX_PAYOUT',
  'BHD_FX_PAYOUT',
  'BOB_FX_PAYOUT',
  'BRL_FX_PAYOUT',
  'CLP_FX_PAYOUT',
  'CNY_FX_PAYOUT',
  'COP_FX_PAYOUT',
  'DOP_FX_PAYOUT',
  'EGP_FX_PAYOUT',
  'EUR_FX_PAYOUT',
  'GBP_FX_PAYOUT',
  'HKD_FX_PAYOUT',
  'IDR_FX_PAYOUT',
  'INR_FX_PAYOUT',
  'JPY_FX_PAYOUT',
  'KRW_FX_PAYOUT',
  'KWD_FX_PAYOUT',
  'MXN_FX_PAYOUT',
  'MYR_FX_PAYOUT',
  'PEN_FX_PAYOUT',
  'PHP_FX_PAYOUT',
  'PYG_FX_PAYOUT',
  'QAR_FX_PAYOUT',
  'SAR_FX_PAYOUT',
  'SGD_FX_PAYOUT',
  'THB_FX_PAYOUT',
  'TRY_FX_PAYOUT',
  'TWD_FX_PAYOUT',
  'USD_FX_PAYOUT',
  'VND_FX_PAYOUT',
] as const

export type Capability = (typeof CAPABILITIES)[number]

const CAPABILITY_SET: ReadonlySet<string> = new Set(CAPABILITIES)

export function isCapability(value: string): value is Capability {
  return CAPABILITY_SET.has(value)
}
