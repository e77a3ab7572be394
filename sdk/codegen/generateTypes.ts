// The generated file's text from an OpenAPI document: openapi-typescript's types of every path, operation
// and schema, under a header that says where it comes from. One function, so the generator and the staleness
// test (test/sdk/generated.e2e.test.ts) cannot disagree on the output.
import openapiTS, { astToString } from 'openapi-typescript'

export const GENERATED_FILE = 'sdk/src/generated/api.ts'
export const GENERATE_COMMAND = 'npm run sdk:generate'

const HEADER = [
  `// Generated from the service's GET /api-json by \`${GENERATE_COMMAND}\` (sdk/codegen/): do not edit.`,
  '// The types of every path, operation and schema of the API, read by the client in sdk/src/.',
  '',
].join('\n')

export async function generateTypes(document: unknown): Promise<string> {
  if (typeof document !== 'object' || document === null) throw new Error('the OpenAPI document is not an object')
  // openapi-typescript takes the parsed document as its own type; it validates what it reads.
  const nodes = await openapiTS(JSON.stringify(document))
  return `${HEADER}${astToString(nodes)}`
}
