import { use, type ComponentType } from 'react';
import { trackedForUse } from './tracked-promise';

/** A component whose code loads on first use, and which can be asked to load before it renders. */
export interface LazyComponent<Props extends object> {
  (props: Props): React.ReactNode;
  /** Starts loading the code, once; resolves when it is here. */
  preload: () => Promise<unknown>;
}

/**
 * A component loaded on first use, like React's `lazy`, but which renders at once when its code
 * has already loaded: a screen preloaded before the app's first render (main.tsx) shows in that
 * render, with no loading indicator between the server's rendering and the app's.
 */
export function lazyComponent<Props extends object>(load: () => Promise<ComponentType<Props>>): LazyComponent<Props> {
  let loading: Promise<ComponentType<Props>> | undefined;
  const preload = () =>
    (loading ??= trackedForUse(
      load().catch((error: unknown) => {
        // A failed download (offline, a new version deployed) may succeed when asked again.
        loading = undefined;
        throw error;
      }),
    ));
  function Lazy(props: Props) {
    const Component = use(preload());
    return <Component {...props} />;
  }
  return Object.assign(Lazy, { preload });
}
