import type { ReactNode } from 'react';
import { AlertIcon, ErrorIcon, InfoIcon } from './icons.tsx';

/** An inline message box. `tone` changes colour and icon; the text always says what happened. */
export function Notice({
  tone,
  title,
  children,
  role,
}: {
  tone: 'info' | 'warning' | 'error';
  title?: string;
  children?: ReactNode;
  role?: 'alert' | 'status' | 'note';
}) {
  const icon = tone === 'error' ? <ErrorIcon /> : tone === 'warning' ? <AlertIcon /> : <InfoIcon />;
  return (
    <div className={`notice notice-${tone}`} role={role}>
      <span className="notice-icon">{icon}</span>
      <div className="notice-body">
        {title ? <p className="notice-title">{title}</p> : null}
        {children}
      </div>
    </div>
  );
}
