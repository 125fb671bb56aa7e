// An agent's variables against one contact list: the mapping (saved for the list, else the import's
// own choices, else auto: exact column name, then ignoring case/spaces/underscores, then the column
// the agent's last list used), the lint (counted in SQLite), the prompt preview of one row, the next
// row with a missing value, and the upload columns and variables_map the mapping implies.
import { matchColumn, NAME_VARIABLE, PHONE_VARIABLE } from '../../../shared/domain/agentVariables.ts';
import { cleanName, firstNamePreview, UPLOAD_PHONE_HEADER } from '../../../shared/domain/contacts/index.ts';
import type { EngineSetup } from '../../../shared/domain/contacts/index.ts';
import { optionalColumns, refusingColumns } from '../../../shared/domain/serviceRefusals.ts';
import { extractPlaceholders, splitPrompt } from '../../../shared/domain/template.ts';
import type {
  AgentLint,
  AgentMapping,
  AgentVersion,
  PreviewSegment,
  PromptPreview,
  VariableColumn,
} from '../../../shared/ipc/channels/agents.ts';
import type { ContactFilter, VariableMapping } from '../../../shared/ipc/channels/contacts.ts';
import { emptyColumnFilter } from '../../../shared/ipc/channels/contacts.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { StoredList } from '../contacts/storedList.ts';
import type { DeskContext } from '../desk/context.ts';
import { setupJson } from '../contacts/listJson.ts';
import { filterTotal, toContactList } from '../contacts/listView.ts';
import { toAgentDetail } from './agentView.ts';
import { storedAgent } from './subscriptions.ts';
import { requireActiveWorkspace } from '../workspaces/workspaceAccess.ts';
import { z } from 'zod';
import { cellsJson } from '../db/storedCells.ts';
import { storedJson } from '../db/storedJson.ts';

export interface MappingRequest {
  listId: number;
  agentId: string;
  versionId?: string | undefined;
}

/** Everything the mapping answers are computed from. */
interface MappingContext {
  workspaceId: string;
  list: StoredList;
  setup: EngineSetup;
  version: AgentVersion;
  mapping: VariableColumn[];
}

async function readyList(ctx: DeskContext, listId: number): Promise<StoredList> {
  const list = await ctx.db.call('contacts.list', { listId });
  if (!list || list.status !== 'ready')
    throw new DeskFailure('not_found', 'This contact list is not available.', 'listId');
  return list;
}

function chooseVersion(versions: AgentVersion[], versionId: string | undefined): AgentVersion {
  if (versionId !== undefined) {
    const v = versions.find((x) => x.id === versionId);
    if (!v) throw new DeskFailure('not_found', 'This agent has no such version.', 'versionId');
    return v;
  }
  const v = versions.find((x) => x.isActive) ?? versions[versions.length - 1];
  if (!v)
    throw new DeskFailure(
      'not_found',
      'This agent has no prompt version in the library yet: refresh the agents.',
      'agentId',
    );
  return v;
}

/** A saved mapping: variable → column name. */
const columnMapJson = storedJson(z.record(z.string(), z.string()), 'agent variable mapping');
const optionalJson = storedJson(z.array(z.string()), 'optional variables');
/** The list's own mapping as its import kept it (read as stored: older lists may lack `optional`). */
const listMappingJson = storedJson(
  z.array(z.object({ variable: z.string(), column: z.string(), optional: z.boolean().default(false) })),
  'list variable mapping',
);

const parseMap = (json: string | null): Map<string, string> =>
  new Map(json === null ? [] : Object.entries(columnMapJson(json)));

/** The mapping of every variable of the version to a column of the list. */
function resolveMapping(
  version: AgentVersion,
  setup: EngineSetup,
  own: Map<string, string> | null,
  imported: readonly VariableMapping[],
  last: Map<string, string>,
  ownOptional: ReadonlySet<string> | null,
): VariableColumn[] {
  const header = setup.header;
  const has = (c: string) => header.includes(c);
  // Optional: as saved for this list and agent, else as marked at import.
  const optional = ownOptional ?? new Set(imported.filter((m) => m.optional).map((m) => m.variable));
  return version.variables.map((v) => ({
    ...columnOf(v.name),
    optional: v.name !== PHONE_VARIABLE && optional.has(v.name),
  }));
  function columnOf(name: string): Omit<VariableColumn, 'optional'> {
    if (name === PHONE_VARIABLE)
      return { variable: name, column: header[setup.phoneIndex] ?? UPLOAD_PHONE_HEADER, source: 'phone' };
    const chosen = own?.get(name);
    if (chosen !== undefined && (chosen === '' || has(chosen)))
      return { variable: name, column: chosen, source: chosen === '' ? 'none' : 'manual' };
    // Without a saved mapping, what the operator mapped at import counts as chosen for this list.
    const fromImport = own === null ? imported.find((m) => m.variable === name && has(m.column)) : undefined;
    if (fromImport) return { variable: name, column: fromImport.column, source: 'manual' };
    const match = matchColumn(name, header);
    if (match) return { variable: name, column: match.column, source: match.how };
    const previous = last.get(name);
    if (previous !== undefined && previous !== '' && has(previous))
      return { variable: name, column: previous, source: 'last-list' };
    if (name === NAME_VARIABLE && setup.nameIndex >= 0)
      return { variable: name, column: header[setup.nameIndex] as string, source: 'similar' };
    return { variable: name, column: '', source: 'none' };
  }
}

