// The webhook endpoint `listen` delivers through: the one it registered before for this API and key
// (re-enabled and pointed at this run's receiver, so its signing secret stays the same), else a new
// one, remembered in the state file. On stop it is disabled, not deleted: the next run takes it up again.
import os from 'node:os'
import { type ApiClient } from './apiClient.js'
import type { ListenStateFile } from './listenState.js'
import { CliError } from '../output.js'

/** How the endpoint names itself in the endpoint list (and the console): a person can tell it from real ones. */
export function listenDescription(): string {
  return `cli listen on ${os.hostname()}`.slice(0, 200)
}

export type ListenEndpoint = { id: string; secret: string; reused: boolean }

export async function takeUpEndpoint(
  client: ApiClient,
  state: ListenStateFile,
  apiKey: string,
  settings: { url: string; filterTypes: string[] },
): Promise<ListenEndpoint> {
  const known = await state.endpointFor(client.baseUrl, apiKey)
  const description = listenDescription()
  let id: string | undefined
  if (known !== undefined) {
    // Deleted meanwhile (or never of this key's organization): 404, and a new one is made.
    const exists = await client.getWebhookEndpoint(known).then(
      () => true,
      (error: unknown) => (isNotFound(error) ? false : Promise.reject(error)),
    )
    if (exists) {
      await client.updateWebhookEndpoint(known, { ...settings, description, disabled: false })
      id = known
    }
  }
  const reused = id !== undefined
  if (id === undefined) {
    const created = await client.createWebhookEndpoint({ ...settings, description, metadata: { createdBy: 'cli listen' } })
    id = created.id
    await state.remember(client.baseUrl, apiKey, id)
  }
  const { secret } = await client.getWebhookEndpointSecret(id)
  return { id, secret, reused }
}

/** Disables the endpoint unless another `listen` has taken it over since (it points elsewhere now). */
export async function setEndpointAside(client: ApiClient, endpointId: string, ownUrl: string): Promise<'disabled' | 'taken over'> {
  const endpoint = await client.getWebhookEndpoint(endpointId)
  if (endpoint.url !== ownUrl) return 'taken over'
  await client.updateWebhookEndpoint(endpointId, { disabled: true })
  return 'disabled'
}

const isNotFound = (error: unknown) => error instanceof CliError && error.extra.statusCode === 404
