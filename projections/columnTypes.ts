// Column types the read-model tables share. A JSON column is typed by what it holds: reads give a
// T, and a write takes only the JSON text of a T (made by `toJson`), so both are checked.
import type { ColumnType } from 'kysely'

export type Timestamp = ColumnType<Date, Date | string, Date | string>
/** A timestamp the database fills in when an insert leaves it out. */
export type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>

declare const holds: unique symbol
/** JSON text of a T; only `toJson` makes one. */
export type JsonText<T> = string & { readonly [holds]: T }
export type Json<T> = ColumnType<T, JsonText<T>, JsonText<T>>

export const toJson = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>
