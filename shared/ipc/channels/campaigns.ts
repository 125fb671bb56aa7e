import { z } from 'zod';
import { ianaTimeZoneSchema } from '../../service/callConfig.ts';
import { callbackArgsSchema } from '../../service/smartFormatter.ts';
import { CALL_PURPOSES } from '../../domain/callingHours.ts';
import { countryCodeSchema } from '../../service/upload.ts';
import { channel, event } from '../define.ts';

// Campaigns: local drafts of the builder, field-named validation, the plan, the launch outbox
// (large flow: upload-csv → upload status → balance → make-call-async; standard flow: save →
// start), the offline queue waiting for confirmation, the campaigns list and timeline, terminate,
// and a test call. The back end owns every request; the UI only reads these answers.

const listId = z.number().int().positive();
const count = z.number().int().nonnegative();
const launchId = z.string().min(1).max(100);
const draftId = z.string().min(1).max(100);
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM (00:00 to 23:59)');
/** `DD/MM/YYYY, HH:MM` (wall clock in the draft's timezone); the calendar is checked by validate. */
const campaignTime = z
  .string()
  .trim()
  .regex(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/, 'must be a date and time DD/MM/YYYY, HH:MM');
const minutes = z.number().int().min(0).max(10_080);
const seconds = z.number().int().min(0).max(86_400);

/** The builder's call settings (sent as `call_config`; retry delays in minutes, timeouts in seconds). */
export const campaignCallSettingsSchema = z.object({
  windowStart: hhmm,
  windowEnd: hhmm,
  retryCount: z.number().int().min(0).max(10),
  retryBusyMinutes: minutes,
  retryNotPickedMinutes: minutes,
  retryFailedMinutes: minutes,
  idleTimeoutWarningSeconds: seconds,
  idleTimeoutEndSeconds: seconds,
  maxCallLengthSeconds: z.number().int().min(1).max(86_400),
});
export type CampaignCallSettings = z.infer<typeof campaignCallSettingsSchema>;

/** Exactly one number source: caller numbers (from_number ids or E.164) or a number pool. */
export const numberSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('numbers'), fromNumbers: z.array(z.string().trim().min(1).max(64)).max(100) }),
  z.object({ kind: z.literal('pool'), numberPoolId: z.string().trim().max(200) }),
]);
export type NumberSource = z.infer<typeof numberSourceSchema>;

/** Everything a campaign needs, as the builder edits it (fields may still be incomplete). */
export const campaignSettingsSchema = z.object({
  listId: listId.nullable(),
  agentId: z.string().max(200).nullable(),
  /** The agent version the mapping and preview were made with; null = the active version. */
  versionId: z.string().max(200).nullable(),
  /** Agent variable → contact list column name (the agents issue's mapping at the time of saving). */
  mapping: z.record(z.string().max(100), z.string().max(500)),
  name: z.string().max(200),
  countryCode: z.string().max(8),
  numberSource: numberSourceSchema,
  start: z.string().max(40),
  end: z.string().max(40),
  timezone: z.string().max(100),
  call: campaignCallSettingsSchema,
  concurrency: z.number().int().min(0).max(100),
  callbackUrl: z.string().max(2000),
  removeInvalid: z.boolean(),
  transliterateNames: z.boolean(),
  /** Why the recipients are called: picks their permitted calling hours (shared/domain/callingHours.ts). */
  purpose: z.enum(CALL_PURPOSES).default('other'),
  /** The operator read the warning that the daily window is outside the permitted hours. */
  hoursAcknowledged: z.boolean().default(false),
  /** Launch even though the plan says some calls do not fit before the end. */
  acceptShortfall: z.boolean().default(false),
});
export type CampaignSettings = z.infer<typeof campaignSettingsSchema>;

/** A settings field is named by its key path (`call.windowStart`, `numberSource`, `start`, …). */
export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const campaignDraftSchema = z.object({
  id: draftId,
  workspaceId: z.string(),
  settings: campaignSettingsSchema,
  updatedAt: z.string(),
});
export type CampaignDraft = z.infer<typeof campaignDraftSchema>;

// ---------------------------------------------------------------- plan

export const planDaySchema = z.object({
  /** YYYY-MM-DD in the campaign's timezone (the day the window opens). */
  date: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  /** The window ends the next day (it spans midnight). */
  overnight: z.boolean(),
  /** Calls the plan places in this day's window. */
  calls: count,
});

