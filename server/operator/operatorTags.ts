// The tag that groups the operator routes in the OpenAPI document (server/operator/).
export const OPERATOR_TAGS = ['Operator']
