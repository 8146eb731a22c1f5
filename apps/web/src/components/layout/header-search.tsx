import { useState } from 'react';
import { useIntl } from 'react-intl';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { SearchIcon } from '../ui/icons';
import { SearchField } from '../ui/search-field';

/**
 * Search from every screen: a field in the header on a wide screen, an icon that opens the search
 * screen on a phone. The search screen has a field of its own, so the header shows none there.
 */
export function HeaderSearch() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [query, setQuery] = useState('');
  const intl = useIntl();
  const search = intl.formatMessage({ id: 'header.search' });
  if (pathname.startsWith(paths.search.path)) return null;
  return (
    <>
      <SearchField
        className="header-search"
        label={search}
        placeholder={intl.formatMessage({ id: 'header.searchPlaceholder' })}
        value={query}
        onChange={setQuery}
        onSubmit={(value) => {
          if (!value.trim()) return;
          setQuery('');
          void navigate(paths.search.getHref(value.trim()));
        }}
      />
      <NavLink to={paths.search.getHref()} className="icon-link header-search__link" aria-label={search} title={search}>
        <SearchIcon />
      </NavLink>
    </>
  );
}
