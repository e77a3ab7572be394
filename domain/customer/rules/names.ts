// Names outside Latin-1 (U+0000-U+00FF) need a transliterated form, because downstream
// banking rails only carry Latin-1. Iterating the string walks code points, so astral
// characters (surrogate pairs) are seen whole.

export function isLatin1(value: string): boolean {
  for (const ch of value) {
    if ((ch.codePointAt(0) ?? 0) > 0xff) return false
  }
  return true
}

export function needsTransliteration(value: string): boolean {
  return !isLatin1(value)
}

// Control characters (C0 and C1, DEL) other than tab and newline, and the bidi embeddings,
// overrides and isolates (U+202A-U+202E, U+2066-U+2069): invisible, they make a name read
// differently from what it is (an override can show "Smith" for "htimS").
const UNSAFE_IN_NAME = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

export function hasUnsafeNameCharacter(value: string): boolean {
  return UNSAFE_IN_NAME.test(value)
}

export const UNSAFE_NAME_MESSAGE = 'must not contain control characters (other than tab and newline) or bidirectional overrides'
