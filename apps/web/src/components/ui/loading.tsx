import { createContext, useContext } from 'react';

/**
 * "Loading…" in the language on screen, given by the app's frame (app/root.tsx) once its catalog is
 * here. This module is part of the entry chunk (build/chunk-groups.ts), which carries no react-intl: the
 * words come in through this context rather than from react-intl here.
 */
export const LoadingLabel = createContext<string | null>(null);

/**
 * A spinner and what is loading: `label`, else the frame's "Loading…". Before the language's catalog
 * has arrived (the router's and the frame's fallbacks) there are no words to say it with yet, and the
 * spinner shows alone in a live region that says it is busy.
 */
export function Loading({ label }: { label?: string }) {
  const frameLabel = useContext(LoadingLabel);
  const text = label ?? frameLabel;
  return (
    <div className="loading" role="status" aria-busy={text === null || undefined}>
      <span className="spinner" aria-hidden="true" />
      {text !== null && <span>{text}</span>}
    </div>
  );
}
