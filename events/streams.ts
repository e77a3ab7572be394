// Stream names: `<category>-<id>`, as EventStoreDB expects, one function per aggregate of the
// catalog (`streams.customer(id)`), built from the descriptors' stream categories.
import { AGGREGATES } from './catalog.js'

type AggregateName = (typeof AGGREGATES)[number]['name']

/** The stream of one aggregate instance. */
export const streamName = (aggregate: { streamCategory: string }, id: string): string => `${aggregate.streamCategory}-${id}`

// Object.fromEntries forgets the keys; the entries are exactly one per name of the list.
export const streams = Object.fromEntries(AGGREGATES.map((aggregate) => [aggregate.name, (id: string) => streamName(aggregate, id)])) as {
  readonly [Name in AggregateName]: (id: string) => string
}
