// Business customers through HTTP: business verification, associated persons and businesses (asp_,
// nested with parentEntityId), ownership rules, and the 25% / control-person submission rule.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { createBusiness, createIndividual, fieldsOf, PDF, upload } from './fixtures.js'

const h = await startTestApp(t)
const address = { addressLine1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' }
const person = {
  firstName: 'Pat',
  lastName: 'Owner',
  dateOfBirth: '1980-05-05',
  nationality: 'US',
  taxIdentificationNumber: '123-45-6789',
  address,
  email: 'pat@example.com',
}

const saveBusiness = (id: string, body: unknown, submit?: boolean) =>
  h.request({
    method: 'POST',
    url: `/v1/customers/${id}/business_verification${submit === undefined ? '' : `?submit=${submit}`}`,
    payload: body as object,
  })
const addBusiness = (id: string, body: unknown) =>
  h.request({ method: 'POST', url: `/v1/customers/${id}/associated_businesses`, payload: body as object })
const addPerson = (id: string, body: unknown) =>
  h.request({ method: 'POST', url: `/v1/customers/${id}/associated_persons`, payload: body as object })
async function completeBusiness(id: string) {
  const formation = await upload(h, id, PDF, 'application/pdf')
  return {
    businessLegalName: 'Acme Holdings LLC',
    businessTradeName: 'Acme',
    businessType: 'LLC',
    businessDescription: 'Widgets',
    businessIndustry: '423990',
    registrationNumber: 'C1234567',
    taxIdentificationNumber: '12-3456789',
    dateOfIncorporation: '2015-06-01',
    registeredAddress: address,
    physicalAddress: address,
    email: 'ops@acme.example',
    phone: '+14155550100',
    website: 'https://acme.example',
    accountPurpose: 'BUSINESS_OPERATIONS',
    sourceOfFunds: 'COMPANY_FUNDS',
    expectedMonthlyPaymentsUsd: 100000,
    actingAsIntermediary: false,
    attestedOwnershipStructureAt: '2026-01-01T00:00:00Z',
    supportingDocuments: [{ file: formation, type: 'BUSINESS_FORMATION' }],
    hasAgreedToTos: true,
    requestedCapabilities: ['USD_ACH_PAYOUT', 'EUR_FX_PAYOUT'],
  }
}

t.test('business verification: saved, rules refused with the field named', async (t) => {
  const b = await createBusiness(h)
  const body = await completeBusiness(b.id)
  const res = await saveBusiness(b.id, body)
  t.equal(res.statusCode, 200)
  t.match(res.json(), { status: 'DRAFT', missingRequirements: ['beneficialOwnership'] })
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${b.id}` })).json().customerName, 'Acme Holdings LLC')
  const ein = await saveBusiness(b.id, { taxIdentificationNumber: '123456' })
  t.equal(ein.statusCode, 422)
  t.same(fieldsOf(ein.json()), ['taxIdentificationNumber'], 'a US business needs an EIN')
  const future = await saveBusiness(b.id, { dateOfIncorporation: '2999-01-01' })
  t.same(fieldsOf(future.json()), ['dateOfIncorporation'])
  const other = await saveBusiness(b.id, { accountPurpose: 'OTHER' })
  t.same(fieldsOf(other.json()), ['accountPurposeExplanation'])
  const badPhone = await saveBusiness(b.id, { phone: '0800 123' })
  t.equal(badPhone.statusCode, 400)
  t.same(fieldsOf(badPhone.json()), ['body.phone'])
  const individual = await createIndividual(h)
  t.equal((await saveBusiness(individual.id, { registrationNumber: 'X' })).json().code, 'customer_type_mismatch')
})

t.test('associated business: asp_ id, every field, nesting, email when a link is asked for', async (t) => {
  const b = await createBusiness(h)
  const doc = await upload(h, b.id, PDF, 'application/pdf')
  const full = {
    countryCode: 'GB',
    hasOwnership: true,
    hasControl: false,
    businessName: 'Holdco Ltd',
    email: 'holdco@example.com',
    phone: '+442071234567',
    address: { addressLine1: '1 King St', city: 'London', postalCode: 'EC2V 8AU', country: 'GB' },
    ownershipPercentage: 60,
    isSigner: false,
    isDirector: true,
    role: 'OTHER',
    title: 'Parent company',
    attestedOwnershipStructureAt: '2026-01-02T03:04:05Z',
    relationshipDate: '2020-01-01',
    generateVerificationLink: true,
    sendInvite: false,
    registrationNumber: '01234567',
    dateOfIncorporation: '2010-01-01',
    supportingDocuments: [
      {
        file: doc,
        requirementId: 'req_1',
        type: 'OWNERSHIP_STRUCTURE',
        subtype: 'REGISTER_OF_MEMBERS',
        description: 'register',
        remarks: 'certified',
      },
    ],
  }
  const res = await addBusiness(b.id, full)
  t.equal(res.statusCode, 201)
  const holdco = res.json()
  t.match(holdco, {
    id: /^asp_[0-9a-z]{26}$/,
    entityType: 'BUSINESS',
    hasOwnership: true,
    hasControl: false,
    parentEntityId: null,
    countryCode: 'GB',
    email: 'holdco@example.com',
    ownershipPercentage: 60,
    effectiveOwnershipPercentage: 60,
    isDirector: true,
    role: 'OTHER',
    title: 'Parent company',
    documents: [doc],
    displayName: 'Holdco Ltd',
    attestedOwnershipStructureAt: '2026-01-02T03:04:05Z',
    businessName: 'Holdco Ltd',
    registrationNumber: '01234567',
    verificationLink: { sessionId: /^vsess_/, verificationUrl: /^https:\/\//, expiresAt: /T/, status: 'ACTIVE' },
  })
  t.same(Object.keys(holdco.details).sort(), [
    'dateOfBirth',
    'firstName',
    'lastName',
    'middleName',
    'nickname',
    'taxIdentificationDocumentType',
    'taxResidenceCountry',
    'transliteratedFirstName',
    'transliteratedLastName',
    'transliteratedMiddleName',
  ])
  const child = await addBusiness(b.id, { businessName: 'Midco', parentEntityId: holdco.id, hasOwnership: true, ownershipPercentage: 50 })
  t.equal(child.statusCode, 201)
  t.match(child.json(), { parentEntityId: holdco.id, effectiveOwnershipPercentage: 30 }, '50% of 60% is 30%')
  const noEmail = await addBusiness(b.id, { businessName: 'X', generateVerificationLink: true })
  t.equal(noEmail.statusCode, 422)
  t.same(fieldsOf(noEmail.json()), ['email'])
  const invite = await addBusiness(b.id, { businessName: 'X', sendInvite: true })
  t.same(fieldsOf(invite.json()), ['email'], 'sendInvite needs an email too')
  const list = (await h.request({ method: 'GET', url: `/v1/customers/${b.id}/associated_businesses` })).json()
  t.same(
    list.data.map((e: { id: string }) => e.id),
    [holdco.id, child.json().id],
  )
  t.same((await h.request({ method: 'GET', url: `/v1/customers/${b.id}/associated_businesses/${holdco.id}` })).json(), list.data[0])
})

t.test('ownership rules: 0 to 100, at most 100 per level, known business parents, no cycles', async (t) => {
  const b = await createBusiness(h)
  t.equal((await addBusiness(b.id, { businessName: 'Over', ownershipPercentage: 101, hasOwnership: true })).statusCode, 400, '101%')
  t.equal((await addBusiness(b.id, { businessName: 'Under', ownershipPercentage: -1, hasOwnership: true })).statusCode, 400, '-1%')
  const a = (await addBusiness(b.id, { businessName: 'A', ownershipPercentage: 70, hasOwnership: true })).json()
  const over = await addBusiness(b.id, { businessName: 'B', ownershipPercentage: 40, hasOwnership: true })
  t.equal(over.statusCode, 422)
  t.equal(over.json().code, 'ownership_over_100')
  t.same(fieldsOf(over.json()), ['ownershipPercentage'])
  t.equal(
    (await addPerson(b.id, { firstName: 'Q', ownershipPercentage: 30, hasOwnership: true })).statusCode,
    201,
    'exactly 100 at the top level',
  )
  const c = (await addBusiness(b.id, { businessName: 'C', parentEntityId: a.id, ownershipPercentage: 100, hasOwnership: true })).json()
  const cycle = await h.request({
    method: 'PATCH',
    url: `/v1/customers/${b.id}/associated_businesses/${a.id}`,
    payload: { parentEntityId: c.id },
  })
  t.equal(cycle.statusCode, 422)
  t.equal(cycle.json().code, 'ownership_cycle')
  t.same(fieldsOf(cycle.json()), ['parentEntityId'])
  const missing = await addPerson(b.id, { firstName: 'R', parentEntityId: 'asp_00000000000000000000000000' })
  t.equal(missing.json().code, 'ownership_parent_missing')
  const p = (await addPerson(b.id, { firstName: 'S' })).json()
  const underPerson = await addPerson(b.id, { firstName: 'T', parentEntityId: p.id })
  t.equal(underPerson.json().code, 'ownership_parent_not_business')
  const noFlag = await addPerson(b.id, { firstName: 'U', ownershipPercentage: 10 })
  t.same(fieldsOf(noFlag.json()), ['hasOwnership'], 'a percentage needs hasOwnership')
  const patched = await h.request({
    method: 'PATCH',
    url: `/v1/customers/${b.id}/associated_businesses/${c.id}`,
    payload: { ownershipPercentage: 80 },
  })
  t.equal(patched.statusCode, 200)
  t.equal(patched.json().ownershipPercentage, 80)
  t.equal(
    (await h.request({ method: 'PATCH', url: `/v1/customers/${b.id}/associated_persons/${c.id}`, payload: { firstName: 'X' } })).statusCode,
    404,
    'a business is not a person',
  )
  t.equal(
    (await h.request({ method: 'PATCH', url: `/v1/customers/${b.id}/associated_businesses/${c.id}`, payload: {} })).statusCode,
    400,
    'a change needs a field',
  )
  const individual = await createIndividual(h)
  t.equal((await addBusiness(individual.id, { businessName: 'X' })).json().code, 'customer_type_mismatch')
})

t.test('associated person: individual rules apply', async (t) => {
  const b = await createBusiness(h)
  const res = await addPerson(b.id, {
    ...person,
    middleName: 'Q',
    nickname: 'P',
    transliteratedFirstName: 'Pat',
    hasOwnership: true,
    ownershipPercentage: 25,
    isSigner: true,
    role: 'CEO',
    title: 'Chief',
    taxIdentificationDocumentType: 'SSN',
    phone: '+14155550111',
  })
  t.equal(res.statusCode, 201)
  t.match(res.json(), {
    entityType: 'INDIVIDUAL',
    details: { firstName: 'Pat', lastName: 'Owner', dateOfBirth: '1980-05-05', taxIdentificationDocumentType: 'SSN' },
    isSigner: true,
    role: 'CEO',
    displayName: 'Pat Owner',
  })
  t.notMatch(res.body, /123-45-6789/, 'tax id never returned')
  const bad = await addPerson(b.id, {
    firstName: 'Дмитрий',
    nationality: 'US',
    taxIdentificationNumber: 'NOT_APPLICABLE',
    taxResidenceCountry: 'US',
  })
  t.equal(bad.statusCode, 422)
  t.same(fieldsOf(bad.json()).sort(), ['taxIdentificationNumber', 'taxResidenceCountry', 'transliteratedFirstName'])
  t.equal((await addPerson(b.id, { firstName: 'X', dateOfBirth: '1980-13-01' })).statusCode, 400)
  t.equal((await addPerson(b.id, { firstName: 'X', role: 'JANITOR' })).statusCode, 400, "role from the spec's list")
})

t.test('submission: every individual with 25% effective ownership, or else a control person', async (t) => {
  const b = await createBusiness(h)
  await saveBusiness(b.id, await completeBusiness(b.id))
  const hold = (await addBusiness(b.id, { businessName: 'Hold', hasOwnership: true, ownershipPercentage: 60 })).json()
  // 40% of 60% = 24%: below the threshold.
  const minority = (await addPerson(b.id, { ...person, parentEntityId: hold.id, hasOwnership: true, ownershipPercentage: 40 })).json()
  t.equal(minority.effectiveOwnershipPercentage, 24)
  const blocked = (await h.request({ method: 'POST', url: `/v1/customers/${b.id}/submit` })).json()
  t.match(blocked, { status: 'DRAFT', missingRequirements: ['beneficialOwnership'] })
  const owner = (await addPerson(b.id, { firstName: 'Big', lastName: 'Owner', hasOwnership: true, ownershipPercentage: 40 })).json()
  const gaps = (await h.request({ method: 'POST', url: `/v1/customers/${b.id}/submit` })).json()
  t.same(
    gaps.missingRequirements,
    [
      `associatedPersons.${owner.id}.dateOfBirth`,
      `associatedPersons.${owner.id}.address`,
      `associatedPersons.${owner.id}.taxIdentificationNumber`,
    ],
    'the 40% owner must be complete',
  )
  await h.request({
    method: 'PATCH',
    url: `/v1/customers/${b.id}/associated_persons/${owner.id}`,
    payload: { dateOfBirth: '1970-01-01', address, nationality: 'US', taxIdentificationNumber: '987-65-4320' },
  })
  const compliance = (await h.request({ method: 'GET', url: `/v1/customers/${b.id}/compliance` })).json()
  t.match(
    compliance.requirements.find((r: { requirement: string }) => r.requirement === 'beneficialOwnership'),
    { status: 'SATISFIED' },
  )
  const submitted = (await h.request({ method: 'POST', url: `/v1/customers/${b.id}/submit` })).json()
  t.match(submitted, { status: 'UNDER_REVIEW', missingRequirements: [] })

  const c = await createBusiness(h)
  await saveBusiness(c.id, await completeBusiness(c.id))
  await addPerson(c.id, { ...person, hasOwnership: true, ownershipPercentage: 20 })
  t.match(
    (await h.request({ method: 'POST', url: `/v1/customers/${c.id}/submit` })).json(),
    { missingRequirements: ['beneficialOwnership'] },
    'no 25% owner, no control person',
  )
  await addPerson(c.id, { ...person, firstName: 'Ctrl', hasControl: true, role: 'CEO' })
  t.match(
    (await h.request({ method: 'POST', url: `/v1/customers/${c.id}/submit` })).json(),
    { status: 'UNDER_REVIEW' },
    'a control person satisfies it',
  )
  t.equal((await addPerson(c.id, { firstName: 'Late' })).json().code, 'customer_not_editable', 'no changes under review')
})
