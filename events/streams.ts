// Stream names: `<category>-<id>`, as EventStoreDB expects.
export const streams = {
  organization: (organizationId: string) => `organization-${organizationId}`,
  webhookEndpoint: (endpointId: string) => `webhook_endpoint-${endpointId}`,
} as const
