// Types read off the generated document by path and method only (never by schema name, which the document
// may rename): which paths a method has, what a call takes and answers, and which GET paths are lists.
import type { FetchResponse, MaybeOptionalInit } from 'openapi-fetch'
import type { paths } from './generated/api.js'

export type { paths }

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

/** The paths that have `method`. */
export type PathsWith<M extends HttpMethod> = { [P in keyof paths]: paths[P] extends Record<M, unknown> ? P : never }[keyof paths]

/** What a call to `path` with `method` takes: params (path, query, header) and body, as openapi-fetch types them. */
export type CallInit<P extends PathsWith<M>, M extends HttpMethod> = MaybeOptionalInit<paths[P], M>

type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]

/** The init argument, optional when nothing in it is required (openapi-fetch's rule). */
export type InitArgs<I> = RequiredKeysOf<I> extends never ? [I?] : [I]

/** A successful answer: the parsed body (the 2xx schema of the operation) and the Response (headers, status). */
export type Answer<P extends PathsWith<M>, M extends HttpMethod, I> = {
  data: NonNullable<FetchResponse<paths[P][M] & Record<string | number, unknown>, I, 'application/json'>['data']>
  response: Response
}

/** A typed call: resolves with the answer on 2xx, throws PaymentsApiError otherwise. */
export type Call<M extends HttpMethod> = <P extends PathsWith<M>, I extends CallInit<P, M>>(
  path: P,
  ...init: InitArgs<I>
) => Promise<Answer<P, M, I>>

type JsonOk<Operation> = Operation extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never

/** GET paths whose answer is a page: `{ data: [...], ... }`. */
export type ListPath = {
  [P in PathsWith<'get'>]: JsonOk<paths[P]['get']> extends { data: readonly unknown[] } ? P : never
}[PathsWith<'get'>]

export type ListPage<P extends ListPath> = JsonOk<paths[P]['get']>
export type ListItem<P extends ListPath> = ListPage<P>['data'][number]

type GetParameters<P extends ListPath> = paths[P]['get'] extends { parameters: infer Parameters } ? Parameters : never

/** A list's query: its filters and, optionally, the page size and where the walk starts. */
export type ListQuery<P extends ListPath> = GetParameters<P> extends { query?: infer Q } ? NonNullable<Q> : never

/** A list's path parameters: required when its path has some. */
export type ListPathParams<P extends ListPath> = GetParameters<P> extends { path: infer A } ? { path: A } : { path?: undefined }
