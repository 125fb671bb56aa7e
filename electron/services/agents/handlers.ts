import { defineDomain } from '../desk/domain.ts';
import { listAgents } from './listAgents.ts';

/** agents:* channels: the active workspace's agents, read from the calling service. */
export const agentsDomain = defineDomain({
  name: 'agents',
  create(ctx) {
    return {
      'agents:list': async () => ({ agents: await listAgents(ctx) }),
    };
  },
});
