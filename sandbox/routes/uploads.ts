import type {} from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkCallConfig, resolveCallConfig } from '../../shared/domain/callConfig.ts';
import { campaignTimeToInstant } from '../../shared/domain/dates.ts';
import type { CallConfig } from '../../shared/service/callConfig.ts';
import { missingFieldsBody } from '../../shared/service/errors.ts';
import {
  campaignUploadFieldsSchema,
  requiredUploadFields,
  variablesMapSchema,
} from '../../shared/service/upload.ts';
import type { CampaignUploadFields } from '../../shared/service/upload.ts';
import type { SandboxContext } from '../context.ts';
import { variablesOf } from '../domain/agents.ts';
import {
  currentStatus,
  isProcessed,
  processedRows,
  processingWindow,
  refreshBulkList,
  scheduleProcessingEnd,
} from '../domain/bulkListLifecycle.ts';
import { creditsPerCall } from '../domain/campaignStart.ts';
import { checkMapping, invalidRowsCsv, parseCsvFile, validateContacts } from '../domain/contactList.ts';
import type { ContactEntry } from '../domain/contactList.ts';
import { countryFor } from '../domain/phone.ts';
import { HttpError, detail, detailError, parseOr } from '../http/errors.ts';
import type { BulkListRow } from '../store/types.ts';
import type { Variants } from '../variants.ts';

/** The large-campaign flow is for files of this many data rows or more (seed, Limits). */
export const largeCampaignMinRows = 5_000;
const invalidRowsPath = '/files/invalid-rows/';
const detailRoute = { config: { errorShape: 'detail' as const } };

interface Upload {
  fields: Record<string, string>;
  file: { name: string; bytes: Buffer } | null;
}

async function readMultipart(req: FastifyRequest): Promise<Upload> {
  if (!req.isMultipart()) {
    throw detailError(
      400,
      'This operation takes multipart/form-data (a CSV file and text fields); let the client set the boundary',
    );
  }
  const fields: Record<string, string> = {};
  let file: Upload['file'] = null;
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname === 'file') file = { name: part.filename || 'upload.csv', bytes };
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, file };
}

interface Ingested {
  list: BulkListRow;
  entries: ContactEntry[];
}

/**
 * Required form fields that are absent (or blank): FastAPI answers 422 with one `detail` item per
 * missing field, before any other check.
 */
function checkRequiredFields(up: Upload): void {
  const missing = requiredUploadFields.filter((name) =>
    name === 'file' ? up.file === null : (up.fields[name] ?? '').trim() === '',
  );
  if (missing.length > 0) throw new HttpError(422, missingFieldsBody('body', missing));
}

