import { useId } from 'react';
import { toast } from '../components/toastStore.ts';
import { useApp } from './appStore.ts';

/** Picks the active workspace. The built-in Sandbox is listed first. */
export function WorkspaceSwitcher() {
  const id = useId();
  const workspaces = useApp((s) => s.workspaces);
  const activeId = useApp((s) => s.activeId);
  const setActive = useApp((s) => s.setActive);
  const ready = useApp((s) => s.phase === 'ready');
  return (
    <div className="switcher">
      <label className="switcher-label" htmlFor={id}>
        Active workspace
      </label>
      <select
        id={id}
        className="select"
        value={activeId ?? ''}
        disabled={!ready || workspaces.length === 0}
        onChange={async (event) => {
          const result = await setActive(event.target.value);
          if (!result.ok) toast.error(result.error.message);
        }}
      >
        {activeId === null ? <option value="">No workspace</option> : null}
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.isSandbox ? `${w.name} (built-in)` : w.name}
          </option>
        ))}
      </select>
    </div>
  );
}
