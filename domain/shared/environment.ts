// The deployment's environment: sandbox (simulations allowed) or production. One type for every
// place that branches on it (keys, egress, sandbox-only operations, configuration).
import { z } from 'zod'

export const ENVIRONMENTS = ['sandbox', 'production'] as const

export type Environment = (typeof ENVIRONMENTS)[number]

export const environmentSchema = z.enum(ENVIRONMENTS)