/** Checks shared by upload-csv and save: fields, agent, mapping, CSV; then every row. */
function ingest(ctx: SandboxContext, up: Upload, flow: 'large' | 'standard'): Ingested {
  const now = ctx.clock.nowMs();
  checkRequiredFields(up);
  const f: CampaignUploadFields = parseOr(campaignUploadFieldsSchema, up.fields, (m) => detailError(400, m));
  if (!up.file) throw detailError(400, 'file: a CSV file is required');
  const agent = ctx.store.agents.get(f.agent_id);
  if (!agent) throw detailError(404, `agent_id: agent ${f.agent_id} not found`);
  const version = ctx.store.agents.activeVersion(agent);
  const agentVariables = version ? variablesOf(version) : ['callee_name', 'mobile_number'];

  let mapRaw: unknown;
  try {
    mapRaw = JSON.parse(f.variables_map);
  } catch {
    throw detailError(
      400,
      'variables_map is not valid JSON (expected an object of agent variable → CSV column)',
    );
  }
  const variablesMap = parseOr(variablesMapSchema, mapRaw, (m) => detailError(400, m), 'variables_map');

  const parsedConfig = (() => {
    try {
      return checkCallConfig(JSON.parse(f.call_config));
    } catch {
      return { ok: false as const, message: 'call_config is not valid JSON' };
    }
  })();
  if (!parsedConfig.ok) throw detailError(400, parsedConfig.message);
  const callConfig: CallConfig = parsedConfig.value;
  const country = countryFor(f.country_code);
  if (!country)
    throw detailError(400, `country_code: ${f.country_code} is not a known dialing prefix or country`);

  const tz = resolveCallConfig(callConfig).timezone;
  const at = (name: 'campaign_start_time' | 'campaign_end_time'): number => {
    const r = campaignTimeToInstant(f[name], tz);
    if (!r.ok) throw detailError(400, `${name}: ${r.message}`);
    return r.value;
  };
  const startAt = at('campaign_start_time');
  const endAt = at('campaign_end_time');
  if (startAt <= now) {
    throw detailError(400, `campaign_start_time must be in the future (it is read in ${tz})`);
  }
  if (endAt <= startAt) {
    throw detailError(400, 'campaign_end_time must be after campaign_start_time');
  }

  const csv = parseCsvFile(up.file.bytes, up.file.name);
  if (!csv.ok) throw detailError(400, csv.message);
  const rowCount = csv.value.rows.length;
  if (flow === 'large' && rowCount < largeCampaignMinRows) {
    throw detailError(
      400,
      `The large-campaign upload is for CSVs of ${largeCampaignMinRows.toLocaleString('en-US')} rows or more; "${up.file.name}" has ${rowCount}. Use the standard flow: POST /campaign/save, then POST /campaign/start.`,
    );
  }
  if (rowCount === 0) throw detailError(400, `"${up.file.name}" has a header but no rows`);
  const mapping = checkMapping(variablesMap, agentVariables, agent.display_name, csv.value.header);
  if (!mapping.ok) throw detailError(400, mapping.message);

  const lang = agent.language.toLowerCase();
  const entries = validateContacts(csv.value, {
    country,
    phoneColumn: mapping.value.phoneColumn,
    columns: mapping.value.columns,
    transliterateTo: f.transliterate_callee_name && !lang.startsWith('en') ? lang : null,
  });
  const invalid = entries.filter((e) => !e.valid).length;
  const valid = entries.length - invalid;
  const removeInvalid = f.remove_invalid_rows ?? false;
  const failed = (invalid > 0 && !removeInvalid) || valid === 0;
  const outcomeMessage = failed
    ? valid === 0
      ? `No valid rows: all ${entries.length} rows are invalid`
      : `${invalid} of ${entries.length} rows are invalid; fix them and upload again, or set remove_invalid_rows to true to drop them`
    : invalid > 0
      ? `${invalid} invalid rows were removed; ${valid} rows are ready`
      : `All ${valid} rows are ready`;
  const window = flow === 'large' ? processingWindow(now, entries.length) : { startsAt: now, endsAt: now };

  const list: BulkListRow = {
    id: ctx.rng.uuid(),
    flow,
    agent_id: agent.id,
    campaign_name: f.campaign_name,
    country_code: f.country_code,
    variables_map: JSON.stringify(variablesMap),
    call_config: JSON.stringify(callConfig),
    campaign_start_time: f.campaign_start_time,
    campaign_end_time: f.campaign_end_time,
    start_at: startAt,
    end_at: endAt,
    remove_invalid_rows: removeInvalid ? 1 : 0,
    transliterate_callee_name: f.transliterate_callee_name ? 1 : 0,
    header: JSON.stringify(csv.value.header),
    file_name: up.file.name,
    status: flow === 'large' ? 'verifying' : 'uploaded',
    total_rows: entries.length,
    valid_rows: valid,
    invalid_rows: invalid,
    invalid_csv_token: invalid > 0 ? `${ctx.rng.hex(16)}.csv` : null,
    outcome: failed ? 'failed' : 'completed',
    outcome_message: outcomeMessage,
    processing_starts_at: window.startsAt,
    processing_ends_at: window.endsAt,
    started_at: null,
    from_numbers: null,
    number_pool_id: null,
    concurrency_percentage: null,
    callback_url: null,
    email_completion_user_ids: null,
    terminated_at: null,
    created_at: now,
    updated_at: now,
  };
  return { list, entries };
}

function store(ctx: SandboxContext, { list, entries }: Ingested): void {
  ctx.store.bulkLists.insert(
    list,
    entries.map((e) => ({
      bulk_list_id: list.id,
      row_number: e.rowNumber,
      line_number: e.line,
      valid: e.valid ? 1 : 0,
      reason: e.reason,
      mobile_number: e.mobileNumber,
      callee_name: e.calleeName,
      custom_args_values: JSON.stringify(e.customArgsValues),
      cells: JSON.stringify(e.cells),
    })),
  );
}

function getList(ctx: SandboxContext, id: string): BulkListRow {
  const list = ctx.store.bulkLists.get(id);
  if (!list) throw detailError(404, `Bulk list ${id} not found`);
  return refreshBulkList(ctx, list);
}

/** The status name the selected variant uses for a processing phase. */
function uploadStatusName(status: string, variant: Variants['upload_status']): string {
  if (variant === 'guidance' && status === 'verifying') return 'uploaded';
  if (variant === 'ready' && status === 'completed') return 'ready';
  return status;
}

/** Rows judged so far: valid and invalid among the first `processed` rows. */
function countsUpTo(ctx: SandboxContext, list: BulkListRow, processed: number): { ok: number; bad: number } {
  if (processed >= list.total_rows) return { ok: list.valid_rows, bad: list.invalid_rows };
  const bad =
    ctx.db
      .prepare<[string, number], { n: number }>(
        'SELECT count(*) AS n FROM bulk_list_rows WHERE bulk_list_id = ? AND row_number <= ? AND valid = 0',
      )
      .get(list.id, processed)?.n ?? 0;
  return { ok: processed - bad, bad };
}

