// Each operation's example: a request and its answer recorded from the service itself
// (recordedExamples.ts, written by `npm run openapi:examples`), put on the operation's request body
// and on its success response, so every example is one the service really took and gave.

/** One operation's recorded exchange: the JSON body sent (if any) and the success answer. */
export type RecordedExample = {
  request?: unknown
  response: { status: string; contentType: string; body: unknown }
}

/** Recorded exchanges by operationId. */
export type RecordedExamples = Record<string, RecordedExample>

type Node = Record<string, unknown>

const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value)

/** `media` (a content map's entry) with `example` set, when the entry exists. */
function withExample(content: unknown, contentType: string, example: unknown): unknown {
  if (!isNode(content) || !isNode(content[contentType])) return content
  return { ...content, [contentType]: { ...content[contentType], example } }
}

function withRecorded(operation: Node, recorded: RecordedExample): Node {
  const { request, response } = recorded
  const body = operation.requestBody
  const requestBody =
    request !== undefined && isNode(body) ? { ...body, content: withExample(body.content, 'application/json', request) } : body
  const responses = isNode(operation.responses) ? operation.responses : {}
  const answer = responses[response.status]
  return {
    ...operation,
    ...(requestBody === undefined ? {} : { requestBody }),
    responses: isNode(answer)
      ? { ...responses, [response.status]: { ...answer, content: withExample(answer.content, response.contentType, response.body) } }
      : responses,
  }
}

/** The document with every operation that has a recorded exchange showing it. */
export function attachExamples<D extends object>(document: D, examples: RecordedExamples): D {
  const { paths }: { paths?: unknown } = document
  if (!isNode(paths)) return document
  const shown = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      isNode(item)
        ? Object.fromEntries(
            Object.entries(item).map(([method, operation]) => {
              const id = isNode(operation) ? operation.operationId : undefined
              const recorded = typeof id === 'string' && Object.hasOwn(examples, id) ? examples[id] : undefined
              return [method, isNode(operation) && recorded ? withRecorded(operation, recorded) : operation]
            }),
          )
        : item,
    ]),
  )
  return { ...document, paths: shown }
}