async function mappingContext(ctx: DeskContext, req: MappingRequest): Promise<MappingContext> {
  const record = await requireActiveWorkspace(ctx);
  const [list, agent] = await Promise.all([
    readyList(ctx, req.listId),
    storedAgent(ctx, record.id, req.agentId),
  ]);
  const setup = setupJson(list.setup);
  const version = chooseVersion(toAgentDetail(agent).agentVersions, req.versionId);
  const saved = await ctx.db.call('agents.mapping', {
    workspaceId: record.id,
    agentId: req.agentId,
    listId: req.listId,
  });
  const mapping = resolveMapping(
    version,
    setup,
    saved.own === null ? null : parseMap(saved.own.mapping),
    listMappingJson(list.mapping),
    parseMap(saved.last),
    saved.own === null ? null : new Set(optionalJson(saved.own.optional)),
  );
  return { workspaceId: record.id, list, setup, version, mapping };
}

const answer = (req: MappingRequest, m: MappingContext): AgentMapping => ({
  listId: req.listId,
  agentId: req.agentId,
  versionId: m.version.id,
  mapping: m.mapping,
  columns: m.setup.header,
});

export async function getMapping(ctx: DeskContext, req: MappingRequest): Promise<AgentMapping> {
  return answer(req, await mappingContext(ctx, req));
}

export async function setMapping(
  ctx: DeskContext,
  req: MappingRequest & {
    mapping: Array<{ variable: string; column: string; optional?: boolean | undefined }>;
  },
): Promise<AgentMapping> {
  const current = await mappingContext(ctx, req);
  const known = new Set(current.mapping.map((m) => m.variable));
  const chosen = new Map(
    current.mapping.filter((m) => m.source === 'manual').map((m) => [m.variable, m.column]),
  );
  const optional = new Set(current.mapping.filter((m) => m.optional).map((m) => m.variable));
  req.mapping.forEach((m, i) => {
    if (!known.has(m.variable))
      throw new DeskFailure(
        'invalid_request',
        `"${m.variable}" is not a variable of this agent version.`,
        `mapping.${i}.variable`,
      );
    if (m.variable === PHONE_VARIABLE) return; // always the list's phone column (never optional)
    if (m.optional === true) optional.add(m.variable);
    else if (m.optional === false) optional.delete(m.variable);
    if (m.column !== '' && !current.setup.header.includes(m.column))
      throw new DeskFailure(
        'invalid_request',
        `The list has no column "${m.column}".`,
        `mapping.${i}.column`,
      );
    chosen.set(m.variable, m.column);
  });
  // What was auto-mapped and not touched stays auto (it follows the rules next time).
  await ctx.db.call('agents.setMapping', {
    workspaceId: current.workspaceId,
    agentId: req.agentId,
    listId: req.listId,
    versionId: current.version.id,
    mapping: JSON.stringify(Object.fromEntries(chosen)),
    optional: JSON.stringify([...optional].filter((v) => known.has(v)).sort()),
    now: new Date().toISOString(),
  });
  return getMapping(ctx, req);
}

/** Mapped variables the prompt uses (not mobile_number), with their column index. */
function usedColumns(m: MappingContext): Array<{ variable: string; column: string; index: number }> {
  const used = new Set(extractPlaceholders(m.version.promptText ?? ''));
  return m.mapping
    .filter((v) => v.variable !== PHONE_VARIABLE && v.column !== '' && used.has(v.variable))
    .map((v) => ({ variable: v.variable, column: v.column, index: m.setup.header.indexOf(v.column) }));
}

