import type { ReactNode } from 'react';
import { PageHeader } from '../../app/PageHeader.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { InfoIcon } from '../../components/icons.tsx';

/** An honest empty state for pages that are not built yet: no sample data, no fake numbers. */
export function NotAvailablePage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      <section className="page-body" aria-label={title}>
        <EmptyState icon={<InfoIcon size={28} />} title="Not available yet">
          {children}
        </EmptyState>
      </section>
    </>
  );
}
