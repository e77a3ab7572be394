// KEK rotation: every data key re-wrapped by the current KEK, without touching an event. With a key
// file, rotation first adds a new KEK to it (the old ones stay, so processes still running with the
// file as they read it keep working); with DATA_ENCRYPTION_KEY, the operator has already made the
// new key current and listed the old one in DATA_ENCRYPTION_KEY_PREVIOUS.
import type { Kysely } from 'kysely'
import { postgresDataKeyStore } from './dataKeys.js'
import { type LocalKeySource, addKekToFile, keyManagementFor } from './localKeySource.js'
import type { DataKeyDatabase } from './tables.js'

export type RotationResult = { origin: LocalKeySource['origin']; previousKekId: string; currentKekId: string; rewrapped: number }

export async function rotateKek(db: Kysely<DataKeyDatabase>, source: LocalKeySource): Promise<RotationResult> {
  const next = source.file ? addKekToFile(source.file) : source
  const { rewrapped } = await postgresDataKeyStore(db, keyManagementFor(next)).rewrapAll()
  return { origin: source.origin, previousKekId: source.currentKekId, currentKekId: next.currentKekId, rewrapped }
}
