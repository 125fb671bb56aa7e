import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CampaignSettings, LaunchView, TimelineEntry } from '../../../shared/ipc/channels/campaigns.ts';
import { campaignSettingsSchema } from '../../../shared/ipc/channels/campaigns.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { isLocalDraftAgent } from '../agents/draftAgents.ts';
import { agentUpload, lint } from '../agents/listMapping.ts';
import { agentServiceFailure, requireActiveWorkspace, workspaceClient } from '../agents/workspaceAccess.ts';
import { isApiError } from '../api/index.ts';
import type { ApiClient } from '../api/index.ts';
import { writeSteadyExport } from '../contacts/exportFile.ts';
import { listCounts } from '../contacts/rowState.ts';
import type { StoredCounts } from '../contacts/rowState.ts';
import type { StoredLaunch, StoredStep } from './launches.queries.ts';
import type { WorkspaceRecord } from '../workspaces/workspaces.queries.ts';
import type { DeskContext } from '../desk/context.ts';
import { defineDomain } from '../desk/domain.ts';
import { explainApiError, isOffline } from './explainError.ts';
import { enqueueLaunch, launchAgainRefusal, requestFromSettings } from './launchOutbox.ts';
import { mergeCampaigns } from './campaignsList.ts';
import { launchSummaryOf, predictServiceDrops } from './launchSummary.ts';
import { overlapsOf } from './overlaps.ts';
import { runLaunch } from './launchRunner.ts';
import { refusalBlock, uploadRowsPath, writeUploadRows } from './serviceRefusals.ts';
import { parseTestCallNumber, testCallTiming } from '../../../shared/domain/testCall.ts';
import { formatCount } from '../../../shared/domain/formatCount.ts';
import { createCreditsReader } from './credits.ts';
import { callsNotFittingOf, launchRefusals, planRefusals } from './launchChecks.ts';
import { poolDetail } from './numberPools.ts';
import { planCampaign } from './plan.ts';
import { callConfigOf, validateSettings } from './validateSettings.ts';

const TIMEOUT_MS = 20_000;
/** The plan asks the service for its credits; a slow answer must not hold the builder. */
const CREDITS_TIMEOUT_MS = 5_000;
const AUTO_SEND_KEY = 'campaigns.autoSend';
const ENDED = new Set([
  'completed',
  'failed',
  'cancelled',
  'busy',
  'no-answer',
  'not_answered',
  'terminated',
]);

export const toLaunchView = (l: StoredLaunch): LaunchView => ({
  id: l.id,
  workspaceId: l.workspace_id,
  name: l.name,
  listId: l.list_id,
  agentId: l.agent_id,
  flow: l.flow,
  state: l.state,
  step: l.step as LaunchView['step'],
  serviceId: l.service_id,
  valid: l.valid,
  invalid: l.invalid,
  serviceInvalid: l.service_invalid,
  rejectsUrl: l.rejects_url,
  rowsServiceWillDrop: l.predicted_refused,
  arrived: l.arrived,
  message: l.message,
  createdAt: l.created_at,
  updatedAt: l.updated_at,
  draftId: l.draft_id,
  terminatedAt: l.terminated_at,
});

const toTimelineEntry = (s: StoredStep): TimelineEntry => ({
  step: s.step as TimelineEntry['step'],
  outcome: s.outcome as TimelineEntry['outcome'],
  at: s.at,
  message: s.message,
  httpStatus: s.http_status,
});

const clientFor = (ctx: DeskContext, record: WorkspaceRecord): Promise<ApiClient> =>
  workspaceClient(ctx, record, { timeoutMs: TIMEOUT_MS });

/**
 * campaigns:* channels: drafts, validation, plan, cached numbers, the launch outbox and its queue,
 * the campaigns list and timeline, terminate, and a test call. A background runner resumes pending
 * launches on start and when the service comes back.
 */
