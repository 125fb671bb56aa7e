import type { Workspace } from '../../../shared/ipc/channels/workspaces.ts';

/** The built-in Sandbox first, then the operator's workspaces in the order they were added. */
export function orderWorkspaces(workspaces: readonly Workspace[]): Workspace[] {
  return [...workspaces].sort((a, b) => {
    if (a.isSandbox !== b.isSandbox) return a.isSandbox ? -1 : 1;
    return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
  });
}
