import { openReadDatabase, migrateToLatest } from '../projections/database.js'
const { db } = openReadDatabase(process.argv[2]!)
await migrateToLatest(db)
await db.destroy()