export const campaignsDomain = defineDomain({
  name: 'campaigns',
  create(ctx) {
    const running = new Map<string, Promise<void>>();
    const credits = createCreditsReader();
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

    const ownLaunch = async (id: string) => {
      const record = await requireActiveWorkspace(ctx);
      const l = await ctx.db.call('campaigns.launch', { id });
      if (!l || l.workspace_id !== record.id)
        throw new DeskFailure('not_found', 'No such launch in this workspace.', 'id');
      return { record, launch: l };
    };

    /** Refuses (conflict) when the draft is a campaign already launched (not refused). */
    const refuseLaunchedAgain = async (draftId: string) => {
      const launch = await ctx.db.call('campaigns.launchByDraft', { draftId });
      if (!launch) return;
      const refusal = launchAgainRefusal(
        launch,
        await ctx.db.call('campaigns.steps', { launchId: launch.id }),
      );
      if (refusal) throw new DeskFailure('conflict', refusal, 'draftId');
    };

    /** Contacts of a list in other campaigns running or run in the last 7 days (this draft's own left out). */
    const overlapsOfList = (workspaceId: string, listId: number, draftId: string | null) =>
      overlapsOf(ctx.db, { workspaceId, source: { listId }, draftId, nowMs: Date.now() });

    /** Rows of the list held back from the upload: their number is on the do-not-call list. */
    const heldBack = async (listId: number, workspaceId: string | null = null) =>
      Object.values(await ctx.db.call('suppression.listCheck', { listId, workspaceId })).reduce<number>(
        (a, b) => a + (b ?? 0),
        0,
      );

    /**
     * The rows the upload carries, the rows not called (rejects) and the rows the service will drop
     * (the plan takes them off the calls; the launch summary and the launch count the same).
     */
    const rowsOf = async (s: CampaignSettings) => {
      if (s.listId === null) return { valid: 0, invalid: 0, drops: 0 };
      const list = await ctx.db.call('contacts.list', { listId: s.listId });
      if (!list) throw new DeskFailure('not_found', 'This contact list is not available.', 'listId');
      // Not called: invalid and duplicate rows the operator has not excluded (the rejects file).
      const counts = listCounts(JSON.parse(list.counts) as StoredCounts);
      if (s.agentId) {
        const l = await lint(ctx, {
          listId: s.listId,
          agentId: s.agentId,
          ...(s.versionId ? { versionId: s.versionId } : {}),
        });
        return {
          valid: Math.max(0, l.uploadRows - (await heldBack(s.listId))),
          invalid: counts.rejects,
          drops: predictServiceDrops(s, l),
        };
      }
      return { valid: Math.max(0, counts.upload - (await heldBack(s.listId))), invalid: counts.rejects, drops: 0 };
    };

    return {
      'campaigns:drafts': async () => {
        const record = await requireActiveWorkspace(ctx);
        const rows = await ctx.db.call('campaigns.drafts', { workspaceId: record.id });
        return {
          drafts: rows.flatMap((r) => {
            const parsed = campaignSettingsSchema.safeParse(JSON.parse(r.settings));
            return parsed.success
              ? [{ id: r.id, workspaceId: r.workspace_id, settings: parsed.data, updatedAt: r.updated_at }]
              : [];
          }),
        };
      },
      'campaigns:save-draft': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        // A launched campaign's settings are read-only (a refused one may be corrected).
        if (req.id) await refuseLaunchedAgain(req.id);
        const id = req.id ?? randomUUID();
        const at = now();
        const saved = await ctx.db.call('campaigns.saveDraft', {
          id,
          workspaceId: record.id,
          settings: JSON.stringify(req.settings),
          at,
        });
        if (!saved)
          throw new DeskFailure(
            'not_found',
            'This draft belongs to another workspace: switch back to save it.',
            'id',
          );
        return { id, workspaceId: record.id, settings: req.settings, updatedAt: at };
      },
      'campaigns:delete-draft': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        // A launched campaign keeps its settings (its draft row).
        if (await ctx.db.call('campaigns.launchByDraft', { draftId: req.id }))
          throw new DeskFailure(
            'conflict',
            'This campaign was launched: it is kept with its settings.',
            'id',
          );
        return {
          deleted: await ctx.db.call('campaigns.deleteDraft', { id: req.id, workspaceId: record.id }),
        };
      },
      'campaigns:validate': async (req) => ({
        errors: validateSettings(req.settings, Date.now(), req.locale),
      }),
      'campaigns:plan': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        const reading = await credits.read(record, () =>
          workspaceClient(ctx, record, { timeoutMs: CREDITS_TIMEOUT_MS, maxRetries: 0 }),
        );
        return planCampaign(req.settings, await rowsOf(req.settings), reading);
      },
      'campaigns:numbers': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        if (req.refresh) {
          try {
            const numbers = await (await clientFor(ctx, record)).listWorkspaceNumbers({ limit: 100 });
            await ctx.db.call('campaigns.setCache', {
              workspaceId: record.id,
              kind: 'numbers',
              body: JSON.stringify(numbers),
              syncedAt: now(),
              error: null,
            });
          } catch (e) {
            if (!isApiError(e)) throw e;
            await ctx.db.call('campaigns.setCache', {
              workspaceId: record.id,
              kind: 'numbers',
              error: explainApiError(e),
            });
          }
        }
        const cached = await ctx.db.call('campaigns.cache', { workspaceId: record.id, kind: 'numbers' });
        const raw = JSON.parse(cached?.body ?? '[]') as Array<Record<string, unknown>>;
        const numbers = raw.map((n) => ({
          id: String(n.id ?? ''),
          number: String(n.number ?? n.phone_number ?? ''),
          numberPoolId: typeof n.number_pool_id === 'string' ? n.number_pool_id : null,
          label:
            typeof n.display_name === 'string' ? n.display_name : typeof n.name === 'string' ? n.name : null,
        }));
        const pools = [...new Set(numbers.flatMap((n) => (n.numberPoolId ? [n.numberPoolId] : [])))];
        const poolDetails = pools.map((id) => poolDetail(id, numbers));
        return {
          numbers,
          pools,
          poolDetails,
          syncedAt: cached?.synced_at ?? null,
          lastError: cached?.last_error ?? null,
        };
      },
      'campaigns:launch': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        const s = req.settings;
        // A campaign launches once: refused before anything is checked or written.
        if (req.draftId) await refuseLaunchedAgain(req.draftId);
        const errors = validateSettings(s, Date.now());
        const first = errors[0];
        if (first)
          throw new DeskFailure('invalid_request', errors.map((e) => e.message).join(' '), first.field);
        const listId = s.listId as number;
        const agentId = s.agentId as string;
        const mapping = { listId, agentId, ...(s.versionId ? { versionId: s.versionId } : {}) };
        const problems = await lint(ctx, mapping);
        if (problems.unmapped.length > 0)
          throw new DeskFailure(
            'invalid_request',
            `Map a column to ${problems.unmapped.join(', ')} before launching`,
            'mapping',
          );
        const refused = refusalBlock(problems, s.removeInvalid);
        if (refused) throw new DeskFailure('invalid_request', refused, 'mapping');
        const plan = await agentUpload(ctx, mapping);
        const id = randomUUID();
        const dir = join(ctx.options.dataDir, 'launches', id);
        await mkdir(dir, { recursive: true });
        const file = join(dir, 'upload.csv');
        // Refused while a bulk change runs; discarded if the list changes while it is written. The
        // list row of each upload row is kept beside it (the service numbers refusals by the file).
        const uploadRows: number[] = [];
        const written = await writeSteadyExport(ctx.db, listId, plan.setup, 'upload', file, undefined, {
          workspaceId: record.id,
          fillBlank: plan.fillBlank,
          refusing: plan.refusing,
          onRows: (r) => {
            for (const row of r) uploadRows.push(row);
          },
        })
          .then(async (w) => {
            await writeUploadRows(uploadRowsPath(file), uploadRows);
            return w;
          })
          .catch(async (error: unknown) => {
            await rm(dir, { recursive: true, force: true });
            throw error;
          });
        const { rows, list: stored } = written;
        // The list may have changed since the check: what the written file would have refused counts.
        if (written.refused > 0 && !s.removeInvalid) {
          await rm(dir, { recursive: true, force: true });
          throw new DeskFailure(
            'invalid_request',
            `The service would refuse ${formatCount(written.refused)} rows with an empty variable: exclude or fill them, or turn on "Remove invalid rows"`,
            'mapping',
          );
        }
        const counts = listCounts(JSON.parse(stored.counts) as StoredCounts);
        const request = requestFromSettings(s, plan.variablesMap);
        // Credits and fit before anything is stored or sent (the runner asks again before the upload).
        const reading = await credits.read(record, () =>
          workspaceClient(ctx, record, { timeoutMs: CREDITS_TIMEOUT_MS, maxRetries: 0 }),
        );
        // The rows the service drops are sent but neither called nor charged.
        const calls = rows - written.refused;
        const refusals = launchRefusals({
          calls,
          credits: reading.source === 'service' ? reading.available : null,
          callsNotFitting: callsNotFittingOf(request, calls, Date.now()),
          acceptShortfall: s.acceptShortfall,
        });
        if (refusals.length > 0) {
          await rm(dir, { recursive: true, force: true });
          throw new DeskFailure(
            'invalid_request',
            refusals.map((r) => r.message).join(' '),
            refusals[0]?.kind === 'credits' ? 'credits' : 'acceptShortfall',
          );
        }
        // The campaign's settings stay as its draft row: shown read-only once launched.
        const draftId = req.draftId ?? randomUUID();
        const kept = await ctx.db.call('campaigns.saveDraft', {
          id: draftId,
          workspaceId: record.id,
          settings: JSON.stringify(s),
          at: now(),
        });
        if (!kept) {
          await rm(dir, { recursive: true, force: true });
          throw new DeskFailure(
            'not_found',
            'This draft belongs to another workspace: switch back to launch it.',
            'draftId',
          );
        }
        // Made while the service answers, a launch goes out at once (after the UI's confirmation).
        // Made offline, it waits in the queue for the operator, or for auto-send once the service is back.
        const goNow = await online();
        const launch = await enqueueLaunch(ctx.db, {
          id,
          workspaceId: record.id,
          request,
          listId,
          draftId,
          launchKey: null,
          uploadFile: file,
          valid: rows,
          invalid: counts.rejects,
          predictedRefused: written.refused,
          queued: !goNow,
          at: now(),
        }).catch(async (error: unknown) => {
          await rm(dir, { recursive: true, force: true });
          throw error;
        });
        emit(launch);
        if (goNow) kick(launch.id, record.id);
        return toLaunchView(launch);
      },
      'campaigns:open': async (req) => {
        const { launch } = await ownLaunch(req.id);
        const steps = await ctx.db.call('campaigns.steps', { launchId: launch.id });
        const draft = launch.draft_id ? await ctx.db.call('campaigns.draft', { id: launch.draft_id }) : null;
        const parsed = draft ? campaignSettingsSchema.safeParse(JSON.parse(draft.settings)) : null;
        return {
          launch: toLaunchView(launch),
          entries: steps.map(toTimelineEntry),
          settings: parsed?.success ? parsed.data : null,
        };
      },
      'campaigns:duplicate': async (req) => {
        const { record, launch } = await ownLaunch(req.id);
        const draft = launch.draft_id ? await ctx.db.call('campaigns.draft', { id: launch.draft_id }) : null;
        const parsed = draft ? campaignSettingsSchema.safeParse(JSON.parse(draft.settings)) : null;
        if (!parsed?.success)
          throw new DeskFailure(
            'not_found',
            'This campaign was launched from the command line: it has no builder settings to copy.',
            'id',
          );
        const settings = { ...parsed.data, name: `${parsed.data.name.trim()} (copy)`.slice(0, 200) };
        const id = randomUUID();
        const at = now();
        await ctx.db.call('campaigns.saveDraft', {
          id,
          workspaceId: record.id,
          settings: JSON.stringify(settings),
          at,
        });
        const overlaps =
          settings.listId === null
            ? { contacts: 0, campaigns: [] }
            : await overlapsOfList(record.id, settings.listId, id);
        return { draft: { id, workspaceId: record.id, settings, updatedAt: at }, overlaps };
      },
      'campaigns:overlaps': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        return overlapsOfList(record.id, req.listId, req.draftId ?? null);
      },
      'campaigns:launch-summary': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        const s = req.settings;
        if (req.draftId) await refuseLaunchedAgain(req.draftId);
        const first = validateSettings(s, Date.now())[0];
        if (first) throw new DeskFailure('invalid_request', first.message, first.field);
        const listId = s.listId as number;
        const agentId = s.agentId as string;
        const list = await ctx.db.call('contacts.list', { listId });
        if (!list) throw new DeskFailure('not_found', 'This contact list is not available.', 'listId');
        const reading = await credits.read(record, () =>
          workspaceClient(ctx, record, { timeoutMs: CREDITS_TIMEOUT_MS, maxRetries: 0 }),
        );
        const plan = planCampaign(s, await rowsOf(s), reading);
        // No confirmation for a launch that would be refused: the same checks as the launch's.
        const refusals = planRefusals(plan, s.acceptShortfall);
        if (refusals.length > 0)
          throw new DeskFailure(
            'invalid_request',
            refusals.map((r) => r.message).join(' '),
            refusals[0]?.kind === 'credits' ? 'credits' : 'acceptShortfall',
          );
        const agent = await ctx.db.call('agents.get', { workspaceId: record.id, agentId });
        return launchSummaryOf({
          settings: s,
          listName: list.name,
          plan,
          agentName: agent?.name ?? null,
          overlaps: await overlapsOfList(record.id, listId, req.draftId ?? null),
          heldBack: await heldBack(listId, record.id),
        });
      },
      'campaigns:queue': async () => {
        const record = await requireActiveWorkspace(ctx);
        const all = await ctx.db.call('campaigns.launches', { workspaceId: record.id });
        return {
          launches: all.filter((l) => l.state === 'queued').map(toLaunchView),
          autoSend: await autoSend(),
        };
      },
      'campaigns:confirm-launch': async (req) => {
        const { record, launch } = await ownLaunch(req.id);
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
        return toLaunchView(l);
      },
      'campaigns:discard-launch': async (req) => {
        await ownLaunch(req.id);
        return { deleted: await ctx.db.call('campaigns.deleteLaunch', { id: req.id }) };
      },
      'campaigns:resolve-launch': async (req) => {
        const { record, launch } = await ownLaunch(req.id);
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
        return toLaunchView(l);
      },
      'campaigns:set-auto-send': async (req) => {
        await ctx.db.call('settings.set', { key: AUTO_SEND_KEY, value: req.autoSend });
        if (req.autoSend && (await online())) await sendQueued();
        return { autoSend: req.autoSend };
      },
      'campaigns:list': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        if (req.refresh) {
          try {
            const page = await (await clientFor(ctx, record)).listCampaigns({ limit: 100, callCount: true });
            await ctx.db.call('campaigns.setCache', {
              workspaceId: record.id,
              kind: 'listing',
              body: JSON.stringify(page.campaigns),
              syncedAt: now(),
              error: null,
            });
          } catch (e) {
            if (!isApiError(e)) throw e;
            await ctx.db.call('campaigns.setCache', {
              workspaceId: record.id,
              kind: 'listing',
              error: explainApiError(e),
            });
          }
        }
        const cached = await ctx.db.call('campaigns.cache', { workspaceId: record.id, kind: 'listing' });
        const listing = JSON.parse(cached?.body ?? '[]') as Array<Record<string, unknown>>;
        const launches = await ctx.db.call('campaigns.launches', { workspaceId: record.id });
        return {
          campaigns: mergeCampaigns(launches, listing),
          syncedAt: cached?.synced_at ?? null,
          lastError: cached?.last_error ?? null,
        };
      },
      'campaigns:timeline': async (req) => {
        const { launch } = await ownLaunch(req.id);
        const steps = await ctx.db.call('campaigns.steps', { launchId: launch.id });
        return {
          launch: toLaunchView(launch),
          entries: steps.map(toTimelineEntry),
        };
      },
      'campaigns:terminate': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        try {
          const r = await (await clientFor(ctx, record)).terminateCalls({ campaign_id: req.campaignId });
          const marked = await ctx.db.call('campaigns.markTerminated', {
            workspaceId: record.id,
            serviceId: req.campaignId,
            at: now(),
          });
          if (marked) {
            const l = (await ctx.db.call('campaigns.launches', { workspaceId: record.id })).find(
              (x) => x.service_id === req.campaignId,
            );
            if (l) emit(l);
          }
          // Remembered so calls of it read "Terminated" where the service's listing says completed.
          await ctx.db.call('calls.recordTermination', {
            workspaceId: record.id,
            campaignId: req.campaignId,
            at: now(),
          });
          return { message: r.message, terminated: r.terminated_count ?? null };
        } catch (e) {
          if (!isApiError(e)) throw e;
          if (isOffline(e)) throw agentServiceFailure(e, record, TIMEOUT_MS);
          throw new DeskFailure('service_error', explainApiError(e));
        }
      },
      'campaigns:test-call': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        const s = req.settings;
        if (!s.agentId || s.listId === null)
          throw new DeskFailure('invalid_request', 'Choose a contact list and an agent', 'agentId');
        if (isLocalDraftAgent(s.agentId))
          throw new DeskFailure(
            'invalid_request',
            'This agent is a local draft: it is not on the service, so it cannot take a test call',
            'agentId',
          );
        const source =
          s.numberSource.kind === 'pool'
            ? s.numberSource.numberPoolId.trim()
              ? { number_pool_id: s.numberSource.numberPoolId.trim() }
              : null
            : s.numberSource.fromNumbers.length === 1
              ? (s.numberSource.fromNumbers[0] as string).startsWith('+')
                ? { from_number: s.numberSource.fromNumbers[0] as string }
                : { from_number_id: s.numberSource.fromNumbers[0] as string }
              : null;
        if (!source)
          throw new DeskFailure(
            'invalid_request',
            'A test call needs exactly one caller number or a number pool',
            'numberSource',
          );
        const number = parseTestCallNumber(req.mobileNumber, s.countryCode);
        if (!number.ok) throw new DeskFailure('invalid_request', number.message, 'mobileNumber');
        const timing = testCallTiming({
          mode: req.timing,
          nowMs: Date.now(),
          timezone: s.timezone,
          windowStart: s.call.windowStart,
          windowEnd: s.call.windowEnd,
        });
        const preview = await ctx.db.call('campaigns.rowCells', { listId: s.listId, row: req.row });
        if (!preview) throw new DeskFailure('not_found', `Row ${req.row} is not in this list`, 'row');
        const upload = await agentUpload(ctx, {
          listId: s.listId,
          agentId: s.agentId,
          ...(s.versionId ? { versionId: s.versionId } : {}),
        });
        const custom: Record<string, string> = {};
        for (const [variable, column] of Object.entries(upload.variablesMap)) {
          const index = upload.setup.header.indexOf(column);
          if (index >= 0) custom[variable] = preview[index] ?? '';
        }
        try {
          const r = await (
            await clientFor(ctx, record)
          ).startIndividualCall({
            name: custom.callee_name ?? 'Test call',
            mobile_number: number.e164,
            agent_id: s.agentId,
            ...source,
            custom_args_values: custom,
            call_config: { ...callConfigOf(s), call_time: timing.callTime },
            smart_formatter: { extract_first_name: true, transliteration: s.transliterateNames },
            ...(s.versionId ? { version_id: s.versionId } : {}),
            ...(s.callbackUrl.trim() ? { callback_url: s.callbackUrl.trim() } : {}),
            ...(req.callbackArgs ? { callback_args: req.callbackArgs } : {}),
          });
          return {
            callId: r.data.call_id,
            status: r.data.call_status ?? r.status,
            ended: false,
            transcript: [],
            calledNumber: number.e164,
            note: timing.note,
          };
        } catch (e) {
          if (!isApiError(e)) throw e;
          throw new DeskFailure(isOffline(e) ? 'unreachable' : 'service_error', explainApiError(e));
        }
      },
      'campaigns:test-call-status': async (req) => {
        const record = await requireActiveWorkspace(ctx);
        try {
          const d = await (await clientFor(ctx, record)).getCallDetails(req.callId);
          const status = String(d.call_status ?? 'unknown');
          return {
            callId: req.callId,
            status,
            ended: ENDED.has(status.toLowerCase()),
            transcript: d.transcript.map((t) => ({ speaker: t.speaker, text: t.text })),
          };
        } catch (e) {
          if (!isApiError(e)) throw e;
          throw new DeskFailure(isOffline(e) ? 'unreachable' : 'service_error', explainApiError(e));
        }
      },
    };
  },
});
