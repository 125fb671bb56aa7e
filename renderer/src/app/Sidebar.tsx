import type { ReactNode } from 'react';
import {
  AgentsIcon,
  CallsIcon,
  DoNotCallIcon,
  CampaignsIcon,
  ContactsIcon,
  LogoMark,
  SettingsIcon,
} from '../components/icons.tsx';
import { ConnectivityIndicator } from './ConnectivityIndicator.tsx';
import type { RouteId } from './routes.ts';
import { hrefFor, routes } from './routes.ts';
import { WorkspaceSwitcher } from './WorkspaceSwitcher.tsx';
import { useApp } from './appStore.ts';

const icons: Record<RouteId, ReactNode> = {
  contacts: <ContactsIcon />,
  campaigns: <CampaignsIcon />,
  calls: <CallsIcon />,
  'do-not-call': <DoNotCallIcon />,
  agents: <AgentsIcon />,
  settings: <SettingsIcon />,
};

export function Sidebar({ current, onShowShortcuts }: { current: RouteId; onShowShortcuts: () => void }) {
  const version = useApp((s) => s.info?.version);
  const main = routes.filter((r) => r.id !== 'settings');
  const link = (id: RouteId, label: string) => (
    <li key={id}>
      <a className="nav-link" href={hrefFor(id)} aria-current={current === id ? 'page' : undefined}>
        {icons[id]}
        <span>{label}</span>
      </a>
    </li>
  );
  return (
    <aside className="sidebar">
      <div className="brand">
        <LogoMark />
        <span className="brand-name">Campaign Desk</span>
      </div>
      <WorkspaceSwitcher />
      <nav className="nav" aria-label="Main">
        <ul className="nav-list">{main.map((r) => link(r.id, r.label))}</ul>
        <ul className="nav-list nav-list-bottom">{link('settings', 'Settings')}</ul>
      </nav>
      <button
        type="button"
        className="btn btn-ghost btn-sm sidebar-shortcuts"
        aria-haspopup="dialog"
        onClick={onShowShortcuts}
      >
        Keyboard shortcuts <kbd aria-hidden="true">?</kbd>
      </button>
      <div className="sidebar-footer">
        <ConnectivityIndicator />
        {version ? <span className="sidebar-version">Version {version}</span> : null}
      </div>
    </aside>
  );
}
