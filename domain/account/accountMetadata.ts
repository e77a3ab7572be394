// An account's metadata: the free object every resource has, with the spec's optional nickname,
// purpose and tags typed and bounded.
import { z } from 'zod'
import { metadataSchema } from '../shared/metadata.js'

export const ACCOUNT_METADATA_LIMITS = { nicknameMaxLength: 100, purposeMaxLength: 200, maxTags: 20, tagMaxLength: 40 } as const
const L = ACCOUNT_METADATA_LIMITS

export const accountMetadataSchema = metadataSchema
  .pipe(
    z
      .object({
        nickname: z.string().trim().min(1).max(L.nicknameMaxLength).optional().describe('A name for the account in your own UI'),
        purpose: z.string().trim().min(1).max(L.purposeMaxLength).optional().describe('What the account is for'),
        tags: z
          .array(z.string().trim().min(1).max(L.tagMaxLength))
          .max(L.maxTags)
          .optional()
          .describe(`At most ${L.maxTags} tags of at most ${L.tagMaxLength} characters`),
      })
      .catchall(z.unknown()),
  )
  .describe('Free object for your own data, with optional nickname, purpose and tags[] (bounded as any metadata)')
export type AccountMetadata = z.infer<typeof accountMetadataSchema>
