// A tool result's structuredContent as a plain record, for t.match and t.same (the client types it unknown).
/** A tool's structured answer, as a record for t.match. */
export function structured(result: { structuredContent?: unknown }): Record<string, unknown> {
  const value = result.structuredContent
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the tool answered no structured object')
  return Object.fromEntries(Object.entries(value))
}
