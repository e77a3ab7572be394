// The remitter a sandbox deposit simulation may name (spec: simulate-deposit's `originator`), as the
// rail would report it; `{}` means none.
import { z } from 'zod'

const text = (max: number) => z.string().min(1).max(max)

export const originatorBody = z
  .object({
    name: text(200).optional(),
    bankName: text(200).optional(),
    routingNumber: text(34).optional(),
    accountNumber: text(34).optional(),
    swiftBic: text(11).optional(),
    bankCountry: z.string().length(2).optional(),
  })
  .strict()
  .describe('The remitter as the rail reports it ({}: none)')
