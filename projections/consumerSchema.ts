// The event consumers' own tables (checkpoints, failures, operator skips; migrations 0005 and 0007):
// owned by the consumer runtime, which declares them (events/consumers/tables.ts); re-exported here
// so the read database's one type includes them.
export type { ConsumerCheckpointsTable, ConsumerDatabase, ConsumerFailuresTable, ConsumerSkipsTable } from '../events/consumers/tables.js'