/**
 * Blank-cell counts of a list at one revision (a full scan of a million rows takes seconds), so
 * re-reading the lint after a mapping change or a view switch costs nothing until the rows change
 * (every edit, exclusion, bulk action and undo bumps the revision).
 */
const lintCache = new Map<string, { uploadRows: number; empty: number[]; refused: number }>();
const LINT_CACHE_SIZE = 32;

async function lintCounts(ctx: DeskContext, list: StoredList, columns: number[], required: number[]) {
  // created_at too: SQLite may give a deleted list's id to a new one.
  const key = `${ctx.options.dataDir}\0${list.id}:${list.created_at}:${list.revision}:${columns.join(',')}:${required.join(',')}`;
  const cached = lintCache.get(key);
  if (cached) return cached;
  const counts = await ctx.db.call('agents.lintCounts', { listId: list.id, columns, required });
  if (lintCache.size >= LINT_CACHE_SIZE) lintCache.delete(lintCache.keys().next().value as string);
  lintCache.set(key, counts);
  return counts;
}

export async function lint(ctx: DeskContext, req: MappingRequest): Promise<AgentLint> {
  const m = await mappingContext(ctx, req);
  const placeholders = extractPlaceholders(m.version.promptText ?? '');
  const unmapped = placeholders.filter((p) => m.mapping.find((v) => v.variable === p)?.column === '');
  const mapped = m.mapping
    .filter((v) => v.variable !== PHONE_VARIABLE && v.column !== '')
    .map((v) => ({ ...v, index: m.setup.header.indexOf(v.column) }));
  const columns = [...new Set(mapped.map((v) => v.index))];
  const required = refusingColumns(m.mapping, m.setup.header, m.setup.phoneIndex);
  const counts = await lintCounts(ctx, m.list, columns, required);
  const emptyOf = new Map(columns.map((c, i) => [c, counts.empty[i] ?? 0]));
  const usedIndexes = new Set([m.setup.phoneIndex, ...mapped.map((v) => v.index)]);
  return {
    unmapped,
    emptyColumns: mapped
      .map((v) => ({
        variable: v.variable,
        column: v.column,
        emptyRows: emptyOf.get(v.index) ?? 0,
        filter: emptyColumnFilter(v.index),
        optional: v.optional,
      }))
      .filter((e) => e.emptyRows > 0),
    unusedColumns: m.setup.header.filter((_, i) => !usedIndexes.has(i)),
    uploadRows: counts.uploadRows,
    rowsServiceWillDrop: counts.refused,
    refusalFilter: counts.refused > 0 ? emptyColumnFilter(...required) : null,
  };
}

/** The value a variable takes in the upload for a row ('' when the cell is blank). */
function valueOf(
  m: MappingContext,
  variable: string,
  column: string,
  cells: string[],
  e164: number | null,
  phoneRaw: string,
): string {
  if (variable === PHONE_VARIABLE) return e164 === null ? phoneRaw.trim() : `+${e164}`;
  const index = m.setup.header.indexOf(column);
  const cell = cells[index] ?? '';
  return index === m.setup.nameIndex ? cleanName(cell) : cell.trim();
}

async function filterCount(ctx: DeskContext, list: StoredList, filter: ContactFilter): Promise<number> {
  if (filter.startsWith('empty:'))
    return ctx.db.call('contacts.filterCount', {
      listId: list.id,
      filter: filter as Exclude<ContactFilter, 'all'>,
    });
  return filterTotal(toContactList(list).counts, filter);
}

/** The spreadsheet row at a position of a filter, or null past its end. */
async function rowAt(ctx: DeskContext, listId: number, filter: ContactFilter, pos: number) {
  const rows = await ctx.db.call('contacts.page', { listId, filter, fromRow: 0, skip: pos, limit: 1 });
  return rows[0] ?? null;
}

