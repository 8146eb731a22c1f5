import { useEffect, useState, type RefObject } from 'react';

export interface ScrollEdges {
  /** More content lies before the visible part (to the left, or to the right when written right to left). */
  start: boolean;
  /** More content lies after it (to the right, or to the left when written right to left). */
  end: boolean;
}

/** Whether a sideways-scrolling element has more to show on either side, as it scrolls and resizes. */
export function useScrollEdges(ref: RefObject<HTMLElement | null>): ScrollEdges {
  const [edges, setEdges] = useState<ScrollEdges>({ start: false, end: false });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      // A pixel of slack: zoomed pages scroll by fractions. Right to left, the scroll position
      // runs from 0 at the start (the right) to negative values towards the end.
      const scrolled = Math.abs(element.scrollLeft);
      const start = scrolled > 1;
      const end = scrolled + element.clientWidth < element.scrollWidth - 1;
      setEdges((current) => (current.start === start && current.end === end ? current : { start, end }));
    };
    element.addEventListener('scroll', measure, { passive: true });
    // A ResizeObserver measures once as it starts, after the browser's own layout: measuring here
    // would lay the page out once more, before the first paint of the screen.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (resized) resized.observe(element);
    else measure();
    return () => {
      element.removeEventListener('scroll', measure);
      resized?.disconnect();
    };
  }, [ref]);
  return edges;
}
