import type { Category } from '@pollscope/contract';
import { NavLink } from 'react-router';
import { paths } from '../../../config/paths';

/** The feed, what is trending and every category, one tap away; scrolls sideways on narrow screens. */
export function CategoryBar({ categories }: { categories: Category[] }) {
  return (
    <nav className="category-bar" aria-label="Categories">
      <NavLink to={paths.home.getHref()} end className="category-chip">
        For you
      </NavLink>
      <NavLink to={paths.trending.getHref()} className="category-chip">
        Trending
      </NavLink>
      {categories.map((category) => (
        <NavLink key={category.id} to={paths.category.getHref(category.id)} className="category-chip">
          {category.name}
        </NavLink>
      ))}
    </nav>
  );
}
