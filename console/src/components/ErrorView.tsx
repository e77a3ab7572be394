// An API error as the service sent it: code, message, the fields it names and the request id to quote to support.
import type { JSX } from 'preact'

type ErrorBody = { status?: number; code?: string; message?: string; details?: { field?: string; message?: string }[]; requestId?: string }

function bodyOf(error: unknown): ErrorBody {
  if (error && typeof error === 'object') return error as ErrorBody
  return { message: String(error) }
}

export function ErrorView(props: { error: unknown }): JSX.Element {
  const body = bodyOf(props.error)
  return (
    <div class="error" role="alert">
      <strong>{body.code ?? (body.status ? `HTTP ${body.status}` : 'Error')}</strong> {body.message ?? 'Something went wrong.'}
      {body.details && body.details.length > 0 && (
        <ul>
          {body.details.map((d, i) => (
            <li key={i}>
              {d.field && <code>{d.field}</code>} {d.message}
            </li>
          ))}
        </ul>
      )}
      {body.requestId && <div class="muted">Request {body.requestId}</div>}
    </div>
  )
}
