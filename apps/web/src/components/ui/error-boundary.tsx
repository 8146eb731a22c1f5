import { Component, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  /** Shown in place of the children once one of them has thrown. */
  fallback: ReactNode;
  /** A new value gives the children another try: the address, for a screen. */
  resetKey?: unknown;
  children: ReactNode;
}

interface ErrorBoundaryState {
  failed: boolean;
  /** The reset key the failure happened under. */
  failedAt: unknown;
}

/** Shows `fallback` where its children threw while rendering, until `resetKey` changes. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { failed: false, failedAt: undefined };

  static getDerivedStateFromError(): Partial<ErrorBoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    { resetKey }: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): Partial<ErrorBoundaryState> | null {
    if (!state.failed) return { failedAt: resetKey };
    return Object.is(resetKey, state.failedAt) ? null : { failed: false, failedAt: resetKey };
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
