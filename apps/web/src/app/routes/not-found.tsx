import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { SearchIcon } from '../../components/ui/icons';
import { paths } from '../../config/paths';

export function Component() {
  return (
    <div className="card empty-state not-found">
      <title>Page not found · POLLSCOPE</title>
      <SearchIcon />
      <h1>Page not found!</h1>
      <p>The page you are looking for does not exist or has moved.</p>
      <Link to={paths.home.getHref()} className={buttonClass({ variant: 'primary' })}>
        Go home
      </Link>
    </div>
  );
}