export async function preview(
  ctx: DeskContext,
  req: MappingRequest & { filter: ContactFilter; pos: number; extractFirstName?: boolean | undefined },
): Promise<PromptPreview> {
  const m = await mappingContext(ctx, req);
  const total = await filterCount(ctx, m.list, req.filter);
  const row = await rowAt(ctx, req.listId, req.filter, req.pos);
  if (!row)
    throw new DeskFailure(
      'not_found',
      `There is no row ${req.pos + 1} in this view (it has ${total}).`,
      'pos',
    );
  const cells = cellsJson(row.cells);
  const columnOf = new Map(m.mapping.map((v) => [v.variable, v.column]));
  const missing = new Set<string>();
  let firstName: PromptPreview['firstName'] = null;
  const segments = splitPrompt(m.version.promptText ?? '').map((part): PreviewSegment => {
    if (part.kind === 'text') return part;
    const column = columnOf.get(part.name) ?? '';
    if (column === '') {
      missing.add(part.name);
      return { kind: 'missing', name: part.name, column: null };
    }
    let value = valueOf(m, part.name, column, cells, row.e164, row.phone_raw);
    if (value === '') {
      missing.add(part.name);
      return { kind: 'missing', name: part.name, column };
    }
    if (part.name === NAME_VARIABLE && req.extractFirstName === true) {
      const used = firstNamePreview(value);
      firstName = { original: value, used };
      value = used;
    }
    return { kind: 'value', name: part.name, column, value };
  });
  // The name the service would use, even when the prompt does not say @{{callee_name}}.
  if (req.extractFirstName === true && firstName === null) {
    const column = columnOf.get(NAME_VARIABLE) ?? '';
    const original = column === '' ? '' : valueOf(m, NAME_VARIABLE, column, cells, row.e164, row.phone_raw);
    if (original !== '') firstName = { original, used: firstNamePreview(original) };
  }
  return { row: row.row, pos: req.pos, total, segments, missing: [...missing], firstName };
}

export async function nextProblemRow(
  ctx: DeskContext,
  req: MappingRequest & {
    filter: ContactFilter;
    fromPos: number;
    direction?: 'next' | 'previous' | undefined;
  },
): Promise<{ pos: number | null; row: number | null; missing: string[] }> {
  const m = await mappingContext(ctx, req);
  const direction = req.direction ?? 'next';
  const none = { pos: null, row: null, missing: [] };
  let fromRow = 0;
  if (req.fromPos >= 0) {
    const at = await rowAt(ctx, req.listId, req.filter, req.fromPos);
    if (at) fromRow = at.row;
    else if (direction === 'next') return none;
    else fromRow = Number.MAX_SAFE_INTEGER;
  } else if (direction === 'previous') return none;
  const used = usedColumns(m);
  const found = await ctx.db.call('agents.problemRow', {
    listId: req.listId,
    filter: req.filter,
    fromRow,
    direction,
    columns: [...new Set(used.map((u) => u.index))],
  });
  if (!found) return none;
  const cells = cellsJson(found.cells);
  const pos =
    req.filter === 'all'
      ? found.pos
      : await ctx.db.call('contacts.locate', { listId: req.listId, filter: req.filter, row: found.row });
  return {
    pos,
    row: found.row,
    missing: used.filter((u) => (cells[u.index] ?? '').trim() === '').map((u) => u.variable),
  };
}

/** The upload for an agent: mapped columns under clean, unique names, and the variables_map. */
export interface AgentUpload {
  setup: EngineSetup;
  variablesMap: Record<string, string>;
  uploadColumns: string[];
  /** Column indexes of optional variables: a blank cell is written as OPTIONAL_BLANK_VALUE. */
  fillBlank: number[];
  /** Column indexes whose blank cell the service refuses (the launch's prediction counts them). */
  refusing: number[];
}

export async function agentUpload(ctx: DeskContext, req: MappingRequest): Promise<AgentUpload> {
  const m = await mappingContext(ctx, req);
  const header = [...m.setup.header];
  const taken = new Set([UPLOAD_PHONE_HEADER]);
  const nameOf = new Map<number, string>();
  const variablesMap: Record<string, string> = {};
  for (const v of m.mapping) {
    if (v.column === '') continue;
    if (v.variable === PHONE_VARIABLE) {
      variablesMap[v.variable] = UPLOAD_PHONE_HEADER;
      continue;
    }
    const index = m.setup.header.indexOf(v.column);
    if (index === m.setup.phoneIndex) {
      variablesMap[v.variable] = UPLOAD_PHONE_HEADER;
      continue;
    }
    let name = nameOf.get(index);
    if (name === undefined) {
      // The service wants clean headers (no stray spaces); two columns never share a name.
      const base = v.column.trim().replace(/\s+/g, ' ') || v.variable;
      name = base;
      for (let k = 2; taken.has(name); k++) name = `${base} ${k}`;
      taken.add(name);
      nameOf.set(index, name);
      header[index] = name;
    }
    variablesMap[v.variable] = name;
  }
  return {
    setup: { ...m.setup, header, uploadColumns: [...nameOf.keys()] },
    variablesMap,
    uploadColumns: [...nameOf.values()],
    fillBlank: optionalColumns(m.mapping, m.setup.header, m.setup.phoneIndex),
    refusing: refusingColumns(m.mapping, m.setup.header, m.setup.phoneIndex),
  };
}
