import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
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

/** Moves the focus for an arrow, Home or End key among the menu's items; false for any other key. */
function moveAmongItems(event: KeyboardEvent, items: (HTMLButtonElement | null)[]): boolean {
  const buttons = items.filter((button): button is HTMLButtonElement => button !== null);
  const current = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const target = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (target === undefined) return false;
  buttons[(target + buttons.length) % buttons.length]?.focus();
  return true;
}

interface MenuListProps {
  id: string;
  label: string;
  items: MenuItem[];
  itemRefs: RefObject<(HTMLButtonElement | null)[]>;
  onKeyDown: (event: KeyboardEvent) => void;
  onChoose: (item: MenuItem) => void;
}

/** The open menu: one item per action, reached with the arrows rather than Tab. */
function MenuList({ id, label, items, itemRefs, onKeyDown, onChoose }: MenuListProps) {
  return (
    <ul className="menu__list" role="menu" id={id} aria-label={label} onKeyDown={onKeyDown}>
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
            onClick={() => onChoose(item)}
          >
            {item.icon}
            {item.label}
          </button>
        </li>
      ))}
    </ul>
  );
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
    if (event.key === 'Escape') close();
    else if (event.key === 'Tab') setOpen(false);
    else if (!moveAmongItems(event, itemRefs.current)) return;
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
        <MenuList
          id={`${id}-menu`}
          label={label}
          items={items}
          itemRefs={itemRefs}
          onKeyDown={onMenuKeyDown}
          onChoose={choose}
        />
      )}
    </div>
  );
}
