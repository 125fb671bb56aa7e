// The app's launch runner and queue: launches run in the background (once at a time each), resume
// on start and when the service comes back; launches made offline wait for the operator's
// confirmation, or go out by themselves once the service answers when auto-send is on.
import type { ParsedRequestOf } from '../../../shared/ipc/contract.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { requireActiveWorkspace, workspaceClient } from '../workspaces/workspaceAccess.ts';
import type { ApiClient } from '../api/index.ts';
import type { DeskContext } from '../desk/context.ts';
import type { WorkspaceRecord } from '../workspaces/workspaces.queries.ts';
import { runLaunch } from './launchRunner.ts';
import type { StoredLaunch } from './launches.queries.ts';
import { toLaunchView } from './launchView.ts';

export const TIMEOUT_MS = 20_000;
const AUTO_SEND_KEY = 'campaigns.autoSend';

export const clientFor = (ctx: DeskContext, record: WorkspaceRecord): Promise<ApiClient> =>
  workspaceClient(ctx, record, { timeoutMs: TIMEOUT_MS });

/** A launch of the active workspace, or not_found. */
export async function ownLaunch(ctx: DeskContext, id: string) {
  const record = await requireActiveWorkspace(ctx);
  const l = await ctx.db.call('campaigns.launch', { id });
  if (!l || l.workspace_id !== record.id)
    throw new DeskFailure('not_found', 'No such launch in this workspace.', 'id');
  return { record, launch: l };
}

export function createLaunchQueue(ctx: DeskContext) {
  const running = new Map<string, Promise<void>>();
  const now = () => new Date().toISOString();
  const emit = (l: StoredLaunch) => ctx.events.emit('campaigns:launch-progress', toLaunchView(l));

  /** Run a launch in the background, once at a time per launch. */
  const kick = (launchId: string, workspaceId: string) => {
    if (running.has(launchId)) return;
    const job = (async () => {
      const record = await ctx.db.call('workspaces.get', { id: workspaceId });
      if (!record) return;
      const client = await clientFor(ctx, record);
      await runLaunch({ db: ctx.db, client, onChange: emit, settleMs: TIMEOUT_MS }, launchId);
    })()
      .catch((e: unknown) =>
        ctx.logger.error('launch runner failed', e instanceof Error ? e : undefined, { launchId }),
      )
      .finally(() => running.delete(launchId));
    running.set(launchId, job);
  };
  const resumeAll = async () => {
    for (const l of await ctx.db.call('campaigns.resumable', {})) kick(l.id, l.workspace_id);
  };
  const autoSend = async () => (await ctx.db.call('settings.get', { key: AUTO_SEND_KEY })) === true;
  const online = async () => {
    try {
      const record = await requireActiveWorkspace(ctx);
      await (await clientFor(ctx, record)).getWorkspaceInfo();
      return true;
    } catch {
      return false;
    }
  };
  /** With auto-send on, queued launches go out once the service is reachable. */
  const sendQueued = async () => {
    if (!(await autoSend())) return;
    const record = await requireActiveWorkspace(ctx).catch(() => null);
    if (!record) return;
    for (const l of await ctx.db.call('campaigns.launches', { workspaceId: record.id }))
      if (l.state === 'queued') {
        const moved = await ctx.db.call('campaigns.patchLaunch', {
          id: l.id,
          patch: { state: 'pending' },
          at: now(),
        });
        if (moved) emit(moved);
        kick(l.id, record.id);
      }
  };
  // Background work: its failure is logged (after close the database refuses calls; that is expected).
  let closed = false;
  const background = (work: Promise<unknown>) =>
    void work.catch((error: unknown) => {
      if (!closed) ctx.logger.error('resuming launches failed', error instanceof Error ? error : undefined);
    });
  const offOnline = ctx.events.on('app:connectivity-changed', (s) => {
    if (s.online) background(resumeAll().then(sendQueued));
  });
  background(resumeAll());
  ctx.onClose(async () => {
    closed = true;
    offOnline();
    await Promise.allSettled(running.values());
  });

  return {
    emit,
    kick,
    online,
    autoSend,
    /** A recorded launch: said to the UI, and run at once when it goes out now. */
    started(launch: StoredLaunch, goNow: boolean) {
      emit(launch);
      if (goNow) kick(launch.id, launch.workspace_id);
    },
    async setAutoSend(on: boolean) {
      await ctx.db.call('settings.set', { key: AUTO_SEND_KEY, value: on });
      if (on && (await online())) await sendQueued();
    },
    /** The operator confirms a queued launch: it goes out. */
    async confirm(id: string): Promise<StoredLaunch> {
      const { record, launch } = await ownLaunch(ctx, id);
      if (launch.state !== 'queued')
        throw new DeskFailure('conflict', 'This launch is not waiting for confirmation.', 'id');
      const l = await ctx.db.call('campaigns.patchLaunch', {
        id: launch.id,
        patch: { state: 'pending' },
        at: now(),
      });
      if (!l) throw new DeskFailure('not_found', 'No such launch.', 'id');
      emit(l);
      kick(l.id, record.id);
      return l;
    },
    /** The operator's decision on a start the service left unanswered: send it again, or started. */
    async resolve(req: ParsedRequestOf<'campaigns:resolve-launch'>): Promise<StoredLaunch> {
      const { record, launch } = await ownLaunch(ctx, req.id);
      if (launch.state !== 'needs-decision')
        throw new DeskFailure('conflict', 'This launch does not wait for a decision.', 'id');
      const startStep = launch.flow === 'large' ? 'make-call-async' : 'start';
      const l = await ctx.db.call('campaigns.recordStep', {
        launchId: launch.id,
        step: 'verify-start',
        outcome: 'info',
        at: now(),
        message:
          req.decision === 'retry'
            ? 'The operator chose to send the start again'
            : 'The operator marked the campaign as started',
        patch:
          req.decision === 'retry'
            ? { state: 'pending', step: startStep, message: null }
            : { state: 'started', message: null },
      });
      emit(l);
      if (req.decision === 'retry') kick(l.id, record.id);
      return l;
    },
  };
}
