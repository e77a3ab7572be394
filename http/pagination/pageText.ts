// A page as JSON text whose items are given as their own JSON texts (stored resources sent as they
// are, not parsed, checked and serialized again). The page's other keys keep their order. Built by
// concatenation: a String.replace would read `$&` or `$'` inside an item as a replacement pattern.

export type ItemText = { id: string; json: string }

export function pageText(page: { data: readonly ItemText[] }): string {
  const members = Object.entries(page).map(([key, value]) => {
    const json = key === 'data' ? `[${page.data.map((item) => item.json).join(',')}]` : JSON.stringify(value)
    return `${JSON.stringify(key)}:${json}`
  })
  return `{${members.join(',')}}`
}
