// Child process: the real API (runtime, projectors, routes) on the given DATABASE_URL, with one
// organization and sandbox key created first. Prints {"port","apiKey"} once it listens.
import { serveBenchService } from './benchService.js'

await serveBenchService({ name: 'serveApp', organizationName: 'Bench organization' })
