import type { ReactNode } from 'react';
import { InboxIcon } from './icons';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="card empty-state">
      <InboxIcon />
      <p className="empty-state__title">{title}</p>
      {children}
    </div>
  );
}