export const campaignPlanSchema = z.object({
  /**
   * The calls to place before retries: the rows the upload carries (valid, not excluded) less the
   * rows the service will drop (`rowsServiceWillDrop`). Credits needed are counted from it.
   */
  calls: count,
  /**
   * Rows the upload carries that the service will drop (an empty non-optional variable, with
   * "Remove invalid rows" on): sent, never called, no credit.
   */
  rowsServiceWillDrop: count,
  invalid: count,
  flow: z.enum(['large', 'standard']),
  /** Calls one concurrency slot-set places per hour (assumed throughput, said in `assumption`). */
  callsPerHour: z.number().nonnegative(),
  days: z.array(planDaySchema),
  /** ISO instant the last call is expected to start; null when the campaign window is too short. */
  estimatedFinish: z.string().nullable(),
  /** Calls that do not fit before the campaign end. */
  callsNotFitting: count,
  credits: z.object({
    needed: z.number().nonnegative(),
    /** From the service (workspace info / balance check); null when not reported or offline. */
    available: z.number().nullable(),
    sufficient: z.boolean().nullable(),
    /** When the service said so (ISO); null when never. */
    checkedAt: z.string().nullable(),
    /** `service`: asked for this plan; `cached`: the last answer (offline now; `reason` says why). */
    source: z.enum(['service', 'cached']).nullable(),
    reason: z.string().nullable(),
  }),
  /** How the estimate was made, in plain words (the lines and concurrency it used). */
  assumption: z.string(),
  /** The campaign's IANA zone: dates, windows and the finish are read in it. */
  timezone: z.string(),
  /** Campaign start and end (ISO instants), null when unreadable. */
  start: z.string().nullable(),
  end: z.string().nullable(),
  /** The daily window, and whether it spans midnight (planned as one window ending the next day). */
  window: z.object({ start: z.string(), end: z.string(), overnight: z.boolean() }),
  /** Outside the recipients' permitted calling hours (plain words), null when inside or unknown. */
  hoursWarning: z.string().nullable(),
});
export type CampaignPlan = z.infer<typeof campaignPlanSchema>;

// ---------------------------------------------------------------- numbers

export const workspaceNumberViewSchema = z.object({
  id: z.string(),
  number: z.string(),
  numberPoolId: z.string().nullable(),
  label: z.string().nullable(),
});
export const numbersAnswerSchema = z.object({
  numbers: z.array(workspaceNumberViewSchema),
  pools: z.array(z.string()),
  /** Each pool with a name (its numbers' shared display name, else `Pool of N numbers`) and numbers. */
  poolDetails: z.array(z.object({ id: z.string(), name: z.string(), numbers: z.array(z.string()) })),
  /** When the cached copy was read from the service (ISO), null when never. */
  syncedAt: z.string().nullable(),
  /** Why the refresh failed (the cache is shown), null after a success. */
  lastError: z.string().nullable(),
});

// ---------------------------------------------------------------- launches (the outbox)

export const LAUNCH_STEPS = [
  'upload',
  'upload-status',
  'balance',
  'make-call-async',
  'save',
  'start',
  'verify-start',
] as const;
export const launchStepSchema = z.enum(LAUNCH_STEPS);

/**
 * queued: prepared, waits for the operator's confirmation (offline or auto-send off);
 * pending: the runner works on it; waiting: the service is unreachable, resumes on reconnect;
 * started: the service accepted the start; failed: refused (message says why);
 * needs-decision: the start's outcome is unknown and the service cannot tell, the operator decides.
 */
export const LAUNCH_STATES = ['queued', 'pending', 'waiting', 'started', 'failed', 'needs-decision'] as const;
export const launchStateSchema = z.enum(LAUNCH_STATES);
export type LaunchState = z.infer<typeof launchStateSchema>;

