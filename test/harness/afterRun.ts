// tap `after`: undoes beforeRun.ts.
import { removePrebuilt } from './prebuilt.js'

await Promise.all([import('./stopPostgres.js'), removePrebuilt()])
