// Names and addresses outside Latin-1 (U+0000-U+00FF) need a transliterated form, because downstream
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
