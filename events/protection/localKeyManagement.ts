// The local key-management adapter: AES-256-GCM key wrapping with KEKs held in this process (from
// DATA_ENCRYPTION_KEY or the key file, localKeySource.ts).
import { openBytes, sealBytes } from './fieldCipher.js'
import { type KeyManagement, UnknownKekError } from './keyManagement.js'

export function localKeyManagement(keks: ReadonlyMap<string, Buffer>, currentKekId: string): KeyManagement {
  const current = keks.get(currentKekId)
  if (!current) throw new UnknownKekError(currentKekId)
  return {
    currentKekId,
    async wrap(dataKey, context) {
      return { kekId: currentKekId, wrapped: sealBytes(current, dataKey, `dek:${context}`) }
    },
    async unwrap(key, context) {
      const kek = keks.get(key.kekId)
      if (!kek) throw new UnknownKekError(key.kekId)
      return openBytes(kek, key.wrapped, `dek:${context}`)
    },
  }
}
