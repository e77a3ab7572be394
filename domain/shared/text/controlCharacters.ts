// The one rule for control characters in the text a client sends. C0 (U+0000-U+001F), DEL (U+007F)
// and C1 (U+0080-U+009F) print as nothing, yet a terminal, a log viewer, a CSV export or a bank file
// acts on them (BEL rings, ESC starts a sequence, CR overwrites a line): stored once, such a
// character would reach every later reader. No name, address, reference or id needs one. Text
// declared multi-line (a description, a remark: multiLine.ts) may hold tab and line feed, and only those.
export type TextLines = 'single' | 'multi'

const FORBIDDEN: Record<TextLines, RegExp> = {
  single: /[\u0000-\u001f\u007f-\u009f]/,
  multi: /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/,
}

/** The first control character `value` may not hold, or undefined when it holds none. */
export function forbiddenControlIn(value: string, lines: TextLines): string | undefined {
  return FORBIDDEN[lines].exec(value)?.[0]
}

/** `U+0007`: how a refusal names the character (printing it would defeat the point). */
export const codePointName = (character: string): string =>
  `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`

/** Why `value` is refused, completing "`field` ...", or undefined when it is accepted. */
export function controlCharacterProblem(value: string, lines: TextLines): string | undefined {
  const found = forbiddenControlIn(value, lines)
  if (found === undefined) return undefined
  const allowed = lines === 'multi' ? ' other than tab and line feed' : ''
  return `must not contain control characters${allowed} (found ${codePointName(found)})`
}
