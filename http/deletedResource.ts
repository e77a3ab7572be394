// The answer of every DELETE: the id of what was deleted.
import { z } from 'zod'

export const deletedResource = z.object({ id: z.string(), deleted: z.literal(true) })
