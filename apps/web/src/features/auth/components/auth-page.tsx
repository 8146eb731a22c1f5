import type { ReactNode } from 'react';
import './auth.css';

interface AuthPageProps {
  title: string;
  subtitle: string;
  wide?: boolean;
  children: ReactNode;
}

/** The narrow, centred frame of the screens a visitor sees before signing in. */
export function AuthPage({ title, subtitle, wide = false, children }: AuthPageProps) {
  return (
    <div className={wide ? 'auth-page auth-page--wide' : 'auth-page'}>
      <div className="auth-hero">
        <h1>{title}</h1>
        <p className="muted">{subtitle}</p>
      </div>
      {children}
    </div>
  );
}