/** `upload-csv`, `upload-status`, `save`, `check-balance`, and the invalid-rows file. */
export function registerUploadRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const invalidRowsUrl = (list: BulkListRow) =>
    list.invalid_csv_token ? `${ctx.baseUrl()}${invalidRowsPath}${list.invalid_csv_token}` : null;

  app.post('/v0/campaign/upload-csv', detailRoute, async (req) => {
    const ingested = ingest(ctx, await readMultipart(req), 'large');
    store(ctx, ingested);
    scheduleProcessingEnd(ctx, ingested.list);
    const l = ingested.list;
    const message = 'CSV received; rows are being validated. Poll the upload status until it is completed.';
    // The guidance sample answers `uploaded` with a message; the schema sample `verifying` with counters.
    if (ctx.variants.upload_status === 'guidance') {
      return { bulk_list_id: l.id, status: 'uploaded', message };
    }
    return {
      bulk_list_id: l.id,
      status: 'verifying',
      campaign_name: l.campaign_name,
      total_callees: 0,
      invalidated_rows_count: 0,
      invalidated_rows_csv_url: null,
      ...(ctx.variants.upload_status === 'schema' ? {} : { message }),
    };
  });

  app.get<{ Params: { id: string } }>('/v0/campaign/upload-status/:id', detailRoute, async (req) => {
    const list = getList(ctx, req.params.id);
    if (list.flow !== 'large') {
      throw detailError(
        400,
        `List ${list.id} was not created by the large-campaign upload; upload status covers only those`,
      );
    }
    const now = ctx.clock.nowMs();
    const variant = ctx.variants.upload_status;
    const status = uploadStatusName(currentStatus(list, now), variant);
    const processed = processedRows(list, now);
    const { ok, bad } = countsUpTo(ctx, list, processed);
    const done = isProcessed(list, now);
    const schemaCounters = {
      campaign_name: list.campaign_name,
      total_callees: done ? list.valid_rows : ok,
      invalidated_rows_count: bad,
      invalidated_rows_csv_url: done ? invalidRowsUrl(list) : null,
    };
    const guidanceCounters = {
      total_rows: list.total_rows,
      processed_rows: processed,
      successful_rows: ok,
      failed_rows: bad,
    };
    const message = done
      ? list.outcome_message
      : status === 'processing'
        ? `Validated ${processed} of ${list.total_rows} rows`
        : 'Checking the file';
    return {
      bulk_list_id: list.id,
      status,
      ...(variant === 'guidance' ? {} : schemaCounters),
      ...(variant === 'schema' ? {} : guidanceCounters),
      ...(variant === 'schema' ? {} : { message }),
    };
  });

  app.post('/v0/campaign/save', detailRoute, async (req) => {
    const ingested = ingest(ctx, await readMultipart(req), 'standard');
    const { list, entries } = ingested;
    if (list.outcome === 'failed') {
      const examples = entries
        .filter((e) => !e.valid)
        .slice(0, 5)
        .map((e) => `row ${e.rowNumber} (line ${e.line}): ${e.reason}`)
        .join('; ');
      throw new HttpError(400, detail(`${list.outcome_message}. ${examples}`));
    }
    store(ctx, ingested);
    const valid = entries.filter((e) => e.valid);
    return {
      message: 'Contacts imported successfully!',
      list_id: list.id,
      custom_args_values: valid.map((e) => e.customArgsValues),
      total_rows: list.total_rows,
      successful_rows: list.valid_rows,
      failed_rows: list.invalid_rows,
    };
  });

  app.post<{ Params: { id: string } }>('/v0/campaign/check-balance/:id', detailRoute, async (req) => {
    const list = getList(ctx, req.params.id);
    const now = ctx.clock.nowMs();
    if (!isProcessed(list, now)) {
      throw detailError(
        409,
        `Bulk list ${list.id} is not ready: upload processing is still ${currentStatus(list, now)}`,
      );
    }
    if (list.outcome === 'failed')
      throw detailError(409, `Bulk list ${list.id} failed processing: ${list.outcome_message ?? ''}`);
    const required = list.valid_rows * creditsPerCall;
    const available = ctx.store.workspace.get().credits;
    const sufficient = available >= required;
    const schemaShape = {
      status: list.started_at === null ? 'draft' : 'scheduled',
      bulk_list_id: list.id,
      message: sufficient
        ? `Balance is sufficient: ${required} credits needed, ${available} available`
        : `Insufficient balance: ${required} credits needed, ${available} available`,
    };
    const guidanceShape = {
      bulk_list_id: list.id,
      required_credits: required,
      available_credits: available,
      sufficient_balance: sufficient,
    };
    const variant = ctx.variants.balance;
    if (variant === 'schema') return schemaShape;
    if (variant === 'guidance') return guidanceShape;
    return { ...schemaShape, ...guidanceShape };
  });

  // The rejected rows, storage-style: public URL with an unguessable name.
  app.get<{ Params: { file: string } }>(`/v0${invalidRowsPath}:file`, async (req, reply) => {
    const list = ctx.store.bulkLists.byInvalidToken(req.params.file);
    if (!list || !isProcessed(list, ctx.clock.nowMs())) {
      return reply.code(404).send(detail('No such file'));
    }
    const csv = invalidRowsCsv(JSON.parse(list.header) as string[], ctx.store.bulkLists.invalidRows(list.id));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="invalid-rows-${list.id}.csv"`)
      .send(csv);
  });
}
