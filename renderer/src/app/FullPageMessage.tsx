import type { ReactNode } from 'react';
import { LogoMark } from '../components/icons.tsx';

/** A plain page for when the shell cannot work at all (refused token, back end unreachable). */
export function FullPageMessage({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <main className="full-page">
      <div className="full-page-card" role="alert">
        <LogoMark size={36} />
        <h1>{title}</h1>
        {children}
        {actions ? <div className="full-page-actions">{actions}</div> : null}
      </div>
    </main>
  );
}
