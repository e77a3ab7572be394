// A server's periodic check of its embedded cluster (a background job): when the process that owned
// it stopped it, or it crashed, the server starts it again and owns it; when its owner died or is
// stopping, the server takes it over. Each change is logged once, not at every check.
import type { ClusterCheck, EmbeddedCluster } from './embeddedPostgres.js'

export type ClusterLog = { error: (obj: object, msg: string) => void; warn?: (obj: object, msg: string) => void }

const MESSAGES: Record<Exclude<ClusterCheck, 'running'>, string> = {
  started: 'the embedded PostgreSQL had stopped: this server started it again and owns it',
  taken_over: 'the embedded PostgreSQL was left by its owner (gone or stopping): this server owns it now',
  moved: 'the embedded PostgreSQL runs on another port than this server connects to: restart this server to reach it',
}

const lastOutcome = new WeakMap<EmbeddedCluster, ClusterCheck>()

export async function checkEmbeddedCluster(cluster: EmbeddedCluster, log: ClusterLog): Promise<ClusterCheck> {
  const outcome = await cluster.ensureRunning()
  const previous = lastOutcome.get(cluster)
  lastOutcome.set(cluster, outcome)
  if (outcome === 'running' || outcome === previous) return outcome
  const fields = { port: cluster.port, outcome }
  if (outcome === 'moved') log.error(fields, MESSAGES.moved)
  else (log.warn ?? log.error)(fields, MESSAGES[outcome])
  return outcome
}
