// The local key-management adapter: AES-256-GCM key wrapping with KEKs held in this process (from
// DATA_ENCRYPTION_KEY or the key file, localKeySource.ts). With a key file, a KEK this process does
// not know (another process rotated) makes it read the file again once, then carry on with the
// file's current KEK.
import { openBytes, sealBytes } from './fieldCipher.js'
import { type KeyManagement, UnknownKekError } from './keyManagement.js'

export type KekSet = { keks: ReadonlyMap<string, Buffer>; currentKekId: string }

export function localKeyManagement(initial: KekSet, options: { reload?: () => KekSet } = {}): KeyManagement {
  let set = initial
  const kek = (id: string) => set.keks.get(id)
  if (!kek(set.currentKekId)) throw new UnknownKekError(set.currentKekId)
  function known(id: string): Buffer {
    let found = kek(id)
    if (!found && options.reload) {
      set = options.reload()
      found = kek(id)
    }
    if (!found) throw new UnknownKekError(id)
    return found
  }
  return {
    get currentKekId() {
      return set.currentKekId
    },
    async wrap(dataKey, context) {
      return { kekId: set.currentKekId, wrapped: sealBytes(known(set.currentKekId), dataKey, `dek:${context}`) }
    },
    async unwrap(key, context) {
      return openBytes(known(key.kekId), key.wrapped, `dek:${context}`)
    },
  }
}
