import { defineDomain } from '../desk/domain.ts';
import { createAgentSync } from './agentSync.ts';
import { toAgentDetail, toAgentSummary } from './agentView.ts';
import { createDraftAgent, deleteDraftAgent, updateDraftAgent } from './draftAgents.ts';
import { agentUpload, getMapping, lint, nextProblemRow, preview, setMapping } from './listMapping.ts';
import { saveSubscriptions, storedAgent } from './subscriptions.ts';
import { activeWorkspace, requireActiveWorkspace } from '../workspaces/workspaceAccess.ts';

/**
 * agents:* channels: the agent library of the active workspace (SQLite, synced on start, on
 * reconnect, on a workspace switch and on Refresh), local draft agents, the subscriptions editor,
 * and an agent's variables against a contact list.
 */
export const agentsDomain = defineDomain({
  name: 'agents',
  create(ctx) {
    const sync = createAgentSync(ctx);
    const offOnline = ctx.events.on('app:connectivity-changed', (state) => {
      if (state.online) void sync.syncActiveQuietly();
    });
    const offSwitch = ctx.events.on('workspaces:changed', () => void sync.syncActiveQuietly());
    void sync.syncActiveQuietly();
    ctx.onClose(async () => {
      offOnline();
      offSwitch();
      await sync.close();
    });

    return {
      'agents:list': async (req) => {
        const record = await activeWorkspace(ctx);
        if (!record) return { agents: [], sync: await sync.state(null) };
        const rows = await ctx.db.call('agents.list', { workspaceId: record.id, search: req.search });
        return { agents: rows.map(toAgentSummary), sync: await sync.state(record.id) };
      },
      'agents:sync': async () => {
        const record = await requireActiveWorkspace(ctx);
        const agents = await sync.sync(record.id);
        return { agents, sync: await sync.state(record.id) };
      },
      'agents:sync-state': async () => ({ sync: await sync.state((await activeWorkspace(ctx))?.id ?? null) }),
      'agents:get': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        return { agent: toAgentDetail(await storedAgent(ctx, record.id, req.agentId)) };
      },
      'agents:create-draft': async (req) => ({ agent: await createDraftAgent(ctx, req) }),
      'agents:update-draft': async (req) => ({ agent: await updateDraftAgent(ctx, req) }),
      'agents:delete-draft': async (req) => ({ deleted: await deleteDraftAgent(ctx, req.agentId) }),
      'agents:save-subscriptions': (req) => saveSubscriptions(ctx, req.agentId, req.subscriptions),
      'agents:discard-subscriptions-draft': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        await storedAgent(ctx, record.id, req.agentId);
        await ctx.db.call('agents.discardSubscriptionsDraft', {
          workspaceId: record.id,
          agentId: req.agentId,
        });
        return { agent: toAgentDetail(await storedAgent(ctx, record.id, req.agentId)) };
      },
      'agents:mapping': (req) => getMapping(ctx, req),
      'agents:set-mapping': (req) => setMapping(ctx, req),
      'agents:lint': (req) => lint(ctx, req),
      'agents:preview': (req) => preview(ctx, req),
      'agents:next-problem-row': (req) => nextProblemRow(ctx, req),
      'agents:variables-map': async (req) => {
        const upload = await agentUpload(ctx, req);
        return { variablesMap: upload.variablesMap, uploadColumns: upload.uploadColumns };
      },
    };
  },
});
