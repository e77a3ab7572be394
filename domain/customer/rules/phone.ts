// E.164: "+", then a country code starting 1-9, 8 to 15 digits in all. No spaces or
// punctuation: callers store the canonical form, so formatting is the client's job.
const E164 = /^\+[1-9][0-9]{7,14}$/

export function isE164(value: string): boolean {
  return E164.test(value)
}
