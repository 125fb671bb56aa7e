import { CheckIcon, CloseIcon, ErrorIcon, InfoIcon } from './icons.tsx';
import { useToasts } from './toastStore.ts';

/** The toast region: a polite live region so screen readers announce confirmations. */
export function Toasts() {
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);
  return (
    <div className="toasts" role="status" aria-live="polite" aria-label="Notifications">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`}>
          <span className="toast-icon">
            {t.tone === 'success' ? <CheckIcon /> : t.tone === 'error' ? <ErrorIcon /> : <InfoIcon />}
          </span>
          <span className="toast-message">{t.message}</span>
          <button
            type="button"
            className="icon-btn"
            aria-label="Dismiss notification"
            onClick={() => dismiss(t.id)}
          >
            <CloseIcon size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
