// The invoice routes' path parameter and tag, shared by the write, read and sandbox routes.
import { idParam } from './idParam.js'

export const INVOICE_TAGS = ['Invoices']
export const invoiceParams = idParam('id', 'inv_', 'Invoice')
