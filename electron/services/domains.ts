import { agentsDomain } from './agents/handlers.ts';
import { agentUpload } from './agents/listMapping.ts';
import { appDomain } from './app/handlers.ts';
import { campaignsDomain } from './campaigns/handlers.ts';
import { callsDomain } from './calls/handlers.ts';
import { contactsDomain } from './contacts/handlers.ts';
import { reviewDomain } from './review/handlers.ts';
import type { Domain } from './desk/domain.ts';
import { suppressionDomain } from './suppression/handlers.ts';
import { workspacesDomain } from './workspaces/handlers.ts';

/**
 * The back end's domains, created in this order (workspaces first: it starts the Sandbox workspace
 * the app domain's connectivity check then looks at). Adding a domain is one line here.
 */
export const domains: readonly Domain[] = [
  workspacesDomain,
  appDomain,
  contactsDomain((ctx) => (req) => agentUpload(ctx, req)),
  agentsDomain,
  campaignsDomain,
  callsDomain,
  reviewDomain,
  suppressionDomain,
];
