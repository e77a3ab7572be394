// The sandbox rails engine's public API: rail facts and calendars, schedules, sandbox delays and
// triggers, tracking ids and SWIFT routing. Pure: the transfers slice plans and settles legs with it.
export { ACH_RETURN_REASONS, type AchReturnCode, SANDBOX_ACH_RETURN_CODE, achReturnReasonText } from './achReturnReasons.js'
export { BUSINESS_CALENDARS, type BusinessCalendar, holidaysOf, isBusinessDay } from './businessCalendars.js'
export {
  CHAIN_TX_HASHES,
  RAIL_CATALOG,
  type RailFacts,
  SANDBOX_RAILS,
  type SandboxRail,
  SWIFT_SETTLEMENT_SYSTEMS,
  TRACKING_ID_KINDS,
  type TrackingIdKind,
  isSandboxRail,
  railFacts,
} from './railCatalog.js'
export {
  SANDBOX_DELAY_LIMITS,
  SANDBOX_STEP_DELAYS_MS,
  type SandboxDelayOverrides,
  type SandboxRailOrChain,
  sandboxDelayOverridesSchema,
  sandboxStepDelayMs,
} from './sandboxDelays.js'
export { SANDBOX_TRIGGERS, SANDBOX_TRIGGER_AMOUNTS, type SandboxTrigger, sandboxTrigger } from './sandboxTriggers.js'
export { RAIL_SCHEDULE_LIMITS, type RailSchedule, type RailScheduleOptions, railSchedule } from './schedule.js'
export {
  SWIFT_LIMITS,
  SWIFT_ROUTING_SOURCE,
  SWIFT_UNTRACKED_SYSTEM_REMARK,
  type SwiftRouting,
  type SwiftRoutingStage,
  swiftRouting,
} from './swiftRouting.js'
export {
  TRACKING_ID_DEFAULTS,
  achTraceNumber,
  achTraceNumberSchema,
  imad,
  imadSchema,
  isAchTraceNumber,
  isImad,
  isOmad,
  isTxHash,
  isUetr,
  omad,
  omadSchema,
  type RailTrackingIds,
  railTrackingIds,
  txHash,
  uetr,
  uetrSchema,
} from './trackingIds.js'
export { railCarries } from './railCatalog.js'
