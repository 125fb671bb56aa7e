import type { ReactNode } from 'react';
import { useId } from 'react';

/**
 * A visible label tied to its control by id (not by wrapping: a wrapped select or input would add
 * its current value to its accessible name).
 */
export function Labelled({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}
