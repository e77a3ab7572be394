// `npx tsx bench/historyBenchAlone.ts [priorPostings]`: the history rows of `npm run bench` alone,
// on the bench's PostgreSQL (BENCH_DATABASE_URL, or a throwaway embedded cluster).
import { openBenchPostgres } from './database.js'
import { HISTORY_BENCH_PLAN, runHistoryBench } from './historyBench.js'

const database = await openBenchPostgres()
try {
  const priorPostings = Number(process.argv[2] ?? HISTORY_BENCH_PLAN.priorPostings)
  const result = await runHistoryBench({
    databaseUrl: await database.createDatabase('history'),
    log: (m) => process.stderr.write(`bench: ${m}\n`),
    plan: { ...HISTORY_BENCH_PLAN, priorPostings },
  })
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
} finally {
  await database.close()
}
