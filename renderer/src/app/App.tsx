import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Button } from '../components/Button.tsx';
import { LiveAnnouncer } from '../components/LiveAnnouncer.tsx';
import { Toasts } from '../components/Toasts.tsx';
import { useConnection } from '../desk/connectionStore.ts';
import { AgentsPage } from '../features/agents/AgentsPage.tsx';
import { CampaignsPage } from '../features/campaigns/CampaignsPage.tsx';
import { ContactsPage } from '../features/contacts/ContactsPage.tsx';
import { SettingsPage } from '../features/settings/SettingsPage.tsx';
import { DoNotCallPage } from '../features/suppression/DoNotCallPage.tsx';
import { useApp } from './appStore.ts';
import { ConnectionBanner } from './ConnectionBanner.tsx';
import { FullPageMessage } from './FullPageMessage.tsx';
import type { RouteId } from './routes.ts';
import { hrefFor, routes } from './routes.ts';
import { isTyping, routeForShortcut } from './shortcuts.ts';
import { ShortcutsDialog } from './ShortcutsDialog.tsx';
import { Sidebar } from './Sidebar.tsx';
import { useAppLifecycle } from './useAppLifecycle.ts';
import { useRoute } from './useRoute.ts';

// The Calls page brings the chart and waveform libraries: loaded when first opened.
const CallsPage = lazy(() =>
  import('../features/calls/CallsPage.tsx').then((m) => ({ default: m.CallsPage })),
);

function Page({ route }: { route: RouteId }) {
  switch (route) {
    case 'settings':
      return <SettingsPage />;
    case 'contacts':
      return <ContactsPage />;
    case 'campaigns':
      return <CampaignsPage />;
    case 'calls':
      return (
        <Suspense
          fallback={
            <div className="loading" role="status">
              Loading…
            </div>
          }
        >
          <CallsPage />
        </Suspense>
      );
    case 'agents':
      return <AgentsPage />;
    case 'do-not-call':
      return <DoNotCallPage />;
  }
}

export function App() {
  useAppLifecycle();
  const route = useRoute();
  const connection = useConnection((s) => s.status);
  const phase = useApp((s) => s.phase);
  const error = useApp((s) => s.error);
  const load = useApp((s) => s.load);
  const mainRef = useRef<HTMLElement>(null);
  const firstRoute = useRef(true);
  const [showShortcuts, setShowShortcuts] = useState(false);

  // Global shortcuts (listed in the help dialog): "?" shows them, Alt+1… goes to a page. A "?"
  // typed in a text field is text, and nothing fires while a dialog is open.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector('dialog[open]')) return;
      const route = routeForShortcut(event);
      if (route) {
        event.preventDefault();
        window.location.hash = hrefFor(route);
      } else if (
        event.key === '?' &&
        !event.ctrlKey &&
        !event.metaKey &&
        !event.altKey &&
        !isTyping(event.target)
      ) {
        event.preventDefault();
        setShowShortcuts(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  useEffect(() => {
    const label = routes.find((r) => r.id === route)?.label;
    document.title = label ? `${label} · Campaign Desk` : 'Campaign Desk';
  }, [route]);

  // Moving between pages puts focus on the new page's title, so keyboard and screen-reader users
  // land on the new content (not on the first run).
  useEffect(() => {
    if (firstRoute.current) {
      firstRoute.current = false;
      return;
    }
    mainRef.current?.querySelector<HTMLElement>('#page-title')?.focus();
  }, [route]);

  if (connection.state === 'refused') {
    return (
      <FullPageMessage title="Access refused">
        <p>
          Campaign Desk refused this page&apos;s access token. Open the address printed by{' '}
          <code>npm start</code> (or <code>npm run web</code>) again.
        </p>
        <p className="muted">
          The token changes every time Campaign Desk starts, and this page forgets it when it is reloaded, so
          an old or reloaded tab cannot reach your data.
        </p>
      </FullPageMessage>
    );
  }
  if (phase === 'error') {
    return (
      <FullPageMessage
        title="Campaign Desk could not start"
        actions={
          <Button variant="primary" onClick={() => void load()}>
            Try again
          </Button>
        }
      >
        <p>{error}</p>
      </FullPageMessage>
    );
  }

  return (
    <div className="shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // Hash links are routes here, so move focus by hand instead of navigating.
          event.preventDefault();
          mainRef.current?.focus();
        }}
      >
        Skip to content
      </a>
      <Sidebar current={route} onShowShortcuts={() => setShowShortcuts(true)} />
      <main
        className="main"
        id="main"
        ref={mainRef}
        tabIndex={-1}
        aria-busy={phase === 'loading' || undefined}
      >
        <ConnectionBanner />
        {phase === 'loading' ? (
          <div className="loading" role="status">
            Loading…
          </div>
        ) : (
          <Page route={route} />
        )}
      </main>
      <Toasts />
      <LiveAnnouncer />
      <ShortcutsDialog open={showShortcuts} onClose={() => setShowShortcuts(false)} />
    </div>
  );
}
