import type { ReactNode, RefObject } from 'react';
import { useEffect, useId, useRef } from 'react';
import { CloseIcon } from './icons.tsx';

export interface DialogProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** Receives focus when the dialog opens; defaults to the first focusable control. */
  initialFocus?: RefObject<HTMLElement | null>;
  role?: 'dialog' | 'alertdialog';
  width?: 'sm' | 'md';
}

/**
 * A modal built on <dialog>.showModal(): the browser makes the rest of the page inert, traps focus and
 * turns Escape into a cancel event (which we route to onClose). Focus moves in (initialFocus, else the
 * first `[data-autofocus]` or control) and returns to where it was when the dialog closes.
 * Convention: the button that opens a dialog carries aria-haspopup="dialog" — screen readers say
 * so, and the accessibility e2e spec (e2e/a11y.spec.ts) finds every dialog of every page by it.
 */
export function Dialog({
  open,
  title,
  description,
  onClose,
  children,
  initialFocus,
  role = 'dialog',
  width = 'md',
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const target =
      initialFocus?.current ??
      dialog.querySelector<HTMLElement>(
        '[data-autofocus], input:not([disabled]), select, textarea, button:not([disabled]):not(.dialog-close)',
      );
    target?.focus();
    const onCancel = (event: Event) => {
      event.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      if (returnFocus?.isConnected) returnFocus.focus();
    };
  }, [open, initialFocus]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${width}`}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
    >
      <header className="dialog-header">
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <button
          type="button"
          className="icon-btn dialog-close"
          aria-label="Close"
          onClick={() => onCloseRef.current()}
        >
          <CloseIcon />
        </button>
      </header>
      {description ? (
        <div id={descriptionId} className="dialog-description">
          {description}
        </div>
      ) : null}
      {children}
    </dialog>
  );
}
