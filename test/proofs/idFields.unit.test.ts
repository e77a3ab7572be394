// The foreign-ids proof's reading of a schema (fixtures/idFields.ts): which fields name ids, where a
// request's values for them are, and a request with one of them replaced.
import t from 'tap'
import { idFieldsOf, placeOfPath, placesOf, withValueAt } from './fixtures/idFields.js'
import type { Operation } from './fixtures/operations.js'

const str = { type: 'string' }
const operation: Operation = {
  key: 'POST /v1/things',
  method: 'POST',
  path: '/v1/things',
  pathParams: [],
  headerParams: [],
  queryParams: [
    { name: 'customerId', in: 'query', required: false, schema: str },
    { name: 'clientReferenceId', in: 'query', required: false, schema: str },
  ],
  bodyRequired: true,
  body: {
    type: 'object',
    properties: {
      source: { type: 'object', properties: { accountId: str, note: str } },
      governmentId: { type: 'object', properties: { frontImage: str, idNumber: str } },
      documentIds: { type: 'array', items: str },
      supportingDocuments: { type: 'array', items: { type: 'object', properties: { file: str, requirementId: str } } },
      clientReferenceId: str,
    },
  },
}

t.test('id fields: names ending in Id or Ids and known references, not the caller’s own references', async (t) => {
  t.same(idFieldsOf(operation), [
    { in: 'body', path: 'source.accountId' },
    { in: 'body', path: 'governmentId.frontImage' },
    { in: 'body', path: 'documentIds[]' },
    { in: 'body', path: 'supportingDocuments[].file' },
    { in: 'query', path: 'customerId' },
  ])
})

t.test('places: every value a path names, through arrays; a copy with one replaced', async (t) => {
  const body = { source: { accountId: 'acc_1' }, documentIds: ['doc_1', 'doc_2'], supportingDocuments: [{ file: 'doc_3' }] }
  t.same(placesOf(body, 'documentIds[]'), [
    { place: ['documentIds', 0], id: 'doc_1' },
    { place: ['documentIds', 1], id: 'doc_2' },
  ])
  t.same(placesOf(body, 'supportingDocuments[].file'), [{ place: ['supportingDocuments', 0, 'file'], id: 'doc_3' }])
  t.same(placesOf(body, 'destination.accountId'), [], 'absent')
  const copy = withValueAt(body, ['supportingDocuments', 0, 'file'], 'doc_x')
  t.same(placesOf(copy, 'supportingDocuments[].file'), [{ place: ['supportingDocuments', 0, 'file'], id: 'doc_x' }])
  t.equal(body.supportingDocuments[0]!.file, 'doc_3', 'the original unchanged')
  t.same(withValueAt({}, placeOfPath('quote.quoteId')!, 'qt_1'), { quote: { quoteId: 'qt_1' } }, 'created along the way')
  t.equal(placeOfPath('documentIds[]'), undefined, 'no place for an array item that is not there')
})
