// requestedCapabilities: every capability of the spec, each at most once.
import { z } from 'zod'
import { CAPABILITIES } from '../rules/capabilities.js'

export const requestedCapabilities = z
  .array(z.enum(CAPABILITIES))
  .max(CAPABILITIES.length)
  .refine((list) => new Set(list).size === list.length, 'must not repeat a capability')
  .describe('Capabilities requested for the customer; replaces the saved list')
