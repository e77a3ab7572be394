// A 410 Gone disables its endpoint by a command whose id derives from the delivery (message,
// endpoint, generation): a dispatcher that dies after the command and before recording the attempt
// sends again, meets the 410 again, and the repeated command appends nothing. A resend (a new
// generation) after the endpoint was re-enabled disables it again.
import t from 'tap'
import { disableGoneEndpoint, goneCommandId } from '../../webhooks/dispatcher/disableGoneEndpoint.js'
import { startTestApp } from '../harness/testApp.js'
import { createEndpoint } from './deliveryHelpers.js'

const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })

t.test('the same delivery disables its endpoint once; a later generation again', async (t) => {
  const ep = await createEndpoint(h, { url: 'https://example.com/hook' })
  const delivery = {
    organizationId: h.org.organizationId,
    endpointId: ep.id,
    messageId: 'msg_gone_1',
    generation: 0,
    environment: h.runtime.config.APP_ENV,
  }
  const disables = async () =>
    (await h.runtime.store.readStream(`webhook_endpoint-${ep.id}`)).filter((e) => e.type === 'WebhookEndpointUpdated')

  await disableGoneEndpoint(h.runtime.commands, delivery)
  await disableGoneEndpoint(h.runtime.commands, delivery)
  const first = await disables()
  t.equal(first.length, 1, 'one update for one delivery, however often its 410 is handled')
  t.match(first[0], {
    data: { disabled: true },
    metadata: { actor: 'system:webhook-dispatcher', causationId: 'msg_gone_1', commandId: goneCommandId(delivery) },
  })

  const enabled = await h.request({
    method: 'PUT',
    url: `/v1/webhooks/endpoints/${ep.id}`,
    payload: { url: 'https://example.com/hook', disabled: false },
  })
  t.equal(enabled.statusCode, 200, 're-enabled by its owner')
  await disableGoneEndpoint(h.runtime.commands, { ...delivery, generation: 1 })
  const after = await disables()
  t.equal(after.length, 3, 'the resend that met a 410 disabled it again')
  t.match(after[2], { data: { disabled: true }, metadata: { commandId: goneCommandId({ ...delivery, generation: 1 }) } })
  t.ok(await h.runtime.runner.waitFor(after[2]!.position, 10_000), 'projected')
  const endpoint = await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${ep.id}` })
  t.equal(endpoint.json().disabled, true)
})
