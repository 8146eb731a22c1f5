import { useEffect, useState, type RefObject } from 'react';

/** How far outside the viewport an element still counts as on screen, so it is ready when scrolled to. */
const NEAR_VIEWPORT = '200px';

/** Whether the element is on (or near) the screen; always true where the browser cannot tell. */
export function useOnScreen(ref: RefObject<Element | null>): boolean {
  const canTell = typeof IntersectionObserver !== 'undefined';
  const [onScreen, setOnScreen] = useState(!canTell);
  useEffect(() => {
    const element = ref.current;
    if (!element || !canTell) return;
    const observer = new IntersectionObserver(([entry]) => setOnScreen(entry.isIntersecting), {
      rootMargin: NEAR_VIEWPORT,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, canTell]);
  return onScreen;
}
