import { Suspense, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useNavigation } from 'react-router';
import { paths } from '../../config/paths';
import { useSignedIn } from '../../hooks/use-signed-in';
import { BookIcon, ChartIcon, MailIcon, PlusIcon, SearchIcon, SettingsIcon, ShieldIcon, UserIcon } from '../ui/icons';
import { Loading } from '../ui/loading';
import { HeaderSearch } from './header-search';
import { UpdateToast } from './update-toast';

function Logo() {
  return (
    <Link to={paths.home.getHref()} className="logo" aria-label="POLLSCOPE home">
      <span className="logo__mark">
        <SearchIcon />
      </span>
      <span className="logo__name">POLLSCOPE</span>
    </Link>
  );
}

function Header({ actions }: { actions?: ReactNode }) {
  const signedIn = useSignedIn();
  return (
    <header className={signedIn ? 'app-header' : 'app-header app-header--centred'}>
      <div className="app-header__inner">
        <Logo />
        {signedIn && <HeaderSearch />}
        {signedIn && (
          <nav className="app-header__actions" aria-label="Account">
            {actions}
            <NavLink to={paths.settings.getHref()} className="icon-link" aria-label="Settings" title="Settings">
              <SettingsIcon />
            </NavLink>
            <NavLink to={paths.myAccount.getHref()} className="icon-link" aria-label="My account" title="My account">
              <UserIcon />
            </NavLink>
          </nav>
        )}
      </div>
    </header>
  );
}

const footerLinks = [
  { to: paths.contact.getHref(), label: 'Contact', icon: MailIcon },
  { to: paths.rules.getHref(), label: 'Rules', icon: BookIcon },
  { to: paths.create.getHref(), label: 'ASK', icon: PlusIcon, highlighted: true },
  { to: paths.privacy.getHref(), label: 'Privacy', icon: ShieldIcon },
  { to: paths.stats.getHref(), label: 'Stats', icon: ChartIcon },
];

function Footer() {
  return (
    <footer className="app-footer">
      <nav className="app-footer__nav" aria-label="Site">
        {footerLinks.map(({ to, label, icon: FooterIcon, highlighted }) => (
          <NavLink key={to} to={to} className={highlighted ? 'footer-link footer-link--ask' : 'footer-link'}>
            <span className="footer-link__icon">
              <FooterIcon />
            </span>
            <span className="footer-link__label">{label}</span>
          </NavLink>
        ))}
      </nav>
    </footer>
  );
}

interface AppLayoutProps {
  /**
   * Links of features shown to a signed-in person before Settings and My account: the app places them, as shared code
   * imports no feature.
   */
  headerActions?: ReactNode;
}

export function AppLayout({ headerActions }: AppLayoutProps) {
  const navigation = useNavigation();
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header actions={headerActions} />
      <div
        className={navigation.state === 'loading' ? 'route-progress route-progress--active' : 'route-progress'}
        aria-hidden="true"
      />
      <main id="main" className="app-main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <UpdateToast />
    </div>
  );
}