export const timelineEntrySchema = z.object({
  step: launchStepSchema,
  /** sent: written before the request; the rest after the answer. */
  outcome: z.enum(['sent', 'ok', 'refused', 'unreachable', 'ambiguous', 'info']),
  at: z.string(),
  /** The service's message or our plain words (402/409/422 explained; both error shapes read). */
  message: z.string().nullable(),
  httpStatus: z.number().int().nullable(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const launchViewSchema = z.object({
  id: launchId,
  workspaceId: z.string(),
  name: z.string(),
  listId: listId.nullable(),
  agentId: z.string(),
  flow: z.enum(['large', 'standard']),
  state: launchStateSchema,
  /** The step the runner does next (or did last). */
  step: launchStepSchema,
  /** The service's id: bulk_list_id (large) or list_id (standard), once known. */
  serviceId: z.string().nullable(),
  valid: count,
  invalid: count,
  /** Rows the service invalidated and its rejects file URL (large flow), when reported. */
  serviceInvalid: count.nullable(),
  rejectsUrl: z.string().nullable(),
  /**
   * Rows the service will drop, as the app predicted when the upload file was written (rows with
   * an empty non-optional variable; only with "Remove invalid rows" on, else the launch is refused).
   * Null for launches of older builds.
   */
  rowsServiceWillDrop: count.nullable(),
  /** Rows the service said it accepted, once it answered. */
  arrived: count.nullable(),
  message: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The campaign (builder draft) it was launched from; null for a CLI launch. */
  draftId: draftId.nullable(),
  /** When the operator terminated its remaining calls (ISO), null when not. */
  terminatedAt: z.string().nullable(),
});
export type LaunchView = z.infer<typeof launchViewSchema>;

// ---------------------------------------------------------------- campaigns list

export const campaignRowSchema = z.object({
  /** Local launch id when the campaign was launched from here. */
  launchId: launchId.nullable(),
  /** The service's campaign id (listing), null for a local launch not yet on the service. */
  campaignId: z.string().nullable(),
  serviceId: z.string().nullable(),
  name: z.string(),
  /** Local launch state, or the service's campaign_status. */
  status: z.string(),
  registered: count.nullable(),
  completed: count.nullable(),
  total: count.nullable(),
  updatedAt: z.string().nullable(),
  /** The service can terminate it: started and not finished (never one that never started). */
  canTerminate: z.boolean(),
  /** When it starts (ISO; the campaign's start time), null when unknown: told where names repeat. */
  startsAt: z.string().nullable(),
  /** The campaign's timezone (its start date is read in it), null when unknown. */
  timezone: z.string().nullable(),
});
export const campaignsListSchema = z.object({
  campaigns: z.array(campaignRowSchema),
  /** When the service's listing was cached (ISO), null when never. */
  syncedAt: z.string().nullable(),
  lastError: z.string().nullable(),
});

// ---------------------------------------------------------------- overlaps and the confirmation

/**
 * Contacts (by E.164) of a list that are in other campaigns running or run in the last 7 days,
 * in all and per campaign.
 */
export const overlapsSchema = z.object({
  contacts: count,
  campaigns: z.array(
    z.object({
      launchId: launchId,
      name: z.string(),
      serviceId: z.string().nullable(),
      state: launchStateSchema,
      contacts: count,
    }),
  ),
});
export type Overlaps = z.infer<typeof overlapsSchema>;

/** What the confirmation before calls go out says (the app's dialog and the CLI print the same). */
export const launchSummarySchema = z.object({
  name: z.string(),
  /** The contact list's name (the CLI: its file). */
  list: z.string(),
  /** Calls to place: the plan's figure. */
  calls: count,
  /** Rows the service will drop (removed as invalid on its side); null when not predicted. */
  rowsServiceWillDrop: count.nullable(),
  /** Calls that do not fit before the campaign ends (the plan's figure). */
  callsNotFitting: count,
  credits: z.object({ needed: z.number().nonnegative(), available: z.number().nullable() }),
  window: z.object({ start: z.string(), end: z.string() }),
  timezone: z.string(),
  start: z.string(),
  end: z.string(),
  callers: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('numbers'), numbers: z.array(z.string()) }),
    z.object({ kind: z.literal('pool'), pool: z.string() }),
  ]),
  agent: z.object({
    id: z.string(),
    name: z.string().nullable(),
    /** The version id, null = the agent's active version. */
    version: z.string().nullable(),
  }),
  overlaps: overlapsSchema.nullable(),
  /** The daily window is outside the recipients' permitted hours (acknowledged): the warning; else null. */
  hoursWarning: z.string().nullable(),
  /** Rows held back from the upload: their number is on the do-not-call list (issue 27). */
  heldBack: count.optional(),
});
export type LaunchSummary = z.infer<typeof launchSummarySchema>;

// ---------------------------------------------------------------- test call

export const testCallRequestSchema = z
  .object({
    settings: campaignSettingsSchema,
    /** The number to call (the operator's own), as contact lists take it: national with the
     *  campaign's country code, or international; the back end sends its E.164. */
    mobileNumber: z.string().trim().min(1).max(40),
    /** `now`: the call carries its own window and rings at once; `campaign-window`: it keeps the
     *  campaign's daily window (and waits while it is closed). */
    timing: z.enum(['now', 'campaign-window']).default('now'),
    /** The contact list row (spreadsheet row) whose variables are sent. */
    row: z.number().int().positive(),
    /** `callback_args` as the service takes it: headers and query params sent with each callback. */
    callbackArgs: callbackArgsSchema.strict().optional(),
  })
  .strict();

export const testCallViewSchema = z.object({
  callId: z.string(),
  status: z.string(),
  /** True once the call has ended (completed, failed, cancelled …). */
  ended: z.boolean(),
  transcript: z.array(z.object({ speaker: z.string(), text: z.string() })),
  /** The E.164 number called (placing answer only). */
  calledNumber: z.string().optional(),
  /** When it rings and why it waits, in plain words (placing answer only). */
  note: z.string().optional(),
});

const settingsRequest = z.object({ settings: campaignSettingsSchema }).strict();
/** The UI's locale (BCP 47) so dates in messages read as its date pickers show them. */
const validateRequest = z
  .object({ settings: campaignSettingsSchema, locale: z.string().max(50).optional() })
  .strict();

