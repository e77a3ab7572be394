// Every bound of a console session (issue 30, point 4), with its unit and its reason.
export const CONSOLE_SESSION_LIMITS = {
  /** A session ends this long after sign-in, however busy: a stolen cookie is worth a working day at most. */
  absoluteMs: 12 * 3_600_000,
  /** ...or after this long without a request (a console left open on a shared screen). */
  idleMs: 30 * 60_000,
  /** last_seen_at moves at most this often: one write a minute per session, not one per request. */
  touchEveryMs: 60_000,
  /** Sessions one key may hold at once; a sign-in past it ends that key's oldest sessions. */
  maxPerKey: 20,
  /** Expired sessions one sign-in deletes on its way: the table stays small without a background job. */
  sweepPerSignIn: 100,
  /** Random bytes of a session token (256 bits: not guessable, so a plain SHA-256 stores it). */
  tokenBytes: 32,
  /** Sign-in attempts one IP address may make per window (server/console/signInLimit.ts), on top of the per-IP limit. */
  signInWindowMs: 60_000,
} as const
