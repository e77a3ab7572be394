// Checks a JSON body's text, after JSON.parse accepted it and before anything walks the value:
// nesting depth, keys JavaScript gives a meaning to, duplicate keys, strings (keys and values) the
// service could not store, and control characters (domain/shared/text: every string is one line
// unless the route's schema declares its field multi-line). One pass over the text with an
// explicit stack, so a body nested 10 000 levels is refused at level 33 without any recursion.
//
// Hand-written because the value tree cannot show duplicate keys (JSON.parse keeps the last), and
// the JSON tokenizers on npm either recurse or build an array of every token (a 1 MiB body of
// `[0,0,...]` would be half a million objects).
import { type FieldPattern, controlCharacterProblem, matchesPattern } from '../../domain/shared/text/index.js'
import { FORBIDDEN_KEYS, INPUT_LIMITS } from './limits.js'
import { unstorableTextReason } from './storableText.js'

export type InputProblem = { field: string; message: string }

type Frame = { kind: 'object'; keys: Set<string>; key: string | undefined; expectKey: boolean } | { kind: 'array'; index: number }

const QUOTE = 0x22
const BACKSLASH = 0x5c

function fieldOf(root: string, stack: Frame[]): string {
  let field = root
  for (const frame of stack) field += `.${frame.kind === 'object' ? (frame.key ?? '') : frame.index}`
  return field
}

const pathOf = (stack: Frame[]): string[] => stack.map((frame) => (frame.kind === 'object' ? (frame.key ?? '') : String(frame.index)))

/** Why a string value is refused: unstorable, or a control character its field may not hold. */
function valueProblem(value: string, stack: Frame[], multiLine: readonly FieldPattern[]): string | undefined {
  const unstorable = unstorableTextReason(value)
  if (unstorable) return unstorable
  const asOneLine = controlCharacterProblem(value, 'single')
  // Only a tab or a line feed can pass as multi-line: the field's patterns are looked at then.
  if (!asOneLine || multiLine.length === 0 || !matchesPattern(multiLine, pathOf(stack))) return asOneLine
  return controlCharacterProblem(value, 'multi')
}

/**
 * The first problem in `text`, named by its field (`body.metadata.x`), or undefined.
 * `text` must be valid JSON (JSON.parse accepted it): the scan relies on it. `multiLine`: the
 * fields (below `root`) that may hold tab and line feed.
 */
export function findJsonBodyProblem(
  text: string,
  root = 'body',
  maxDepth: number = INPUT_LIMITS.maxJsonDepth,
  multiLine: readonly FieldPattern[] = [],
): InputProblem | undefined {
  const stack: Frame[] = []
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= maxDepth) return { field: fieldOf(root, stack), message: `nested deeper than ${maxDepth} levels` }
      stack.push(c === 0x7b ? { kind: 'object', keys: new Set(), key: undefined, expectKey: true } : { kind: 'array', index: 0 })
      i++
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop()
      i++
    } else if (c === 0x2c /* , */) {
      const top = stack.at(-1)
      if (top?.kind === 'object') top.expectKey = true
      else if (top) top.index++
      i++
    } else if (c === 0x3a /* : */) {
      const top = stack.at(-1)
      if (top?.kind === 'object') top.expectKey = false
      i++
    } else if (c === QUOTE) {
      let end = i + 1
      let escaped = false
      for (let d = text.charCodeAt(end); d !== QUOTE; d = text.charCodeAt(end)) {
        if (d === BACKSLASH) {
          escaped = true
          end += 2
        } else end++
      }
      const value: string = escaped ? JSON.parse(text.slice(i, end + 1)) : text.slice(i + 1, end)
      i = end + 1
      const top = stack.at(-1)
      if (top?.kind === 'object' && top.expectKey) {
        top.key = value
        const field = fieldOf(root, stack)
        const unstorable = unstorableTextReason(value) ?? controlCharacterProblem(value, 'single')
        if (unstorable) return { field, message: `key ${unstorable}` }
        if (FORBIDDEN_KEYS.has(value)) return { field, message: `"${value}" is not allowed as a key` }
        if (top.keys.has(value)) return { field, message: 'duplicate key: send each key once' }
        top.keys.add(value)
      } else {
        const refused = valueProblem(value, stack, multiLine)
        if (refused) return { field: fieldOf(root, stack), message: refused }
      }
    } else i++ // whitespace, numbers, true, false, null
  }
  return undefined
}
