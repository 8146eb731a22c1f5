import type { Category } from '@pollscope/contract';
import { useRef, type RefObject } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { NavLink } from 'react-router';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { useScrollEdges } from '../../../hooks/use-scroll-edges';
import { useCategoryName } from '../../../lib/question-shape';

/**
 * Where more categories hide past an edge of the bar: a fade, and on a screen with a mouse an
 * arrow that scrolls the bar most of its width. Keyboards reach every chip by tabbing, and touch
 * screens swipe, so the arrow is for pointers only. The start is the left in a language written
 * left to right, the right in one written right to left, where the arrows point the other way.
 */
function BarEdge({ bar, side, more }: { bar: RefObject<HTMLElement | null>; side: 'start' | 'end'; more: boolean }) {
  const scroll = () => {
    const element = bar.current;
    if (!element) return;
    const towardsEnd = getComputedStyle(element).direction === 'rtl' ? -1 : 1;
    element.scrollBy({ left: (side === 'start' ? -0.8 : 0.8) * towardsEnd * element.clientWidth, behavior: 'smooth' });
  };
  return (
    <span className={`category-bar__edge category-bar__edge--${side}`} hidden={!more}>
      <button type="button" className="category-bar__arrow" tabIndex={-1} aria-hidden="true" onClick={scroll}>
        {side === 'start' ? <ChevronLeftIcon /> : <ChevronRightIcon />}
      </button>
    </span>
  );
}

/** The feed, what is trending and every category, one tap away; scrolls sideways when they do not fit. */
export function CategoryBar({ categories }: { categories: Category[] }) {
  const intl = useIntl();
  const categoryName = useCategoryName();
  const bar = useRef<HTMLElement>(null);
  const more = useScrollEdges(bar);
  return (
    <nav ref={bar} className="category-bar" aria-label={intl.formatMessage({ id: 'questions.categoryBar.label' })}>
      <BarEdge bar={bar} side="start" more={more.start} />
      <NavLink to={paths.home.getHref()} end className="category-chip">
        <FormattedMessage id="questions.categoryBar.forYou" />
      </NavLink>
      <NavLink to={paths.trending.getHref()} className="category-chip">
        <FormattedMessage id="questions.categoryBar.trending" />
      </NavLink>
      {categories.map((category) => (
        <NavLink key={category.id} to={paths.category.getHref(category.id)} className="category-chip">
          {categoryName(category)}
        </NavLink>
      ))}
      <BarEdge bar={bar} side="end" more={more.end} />
    </nav>
  );
}
