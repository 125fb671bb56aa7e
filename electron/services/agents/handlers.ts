import { defineDomain } from '../desk/domain.ts';
import { listAgents } from './listAgents.ts';

/** agents:* channels: the active workspace's agents, read from the calling service. */
export const agentsDomain = defineDomain({
  name: 'agents',
  create(ctx) {
    return {
      // Interim (live read) until the SQLite library lands on this branch.
      'agents:list': async () => ({
        agents: await listAgents(ctx),
        sync: {
          workspaceId: null,
          running: false,
          syncedAt: null,
          ageSeconds: null,
          lastError: null,
          lastErrorAt: null,
          progress: null,
        },
      }),
    };
  },
});
