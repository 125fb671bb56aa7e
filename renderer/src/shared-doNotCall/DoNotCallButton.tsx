import { useState } from 'react';
import { Button } from '../components/Button.tsx';
import { toast } from '../components/toastStore.ts';
import { desk } from '../desk/desk.ts';
import { formatCount } from '../components/format.ts';

type Target = { callIds: string[] } | { bulkListId: string; outcomes: string[] };

/**
 * "Do not call again": the number of a call, or the contacts of a Campaign results selection, go
 * on the workspace's do-not-call list (reason opted out, the call or campaign as source).
 */
export function DoNotCallButton({ target, label = 'Do not call again' }: { target: Target; label?: string }) {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const run = async () => {
    setBusy(true);
    const r =
      'callIds' in target
        ? await desk().suppression.fromCalls({ callIds: target.callIds })
        : await desk().suppression.fromResults(target);
    setBusy(false);
    if (!r.ok) {
      toast.error(r.error.message);
      return;
    }
    const n = r.value.added + r.value.merged;
    if (n === 0) {
      toast.error(r.value.refused[0]?.message ?? 'No number to add.');
      return;
    }
    setDone(true);
    toast.success(`${formatCount(n)} ${n === 1 ? 'number is' : 'numbers are'} on the do-not-call list`);
  };
  return (
    <Button busy={busy} disabled={done} onClick={() => void run()} data-testid="do-not-call">
      {done ? 'On the do-not-call list' : label}
    </Button>
  );
}
