// Shape shared by every national tax id format.

export type TaxIdFormat = {
  /** Names what was expected, for the refusal message ("not a valid US SSN or ITIN"). */
  expected: string
  /** The normalised value to store when valid, else undefined. Never throws. */
  check: (raw: string) => string | undefined
}

/** Removes the separators people type (spaces, dashes, dots) and upper-cases letters. */
export function compact(raw: string, separators: RegExp = /[\s.\-]/g): string {
  return raw.replace(separators, '').toUpperCase()
}

/** A format checked on the compacted value: stores the compact form when `valid`. */
export function compactFormat(expected: string, valid: (value: string) => boolean, separators?: RegExp): TaxIdFormat {
  return {
    expected,
    check: (raw) => {
      const value = compact(raw, separators)
      return valid(value) ? value : undefined
    },
  }
}
