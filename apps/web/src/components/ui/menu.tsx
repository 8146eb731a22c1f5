import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { MoreIcon } from './icons';
import './menu.css';

export interface MenuItem {
  label: string;
  icon?: ReactNode;
  /** Given the menu's button, where a dialog the item opens returns the keyboard. */
  onSelect: (trigger: HTMLButtonElement) => void;
}

interface MenuProps {
  label: string;
  items: MenuItem[];
  /** The button's icon, with `label` written beside it; without one, the button is the "more" icon alone. */
  icon?: ReactNode;
}

/**
 * A "more actions" button and the menu it opens (the WAI-ARIA menu button): arrows, Home and End
 * move between the items, Enter chooses, Escape and Tab close it, and a click elsewhere closes it.
 */
export function Menu({ label, items, icon }: MenuProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    itemRefs.current[0]?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  function close() {
    setOpen(false);
    triggerRef.current?.focus();
  }

  function onMenuKeyDown(event: KeyboardEvent) {
    const buttons = itemRefs.current.filter((button): button is HTMLButtonElement => button !== null);
    const current = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const moveTo = (index: number) => buttons[(index + buttons.length) % buttons.length]?.focus();
    if (event.key === 'ArrowDown') moveTo(current + 1);
    else if (event.key === 'ArrowUp') moveTo(current - 1);
    else if (event.key === 'Home') moveTo(0);
    else if (event.key === 'End') moveTo(buttons.length - 1);
    else if (event.key === 'Escape') close();
    else if (event.key === 'Tab') setOpen(false);
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  }

  function choose(item: MenuItem) {
    setOpen(false);
    item.onSelect(triggerRef.current!);
  }

  return (
    <div className="menu" ref={rootRef}>
      <button
        ref={triggerRef}
        type="button"
        className={`btn btn--ghost btn--small menu__trigger${icon ? '' : ' menu__trigger--icon'}`}
        aria-label={icon ? undefined : label}
        title={icon ? undefined : label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {icon ? (
          <>
            {icon}
            {label}
          </>
        ) : (
          <MoreIcon />
        )}
      </button>
      {open && (
        <ul className="menu__list" role="menu" id={`${id}-menu`} aria-label={label} onKeyDown={onMenuKeyDown}>
          {items.map((item, index) => (
            <li key={item.label} role="none">
              <button
                ref={(button) => {
                  itemRefs.current[index] = button;
                }}
                type="button"
                role="menuitem"
                tabIndex={-1}
                className="menu__item"
                onClick={() => choose(item)}
              >
                {item.icon}
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
