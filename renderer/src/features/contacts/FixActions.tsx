import { useId, useState } from 'react';
import type { ContactList } from '../../../../shared/ipc/channels/contacts.ts';
import { Button } from '../../components/Button.tsx';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { BulkProgressBar, useBulkProgress } from './BulkProgress.tsx';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { formatCount } from '../../components/format.ts';

/**
 * Bulk fixes (each undoable): exclude invalid rows, include them again, apply a country. They run
 * in chunks in the back end, with progress and Cancel here, while the grid keeps answering.
 */
export function FixActions({ list }: { list: ContactList }) {
  const applyList = useContacts((s) => s.applyList);
  const progress = useBulkProgress((p) => p.listId === list.id && p.action !== 'delete');
  const [busy, setBusy] = useState<string | null>(null);
  const [country, setCountry] = useState('');
  const [scope, setScope] = useState<'invalid' | 'all'>('invalid');
  const id = useId();

  const run = async (
    name: string,
    action: () => ReturnType<ReturnType<typeof desk>['contacts']['bulk']>,
    done: (affected: number) => string,
  ) => {
    setBusy(name);
    const result = await action();
    setBusy(null);
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    applyList(result.value.list);
    if (result.value.cancelled) toast.info('Cancelled: the list is as it was before.');
    else toast.success(done(result.value.affected));
  };

  const undo = async () => {
    setBusy('undo');
    const result = await desk().contacts.undo({ listId: list.id });
    setBusy(null);
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    applyList(result.value.list);
    if (result.value.cancelled)
      toast.info('Undo cancelled: the list is as it was, and the undo is still there.');
    else toast.success(`Undone: ${result.value.undone}`);
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="subsection-title">
        Fix
      </h3>
      {busy !== null && progress ? (
        <BulkProgressBar key={`${progress.action}:${progress.label}`} progress={progress} />
      ) : null}
      <div className="action-row">
        <Button
          busy={busy === 'exclude'}
          disabled={busy !== null || list.counts.invalid === 0}
          onClick={() =>
            void run(
              'exclude',
              () => desk().contacts.bulk({ listId: list.id, action: 'exclude-invalid' }),
              (n) => `Excluded ${formatCount(n)} invalid rows`,
            )
          }
        >
          Exclude all invalid rows
        </Button>
        <Button
          busy={busy === 'landline'}
          disabled={busy !== null || list.counts.issues.phone_landline === 0}
          onClick={() =>
            void run(
              'landline',
              () => desk().contacts.bulk({ listId: list.id, action: 'exclude-landline' }),
              (n) => `Excluded ${formatCount(n)} landline-only numbers`,
            )
          }
        >
          Exclude landline-only numbers
        </Button>
        <Button
          busy={busy === 'include'}
          disabled={busy !== null || list.counts.excluded === 0}
          onClick={() =>
            void run(
              'include',
              () => desk().contacts.bulk({ listId: list.id, action: 'include-all' }),
              (n) => `Included ${formatCount(n)} rows again`,
            )
          }
        >
          Include excluded rows
        </Button>
        <Button
          busy={busy === 'undo'}
          disabled={busy !== null || list.undo === null}
          onClick={() => void undo()}
        >
          {list.undo ? `Undo: ${list.undo}` : 'Undo'}
        </Button>
      </div>
      <form
        className="action-row"
        onSubmit={(e) => {
          e.preventDefault();
          const value = country.trim();
          if (!value) return;
          void run(
            'country',
            () => desk().contacts.bulk({ listId: list.id, action: 'apply-country', country: value, scope }),
            (n) => `${formatCount(n)} rows checked again with ${value}`,
          );
        }}
      >
        <div className="field">
          <label className="field-label" htmlFor={`${id}-country`}>
            Apply a country to numbers without one
          </label>
          <div className="inline-controls">
            <input
              id={`${id}-country`}
              className="input input-short"
              placeholder={list.countryCode === 'IN' ? 'US or +1' : 'IN or +91'}
              value={country}
              onChange={(e) => setCountry(e.target.value)}
              spellCheck={false}
              autoComplete="off"
            />
            <select
              className="select"
              aria-label="Which numbers"
              value={scope}
              onChange={(e) => setScope(e.target.value as 'invalid' | 'all')}
            >
              <option value="invalid">invalid numbers only (where it makes them valid)</option>
              <option value="all">all numbers (new default country for the list)</option>
            </select>
            <Button type="submit" busy={busy === 'country'} disabled={busy !== null || !country.trim()}>
              Apply country
            </Button>
          </div>
          <p className="field-hint">
            Default now: {list.country} ({list.countryCode}, +{list.callingCode}).
          </p>
        </div>
      </form>
    </section>
  );
}
