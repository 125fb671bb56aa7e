import { z } from 'zod';
import { channel } from '../define.ts';

/** An agent of the active workspace, with the prompt variables a contact list must supply. */
export const agentSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Custom variables, else the prompt's `@{{var}}` placeholders; never `mobile_number` (the phone column). */
  variables: z.array(z.string()),
});
export type AgentSummary = z.infer<typeof agentSummarySchema>;

export const agentsChannels = {
  /** The active workspace's agents (asks the calling service; fails when it cannot be reached). */
  'agents:list': channel(z.object({}).strict(), z.object({ agents: z.array(agentSummarySchema) })),
};
