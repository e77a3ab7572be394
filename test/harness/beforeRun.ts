// tap `before`: what the whole run shares, made once: the PostgreSQL (startPostgres.ts) and the
// prebuilt programs tests spawn (prebuilt.ts), side by side.
import { buildPrebuilt } from './prebuilt.js'

await Promise.all([import('./startPostgres.js'), buildPrebuilt()])
