import { PageHeader } from '../../app/PageHeader.tsx';
import { useApp } from '../../app/appStore.ts';
import { WorkspacesSection } from './WorkspacesSection.tsx';

export function SettingsPage() {
  const info = useApp((s) => s.info);
  return (
    <>
      <PageHeader title="Settings" subtitle="Workspaces, keys and this installation." />
      <div className="page-body settings">
        <WorkspacesSection />
        {info ? (
          <section className="settings-section" aria-labelledby="about-heading">
            <h2 id="about-heading" className="section-title">
              About
            </h2>
            <dl className="about-list">
              <div>
                <dt>Version</dt>
                <dd>{info.version}</dd>
              </div>
              <div>
                <dt>Running in</dt>
                <dd>
                  {info.host === 'electron'
                    ? 'Desktop app (Electron)'
                    : 'Your browser (browser host on this computer)'}
                </dd>
              </div>
              <div>
                <dt>Key storage</dt>
                <dd>
                  {info.keychain.available
                    ? 'OS keychain'
                    : 'This session only (no OS keychain is available)'}
                </dd>
              </div>
            </dl>
          </section>
        ) : null}
      </div>
    </>
  );
}
