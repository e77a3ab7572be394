// `keys rotate-kek`: re-wraps every data key with the current key-encryption key (a new one is
// added first when the keys live in the key file). Events are never touched.
import { parseArgs } from 'node:util'
import { rotateKek } from '../../events/protection/rotateKek.js'
import { openDataKeyDatabase } from '../../events/protection/tables.js'
import { type CliCommand, parseOrUsage } from '../command.js'

export const keysRotateKek: CliCommand = {
  words: ['keys', 'rotate-kek'],
  usage: 'keys rotate-kek',
  summary:
    'rotate the key-encryption key: a new one in the key file (or DATA_ENCRYPTION_KEY, the old in DATA_ENCRYPTION_KEY_PREVIOUS); ' +
    'every data key re-wrapped',
  parse(argv) {
    parseOrUsage(keysRotateKek, () => parseArgs({ args: argv, options: {}, strict: true, allowPositionals: false }))
    return async ({ runtime, out }) => {
      const db = openDataKeyDatabase(runtime.pool)
      // The pool is the runtime's: it closes with it (no destroy here, which would end the pool).
      await out.document(await rotateKek(db, runtime.keySource))
    }
  },
}
