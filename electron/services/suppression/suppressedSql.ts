// The SQL term every upload and grid read uses to hold suppressed rows back (the do-not-call
// list of migration 0170: a workspace's entries and the shared list, workspace_id '').

/** The shared list's workspace id. */
export const SHARED = '';

export const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** The active workspace, as the grid sees it (app_settings, written by workspaces:set-active). */
export const ACTIVE_WORKSPACE = `(SELECT json_extract(value, '$') FROM app_settings WHERE key = 'activeWorkspaceId')`;
export const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/**
 * SQL true when the row `alias`'s number is on the workspace's list or the shared one and in
 * force. `workspaceId` null = the active workspace (the grid and the Summary). Two probes of the
 * primary key (number first) per row: a 1M-row list against a 1M-entry list is ~1M probes.
 */
export const suppressedSql = (workspaceId: string | null, alias = 'contacts'): string =>
  `EXISTS (SELECT 1 FROM suppressions s WHERE s.e164 = ${alias}.e164 AND s.workspace_id IN ('', ${
    workspaceId === null ? ACTIVE_WORKSPACE : quote(workspaceId)
  }) AND (s.expires_at IS NULL OR s.expires_at > ${NOW}))`;
