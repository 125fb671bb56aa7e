import type { KeyboardEvent, ReactNode } from 'react';
import { useId, useRef } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: string;
}

/** Tabs with arrow-key movement (WAI-ARIA tabs pattern, activation follows focus). */
export function Tabs<K extends string>({
  label,
  tabs,
  current,
  onChange,
  children,
}: {
  label: string;
  tabs: ReadonlyArray<TabItem<K>>;
  current: K;
  onChange: (key: K) => void;
  children: ReactNode;
}) {
  const id = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.key === current);
    let next: number;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    else return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onChange(tab.key);
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${id}-tab-${tab.key}`)}`)?.focus();
  };
  return (
    <>
      <div className="calls-tabs" role="tablist" aria-label={label} ref={listRef} onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={`${id}-tab-${t.key}`}
            aria-selected={t.key === current}
            aria-controls={`${id}-panel`}
            tabIndex={t.key === current ? 0 : -1}
            className="calls-tab"
            onClick={() => onChange(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        className="calls-tabpanel"
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${current}`}
      >
        {children}
      </div>
    </>
  );
}
