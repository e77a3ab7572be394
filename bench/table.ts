// A plain-text table with aligned columns: text left, numbers right.

export type Cell = string | number | undefined

const NUMERIC = /^[-+]?[\d,.]+(%|×| ?(s|ms))?$/

export function formatNumber(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return '-'
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

export function formatMs(value: number): string {
  if (!Number.isFinite(value)) return '-'
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)
}

export function formatTable(headers: string[], rows: Cell[][]): string {
  const text = rows.map((row) =>
    headers.map((_, i) => {
      const cell = row[i]
      return cell === undefined ? '' : typeof cell === 'number' ? formatNumber(cell) : cell
    }),
  )
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]!.length)))
  const rightAligned = headers.map(
    (_, i) => text.some((r) => r[i] !== '') && text.every((r) => r[i] === '' || r[i] === '-' || NUMERIC.test(r[i]!)),
  )
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (rightAligned[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd()
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-')
  return [line(headers), rule, ...text.map(line)].join('\n')
}
