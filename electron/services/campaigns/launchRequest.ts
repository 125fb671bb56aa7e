// What a launch sends, as stored in the outbox row (`campaign_launches.settings`): everything the
// runner needs to resume after a restart without the builder or the command line.
import { storedJson } from '../db/storedJson.ts';
import { z } from 'zod';
import { callConfigSchema } from '../../../shared/service/callConfig.ts';
import { campaignTimeSchema, countryCodeSchema, variablesMapSchema } from '../../../shared/service/upload.ts';

export const LARGE_FLOW_MIN_ROWS = 5_000;

export const launchRequestSchema = z.object({
  agentId: z.string().min(1),
  name: z.string().min(1),
  countryCode: countryCodeSchema,
  numberSource: z.union([
    z.object({ fromNumbers: z.array(z.string().min(1)).min(1) }),
    z.object({ numberPoolId: z.string().min(1) }),
  ]),
  start: campaignTimeSchema,
  end: campaignTimeSchema,
  callConfig: callConfigSchema,
  concurrency: z.number().int().min(0).max(100).optional(),
  callbackUrl: z.string().optional(),
  removeInvalid: z.boolean(),
  transliterate: z.boolean(),
  variablesMap: variablesMapSchema,
  fileName: z.string().min(1),
  /** The operator accepted that some calls may not fit before the end (checked before the upload). */
  acceptShortfall: z.boolean().optional(),
});
export type LaunchRequest = z.infer<typeof launchRequestSchema>;

export const flowFor = (validRows: number): 'large' | 'standard' =>
  validRows >= LARGE_FLOW_MIN_ROWS ? 'large' : 'standard';

/** The first step of each flow. */
export const firstStep = (flow: 'large' | 'standard') => (flow === 'large' ? 'upload' : 'save');

/** A launch's stored request (campaign_launches.settings). */
export const storedLaunchRequest = storedJson(launchRequestSchema, 'launch request');
