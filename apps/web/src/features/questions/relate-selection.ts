import { useSyncExternalStore } from 'react';

/** Relate compares exactly two questions. */
export const RELATE_SELECTION_SIZE = 2;

let selection: readonly number[] = [];
const listeners = new Set<() => void>();

function update(next: readonly number[]) {
  selection = next;
  listeners.forEach((listener) => listener());
}

/** Selects or deselects a question; a further question once two are chosen is ignored. */
export function toggleRelateSelection(id: number): readonly number[] {
  if (selection.includes(id)) update(selection.filter((selected) => selected !== id));
  else if (selection.length < RELATE_SELECTION_SIZE) update([...selection, id]);
  return selection;
}

export function clearRelateSelection(): void {
  if (selection.length > 0) update([]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRelateSelection(): readonly number[] {
  const current = () => selection;
  return useSyncExternalStore(subscribe, current, current);
}
