/**
 * Marks `promise` as React marks a promise it has seen settle, so that `use` returns its value at
 * once when it is here: a screen whose code or catalog arrived before it renders shows in that
 * render, without suspending. Its callers keep one promise per thing loaded, so that `use` is
 * given the same one at every render.
 */
export function trackedForUse<T>(promise: Promise<T>): Promise<T> {
  promise.then(
    (value) => Object.assign(promise, { status: 'fulfilled', value }),
    () => undefined,
  );
  return promise;
}
