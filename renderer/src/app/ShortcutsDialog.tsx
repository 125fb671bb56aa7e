import { Dialog } from '../components/Dialog.tsx';
import { shortcutGroups } from './shortcuts.ts';

/** The keyboard shortcuts, one table per area (opened with "?" or the sidebar's button). */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      {/* Focusable (tabIndex 0) so a keyboard can scroll it once the tables outgrow the dialog. */}
      <div className="dialog-body shortcuts" data-autofocus tabIndex={0}>
        {shortcutGroups.map((group) => (
          <table key={group.title} className="shortcuts-table">
            <caption>{group.title}</caption>
            <thead>
              <tr>
                <th scope="col">Keys</th>
                <th scope="col">What they do</th>
              </tr>
            </thead>
            <tbody>
              {group.shortcuts.map((s) => (
                <tr key={`${s.keys.join('+')}-${s.does}`}>
                  <td>
                    {s.keys.map((alternative, i) => (
                      <span key={alternative}>
                        {i > 0 ? ' or ' : null}
                        {alternative.split('+').map((k, j) => (
                          <span key={k}>
                            {j > 0 ? ' + ' : null}
                            <kbd>{k}</kbd>
                          </span>
                        ))}
                      </span>
                    ))}
                  </td>
                  <td>{s.does}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
    </Dialog>
  );
}
