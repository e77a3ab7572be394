// Attempt ids: `atmpt_` + the same time-ordered shape as resource ids (domain/ids.ts).
import { newId } from '../../domain/shared/ids.js'

export const newAttemptId = (): string => `atmpt_${newId('req').slice('req_'.length)}`
