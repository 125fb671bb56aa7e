import { useEffect, useState } from 'react';
import type { CallFilter } from '../../../../shared/ipc/channels/calls.ts';
import { Button } from '../../components/Button.tsx';
import { formatCount } from '../../components/format.ts';
import { shownText } from './callFormat.ts';
import {
  CALL_OUTCOMES,
  OUTCOME_TEXT,
  statusText,
  subStatusText,
} from '../../../../shared/domain/callOutcome.ts';
import type { CallOutcome } from '../../../../shared/domain/callOutcome.ts';
import { dayToIso, isoToDay, numberOrUndefined } from './filterValues.ts';
import { useCalls } from './callsStore.ts';
import { Labelled } from './Labelled.tsx';
import { ReviewFilters } from './review/ReviewFilters.tsx';
import { campaignLabel } from './campaignNames.ts';
import { useCampaignLabels } from './useCampaignLabels.ts';

const SEARCH_DELAY_MS = 250;

function NumberFilter({
  label,
  field,
}: {
  label: string;
  field: keyof CallFilter & `${'min' | 'max'}${string}`;
}) {
  const value = useCalls((s) => s.filter[field]);
  const setFilter = useCalls((s) => s.setFilter);
  return (
    <Labelled className="calls-filter" label={label}>
      {(id) => (
        <input
          id={id}
          className="input input-num"
          type="number"
          min={0}
          inputMode="decimal"
          value={value === undefined ? '' : String(value)}
          onChange={(e) => setFilter({ [field]: numberOrUndefined(e.target.value) })}
        />
      )}
    </Labelled>
  );
}

interface Option {
  value: string;
  label: string;
}
const facetOption =
  (words: (code: string) => string) =>
  (f: { value: string; calls: number }): Option => ({
    value: f.value,
    label: `${words(f.value)} (${formatCount(f.calls)})`,
  });

/** A labelled menu whose first choice ("Any …", value '') means no filter. */
function SelectFilter({
  label,
  any,
  value,
  options,
  onChange,
}: {
  label: string;
  any: string;
  value: string;
  options: Option[];
  onChange: (value: string) => void;
}) {
  return (
    <Labelled className="calls-filter" label={label}>
      {(id) => (
        <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{any}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

/** Search and filters of the Calls table; the same filter drives the export. */
export function CallsFilters() {
  const labels = useCampaignLabels();
  const filter = useCalls((s) => s.filter);
  const setFilter = useCalls((s) => s.setFilter);
  const clearFilters = useCalls((s) => s.clearFilters);
  const facets = useCalls((s) => s.facets);
  const campaigns = useCalls((s) => s.campaigns);
  const [search, setSearch] = useState(filter.search ?? '');

  // Typing waits a moment before searching; clearing the filters clears the box too.
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((filter.search ?? '') !== search.trim()) setFilter({ search: search.trim() || undefined });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, filter.search, setFilter]);
  const [seenSearch, setSeenSearch] = useState(filter.search);
  if (seenSearch !== filter.search) {
    setSeenSearch(filter.search);
    if (filter.search === undefined) setSearch('');
  }

  const one = (values: string[] | undefined) => values?.[0] ?? '';

  return (
    <div className="calls-filters" role="search" aria-label="Search and filter calls">
      <Labelled className="calls-filter calls-search" label="Search transcripts, names and numbers">
        {(id) => (
          <input
            id={id}
            className="input"
            type="search"
            value={search}
            placeholder="e.g. refund"
            onChange={(e) => setSearch(e.target.value)}
          />
        )}
      </Labelled>
      <SelectFilter
        label="Campaign"
        any="All calls"
        value={filter.bulkListId ?? ''}
        options={campaigns.map((c) => ({
          value: c.bulkListId,
          label: `${campaignLabel(labels, c.bulkListId)} (${formatCount(c.calls)})`,
        }))}
        onChange={(v) => setFilter({ bulkListId: v || undefined })}
      />
      <SelectFilter
        label="Agent"
        any="Any agent"
        value={filter.agentId ?? ''}
        options={(facets?.agents ?? []).map((a) => ({
          value: a.id,
          label: `${shownText(a.name, a.id)} (${formatCount(a.calls)})`,
        }))}
        onChange={(v) => setFilter({ agentId: v || undefined })}
      />
      <SelectFilter
        label="Outcome"
        any="Any outcome"
        value={one(filter.outcomes)}
        options={CALL_OUTCOMES.filter((o) => o !== 'not_called').map((o) => ({
          value: o,
          label: OUTCOME_TEXT[o],
        }))}
        onChange={(v) => setFilter({ outcomes: v ? [v as CallOutcome] : undefined })}
      />
      <SelectFilter
        label="Status"
        any="Any status"
        value={one(filter.statuses)}
        options={(facets?.statuses ?? []).map(facetOption(statusText))}
        onChange={(v) => setFilter({ statuses: v ? [v] : undefined })}
      />
      <SelectFilter
        label="Sub-status"
        any="Any sub-status"
        value={one(filter.subStatuses)}
        options={(facets?.subStatuses ?? []).map(facetOption(subStatusText))}
        onChange={(v) => setFilter({ subStatuses: v ? [v] : undefined })}
      />
      <Labelled className="calls-filter" label="From">
        {(id) => (
          <input
            id={id}
            className="input"
            type="date"
            value={isoToDay(filter.from, false)}
            onChange={(e) => setFilter({ from: dayToIso(e.target.value, false) })}
          />
        )}
      </Labelled>
      <Labelled className="calls-filter" label="To">
        {(id) => (
          <input
            id={id}
            className="input"
            type="date"
            value={isoToDay(filter.to, true)}
            onChange={(e) => setFilter({ to: dayToIso(e.target.value, true) })}
          />
        )}
      </Labelled>
      <SelectFilter
        label="Voicemail"
        any="Any"
        value={filter.voicemail === undefined ? '' : filter.voicemail ? 'yes' : 'no'}
        options={[
          { value: 'yes', label: 'Voicemail only' },
          { value: 'no', label: 'No voicemail' },
        ]}
        onChange={(v) => setFilter({ voicemail: v === '' ? undefined : v === 'yes' })}
      />
      <NumberFilter label="Min duration (s)" field="minDuration" />
      <NumberFilter label="Max duration (s)" field="maxDuration" />
      <NumberFilter label="Min cost" field="minCost" />
      <NumberFilter label="Max cost" field="maxCost" />
      <ReviewFilters />
      <Button variant="ghost" onClick={clearFilters} disabled={Object.keys(filter).length === 0}>
        Clear filters
      </Button>
    </div>
  );
}
