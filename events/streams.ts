// Stream names: `<category>-<id>`, as EventStoreDB expects.
export const streams = {
  organization: (organizationId: string) => `organization-${organizationId}`,
  webhookEndpoint: (endpointId: string) => `webhook_endpoint-${endpointId}`,
  customer: (customerId: string) => `customer-${customerId}`,
  document: (documentId: string) => `document-${documentId}`,
  termsAgreement: (agreementId: string) => `terms_agreement-${agreementId}`,
} as const
