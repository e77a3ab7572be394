// The key-management port: key-encryption keys (KEK) wrap and unwrap data keys, and never leave
// it. The local adapter (localKeyManagement.ts) keeps its KEKs in process memory; a cloud KMS
// adapter would call the KMS's Encrypt/Decrypt with the same context. A wrapped key names the KEK
// that wrapped it, so rotation can re-wrap every data key and retire the old KEK.

export type WrappedKey = { kekId: string; wrapped: Buffer }

export interface KeyManagement {
  /** The KEK new data keys are wrapped with. */
  readonly currentKekId: string
  /** `context` is bound to the wrap (the subject): a wrapped key copied to another subject fails to unwrap. */
  wrap(dataKey: Buffer, context: string): Promise<WrappedKey>
  unwrap(key: WrappedKey, context: string): Promise<Buffer>
}

export class UnknownKekError extends Error {
  override readonly name = 'UnknownKekError'
  constructor(readonly kekId: string) {
    super(`no key-encryption key ${kekId} is configured: set DATA_ENCRYPTION_KEY_PREVIOUS to the key it was wrapped with`)
  }
}