export const campaignsChannels = {
  /** Local drafts of the active workspace (survive restarts). */
  'campaigns:drafts': channel(z.object({}).strict(), z.object({ drafts: z.array(campaignDraftSchema) })),
  'campaigns:save-draft': channel(
    z.object({ id: draftId.optional(), settings: campaignSettingsSchema }).strict(),
    campaignDraftSchema,
  ),
  'campaigns:delete-draft': channel(z.object({ id: draftId }).strict(), z.object({ deleted: z.boolean() })),
  /** Field-named problems; nothing is sent. `errors` empty = launchable (lint aside). */
  'campaigns:validate': channel(validateRequest, z.object({ errors: z.array(fieldErrorSchema) })),
  'campaigns:plan': channel(settingsRequest, campaignPlanSchema),
  /** The workspace's caller numbers, cached for offline use; `refresh` asks the service. */
  'campaigns:numbers': channel(z.object({ refresh: z.boolean().optional() }).strict(), numbersAnswerSchema),
  /**
   * Enqueue a launch: validated first (a problem → `invalid_request` naming the field). Goes out at
   * once when online and auto-send is on; else it waits in the queue for confirm-launch.
   */
  'campaigns:launch': channel(
    z.object({ settings: campaignSettingsSchema, draftId: draftId.optional() }).strict(),
    launchViewSchema,
  ),
  /** Launches waiting for the operator's confirmation, and the auto-send setting. */
  'campaigns:queue': channel(
    z.object({}).strict(),
    z.object({ launches: z.array(launchViewSchema), autoSend: z.boolean() }),
  ),
  'campaigns:confirm-launch': channel(z.object({ id: launchId }).strict(), launchViewSchema),
  'campaigns:discard-launch': channel(
    z.object({ id: launchId }).strict(),
    z.object({ deleted: z.boolean() }),
  ),
  /**
   * The operator's decision on a launch whose start outcome is unknown: `retry` sends the start
   * again, `mark-started` records it as started.
   */
  'campaigns:resolve-launch': channel(
    z.object({ id: launchId, decision: z.enum(['retry', 'mark-started']) }).strict(),
    launchViewSchema,
  ),
  'campaigns:set-auto-send': channel(
    z.object({ autoSend: z.boolean() }).strict(),
    z.object({ autoSend: z.boolean() }),
  ),
  /** Local launches + the service's campaigns (cached listing); `refresh` reads the listing. */
  'campaigns:list': channel(z.object({ refresh: z.boolean().optional() }).strict(), campaignsListSchema),
  /** A launched campaign as the builder shows it read-only: its launch, timeline and settings. */
  'campaigns:open': channel(
    z.object({ id: launchId }).strict(),
    z.object({
      launch: launchViewSchema,
      entries: z.array(timelineEntrySchema),
      /** Its builder settings; null for a CLI launch (it has only its request). */
      settings: campaignSettingsSchema.nullable(),
    }),
  ),
  /**
   * A new draft with a launched campaign's settings, and how many of its contacts are in campaigns
   * running or run in the last 7 days.
   */
  'campaigns:duplicate': channel(
    z.object({ id: launchId }).strict(),
    z.object({ draft: campaignDraftSchema, overlaps: overlapsSchema }),
  ),
  /** Overlaps of a list with other campaigns (the draft's own launch left out). */
  'campaigns:overlaps': channel(z.object({ listId, draftId: draftId.optional() }).strict(), overlapsSchema),
  /** The confirmation's figures for these settings (validated first; nothing is sent). */
  'campaigns:launch-summary': channel(
    z.object({ settings: campaignSettingsSchema, draftId: draftId.optional() }).strict(),
    launchSummarySchema,
  ),
  'campaigns:timeline': channel(
    z.object({ id: launchId }).strict(),
    z.object({ launch: launchViewSchema, entries: z.array(timelineEntrySchema) }),
  ),
  /** Cancel the campaign's remaining calls (the UI confirms first). */
  'campaigns:terminate': channel(
    z.object({ campaignId: z.string().min(1).max(200) }).strict(),
    z.object({ message: z.string(), terminated: count.nullable() }),
  ),
  'campaigns:test-call': channel(testCallRequestSchema, testCallViewSchema),
  /** Follow a test call: its status and, once ended, its transcript. */
  'campaigns:test-call-status': channel(
    z.object({ callId: z.string().min(1).max(200) }).strict(),
    testCallViewSchema,
  ),
};

export const campaignsEvents = {
  /** A launch moved (step, state); the UI re-reads its list/queue/timeline. */
  'campaigns:launch-progress': event(launchViewSchema),
};

export { countryCodeSchema as campaignCountryCodeSchema, ianaTimeZoneSchema as campaignTimeZoneSchema };
export { campaignTime as campaignTimeTextSchema };
