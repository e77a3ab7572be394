// The console's frame: sign-in until there is a session, then the environment banner, the navigation and the page.
import type { JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { ErrorView } from './components/ErrorView.js'
import { pageFor, navigationFor } from './pages/index.js'
import { Link, navigate, useLocation } from './router.js'
import { type Session, currentSession, signIn, signOut } from './session.js'

function SignIn(props: { onSignedIn: (session: Session) => void }): JSX.Element {
  const [apiKey, setApiKey] = useState('')
  const [error, setError] = useState<unknown>(undefined)
  const [busy, setBusy] = useState(false)
  return (
    <main class="sign-in">
      <h1>Payments console</h1>
      <form
        onSubmit={async (event) => {
          event.preventDefault()
          setBusy(true)
          setError(undefined)
          try {
            const session = await signIn(apiKey.trim())
            setApiKey('')
            props.onSignedIn(session)
          } catch (e) {
            setError(e)
          } finally {
            setBusy(false)
          }
        }}
      >
        <label>
          API key
          <input
            name="apiKey"
            type="password"
            autoComplete="off"
            placeholder="sk_sandbox_…"
            value={apiKey}
            onInput={(e) => setApiKey(e.currentTarget.value)}
            required
          />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="muted">The key is exchanged for a session cookie; the console never stores it.</p>
      </form>
      {error !== undefined && <ErrorView error={error} />}
    </main>
  )
}

function Frame(props: { session: Session; onSignedOut: () => void }): JSX.Element {
  const { path } = useLocation()
  const { session } = props
  const links = navigationFor(session.role)
  return (
    <div class={`frame env-${session.environment}`}>
      <header>
        <span class="brand">Payments console</span>
        <span class="environment" data-testid="environment">
          {session.environment === 'production' ? 'PRODUCTION' : 'SANDBOX'}
        </span>
        <span class="muted">
          {session.organizationName} ({session.organizationId}) · {session.role.toLowerCase()} key {session.keyHint}
        </span>
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            await signOut()
            props.onSignedOut()
            navigate('/')
          }}
        >
          Sign out
        </button>
      </header>
      <nav>
        {links.map((link) => (
          <Link key={link.to} to={link.to} class={path === link.to || path.startsWith(`${link.to}/`) ? 'active' : ''}>
            {link.title}
          </Link>
        ))}
      </nav>
      <main>{pageFor(path, session.role)}</main>
    </div>
  )
}

export function App(): JSX.Element {
  const [session, setSession] = useState<Session | undefined | null>(null)
  const [error, setError] = useState<unknown>(undefined)
  useEffect(() => {
    currentSession().then(setSession, setError)
  }, [])
  if (error !== undefined) return <ErrorView error={error} />
  if (session === null) return <p class="muted">Loading…</p>
  if (session === undefined) return <SignIn onSignedIn={setSession} />
  return <Frame session={session} onSignedOut={() => setSession(undefined)} />
}
