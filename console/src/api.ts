// The console's one way to the service: the typed SDK over the public API, authenticated by the session cookie (no key
// in the browser), so the console can do nothing a key of the same organization and role could not.
import { createPaymentsClient } from '../../sdk/src/index.js'

export const api = createPaymentsClient({ baseUrl: location.origin, credentials: 'same-origin' })
