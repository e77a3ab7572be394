// Control characters (C0 and C1, DEL) other than tab and newline, and the bidi embeddings,
// overrides and isolates (U+202A-U+202E, U+2066-U+2069): invisible, they make a name read
// differently from what it is (an override can show "Smith" for "htimS").
const UNSAFE_IN_NAME = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

export function hasUnsafeNameCharacter(value: string): boolean {
  return UNSAFE_IN_NAME.test(value)
}

export const UNSAFE_NAME_MESSAGE = 'must not contain control characters (other than tab and newline) or bidirectional overrides'
