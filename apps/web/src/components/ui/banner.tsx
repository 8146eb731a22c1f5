import type { ReactNode } from 'react';

interface BannerProps {
  tone: 'success' | 'error' | 'info' | 'warning';
  children: ReactNode;
}

/** A message in the flow of the page; errors interrupt a screen reader, the rest wait their turn. */
export function Banner({ tone, children }: BannerProps) {
  return (
    <div className={`banner banner--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** Holds the place of a timed message so its live region exists before the text arrives. */
export function MessageSlot({ message, tone }: { message: string | null; tone: 'success' | 'error' }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} aria-live={tone === 'error' ? 'assertive' : 'polite'}>
      {message && <div className={`banner banner--${tone}`}>{message}</div>}
    </div>
  );
}
