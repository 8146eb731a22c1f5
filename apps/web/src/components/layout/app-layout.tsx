import { Suspense, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { useSignedIn } from '../../hooks/use-signed-in';
import { useNavigationPending } from '../../lib/navigation';
import type { MessageId } from '../../i18n/i18n-provider';
import { ErrorBoundary } from '../ui/error-boundary';
import { BookIcon, ChartIcon, MailIcon, PlusIcon, SearchIcon, SettingsIcon, ShieldIcon, UserIcon } from '../ui/icons';
import { Loading } from '../ui/loading';
import { HeaderSearch } from './header-search';
import { LanguageSwitcher } from './language-switcher';
import { UpdateToast } from './update-toast';

function Logo() {
  const intl = useIntl();
  return (
    <Link to={paths.home.getHref()} className="logo" aria-label={intl.formatMessage({ id: 'header.home' })}>
      <span className="logo__mark">
        <SearchIcon />
      </span>
      <span className="logo__name">POLLSCOPE</span>
    </Link>
  );
}

function Header({ actions }: { actions?: ReactNode }) {
  const signedIn = useSignedIn();
  const intl = useIntl();
  const settings = intl.formatMessage({ id: 'header.settings' });
  const myAccount = intl.formatMessage({ id: 'header.myAccount' });
  return (
    <header className={signedIn ? 'app-header' : 'app-header app-header--centred'}>
      <div className="app-header__inner">
        <Logo />
        {signedIn && <HeaderSearch />}
        {signedIn && (
          <nav className="app-header__actions" aria-label={intl.formatMessage({ id: 'header.account' })}>
            {actions}
            <NavLink to={paths.settings.getHref()} className="icon-link" aria-label={settings} title={settings}>
              <SettingsIcon />
            </NavLink>
            <NavLink to={paths.myAccount.getHref()} className="icon-link" aria-label={myAccount} title={myAccount}>
              <UserIcon />
            </NavLink>
          </nav>
        )}
      </div>
    </header>
  );
}

const footerLinks: { to: string; label: MessageId; icon: typeof MailIcon; highlighted?: boolean }[] = [
  { to: paths.contact.getHref(), label: 'footer.contact', icon: MailIcon },
  { to: paths.rules.getHref(), label: 'footer.rules', icon: BookIcon },
  { to: paths.create.getHref(), label: 'footer.ask', icon: PlusIcon, highlighted: true },
  { to: paths.privacy.getHref(), label: 'footer.privacy', icon: ShieldIcon },
  { to: paths.stats.getHref(), label: 'footer.stats', icon: ChartIcon },
];

/** The site's links, a tab bar fixed at the bottom on a phone, and the language switcher after them in the page. */
function Footer() {
  const intl = useIntl();
  return (
    <footer className="app-footer">
      <nav className="app-footer__nav" aria-label={intl.formatMessage({ id: 'footer.site' })}>
        {footerLinks.map(({ to, label, icon: FooterIcon, highlighted }) => (
          <NavLink key={to} to={to} className={highlighted ? 'footer-link footer-link--ask' : 'footer-link'}>
            <span className="footer-link__icon">
              <FooterIcon />
            </span>
            <span className="footer-link__label">
              <FormattedMessage id={label} />
            </span>
          </NavLink>
        ))}
      </nav>
      <div className="app-footer__end">
        <LanguageSwitcher />
      </div>
    </footer>
  );
}

interface AppLayoutProps {
  /**
   * Links of features shown to a signed-in person before Settings and My account: the app places them, as shared code
   * imports no feature.
   */
  headerActions?: ReactNode;
  /** What a screen that failed shows in its place, inside the frame: nothing unless the app says. */
  screenError?: ReactNode;
}

export function AppLayout({ headerActions, screenError }: AppLayoutProps) {
  const pending = useNavigationPending();
  // Going elsewhere gives a screen that failed another try.
  const { pathname } = useLocation();
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        <FormattedMessage id="layout.skipToContent" />
      </a>
      <Header actions={headerActions} />
      <div className={pending ? 'route-progress route-progress--active' : 'route-progress'} aria-hidden="true" />
      <main id="main" className="app-main" tabIndex={-1}>
        <ErrorBoundary fallback={screenError} resetKey={pathname}>
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      <UpdateToast />
    </div>
  );
}
