// The answer of every DELETE: the id of what was deleted.
import { z } from 'zod'

export const deletedResource = z.object({
  id: z.string().describe('The id of what was deleted'),
  deleted: z.literal(true).describe('Always true'),
})
