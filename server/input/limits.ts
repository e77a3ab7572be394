// Every bound of the request boundary's input guard, named in one place.
export const INPUT_LIMITS = {
  /** Nesting levels of a JSON body (objects and arrays); the deepest request shape needs about 8. */
  maxJsonDepth: 32,
} as const

/** Keys that mean something to JavaScript objects; no request shape uses them, and they invite prototype pollution. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])
