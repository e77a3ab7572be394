// Named points between the steps of a multi-stream workflow where a test may make the process die
// (SIGKILL, as a power cut would), to prove that a restart repeats the steps and loses nothing
// (test/transfers/crash.e2e.test.ts). One point is armed per process, from CRASH_AT at start-up;
// unarmed, a point costs one comparison.
export const CRASH_POINTS = [
  'transfer-created',
  'transfer-hold-placed',
  'transfer-funded',
  'transfer-leg-started',
  'transfer-settle-next',
  'transfer-settled',
  'transfer-delivered',
] as const
export type CrashPoint = (typeof CRASH_POINTS)[number]

let armed: CrashPoint | undefined

export function armCrashPoint(point: CrashPoint | undefined): void {
  armed = point
}

export function crashPoint(point: CrashPoint): void {
  if (armed === point) process.kill(process.pid, 'SIGKILL')
}
