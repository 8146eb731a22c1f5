import { useEffect, useId, useRef, type KeyboardEvent, type MouseEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useIntl } from 'react-intl';
import { CloseIcon } from './icons';
import './dialog.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface DialogProps {
  title: string;
  /** Said under the title, and read with it when the dialog opens. */
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** Where the keyboard goes back to on closing; by default what had it when the dialog opened. */
  returnFocus?: HTMLElement | null;
}

/** Round Tab and Shift+Tab among the panel's own controls. */
function keepTabInside(event: KeyboardEvent, panel: HTMLElement) {
  const focusable = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
  if (focusable.length === 0) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (event.shiftKey && (document.activeElement === first || document.activeElement === panel)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * While the dialog is open: its first control has the focus, the rest of the page is inert and
 * does not scroll; on closing, the keyboard goes back to `returnTo`.
 */
function useModalFocus(
  panelRef: RefObject<HTMLDivElement | null>,
  backdropRef: RefObject<HTMLDivElement | null>,
  returnTo: RefObject<Element | null>,
) {
  useEffect(() => {
    const panel = panelRef.current!;
    const controls = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first =
      panel.querySelector<HTMLElement>('[data-autofocus]') ??
      controls.find((control) => !control.classList.contains('dialog__close')) ??
      panel;
    first.focus();

    // Everything else on the page is out of reach (keyboard, pointer, screen reader) while it is open.
    const others = [...document.body.children].filter(
      (element) => element !== backdropRef.current && !element.hasAttribute('inert'),
    );
    others.forEach((element) => element.setAttribute('inert', ''));
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      others.forEach((element) => element.removeAttribute('inert'));
      document.body.style.overflow = overflow;
      const target = returnTo.current;
      if (target instanceof HTMLElement && target.isConnected) target.focus();
    };
  }, [panelRef, backdropRef, returnTo]);
}

/**
 * A modal dialog, shown while it is rendered: the page behind it is inert, Tab and Shift+Tab go
 * round its own controls, Escape and a click beside it close it, and the keyboard goes back to
 * where it was. Its first control after Close (or the one marked data-autofocus) takes the focus as it opens.
 */
export function Dialog({ title, description, onClose, children, returnFocus }: DialogProps) {
  const id = useId();
  const intl = useIntl();
  const panelRef = useRef<HTMLDivElement>(null);
  const backdropRef = useRef<HTMLDivElement>(null);
  const pressedOnBackdrop = useRef(false);
  // Read when the dialog closes, which may be long after the props it opened with.
  const returnTo = useRef<Element | null>(null);
  if (returnTo.current === null) returnTo.current = returnFocus ?? document.activeElement;

  useModalFocus(panelRef, backdropRef, returnTo);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key === 'Tab') keepTabInside(event, panelRef.current!);
  }

  // A click that both starts and ends beside the panel closes it; a text selection dragged out of a field does not.
  const onBackdropDown = (event: MouseEvent) => (pressedOnBackdrop.current = event.target === event.currentTarget);
  const onBackdropClick = (event: MouseEvent) => {
    if (pressedOnBackdrop.current && event.target === event.currentTarget) onClose();
  };

  return createPortal(
    <div ref={backdropRef} className="dialog-backdrop" onMouseDown={onBackdropDown} onClick={onBackdropClick}>
      <div
        ref={panelRef}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={description ? `${id}-description` : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="dialog__header">
          <h2 id={`${id}-title`}>{title}</h2>
          <button
            type="button"
            className="dialog__close"
            aria-label={intl.formatMessage({ id: 'ui.dialog.close' })}
            onClick={onClose}
          >
            <CloseIcon />
          </button>
        </header>
        {description && (
          <p id={`${id}-description`} className="dialog__description">
            {description}
          </p>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}
