import { api } from '@pollscope/contract';
import type { ComponentType } from 'react';
import {
  matchPath,
  Navigate,
  Outlet,
  useLocation,
  useRoutes,
  type Location,
  type Params,
  type RouteObject,
} from 'react-router';
import { ErrorBoundary } from '../components/ui/error-boundary';
import { paths } from '../config/paths';
import { preloadFirstMessages, preloadMessages } from '../i18n/catalogs';
import { browserLocale } from '../i18n/locales';
import { isSignedIn } from '../lib/auth-token';
import { destinationIn, withDestination } from '../lib/destination';
import { lazyComponent, type LazyComponent } from '../lib/lazy-component';
import { HistoryRouter, type AppHistory } from '../lib/navigation';
import { prefetch } from '../lib/prefetch';
import { feedScreenData } from './first-screen';
import {
  RouteHandleContext,
  type InfoPageHandle,
  type ListHandle,
  type ModerationHandle,
  type RouteHandle,
  type SearchHandle,
} from './route-handle';

/** Who a screen is for: visitors (sent on once signed in), signed-in people (visitors log in first), or anyone. */
type Audience = 'visitors' | 'members' | 'anyone';

/** A screen at one address. */
interface ScreenRoute {
  path: string;
  audience: Audience;
  screen: LazyComponent<object>;
  /** The API paths its hooks ask for as it opens, started as soon as its address is visited. */
  data?: (params: Params) => string[];
  /** What a screen shown at several addresses is to show at this one. */
  handle?: RouteHandle;
}

type ScreenModule = () => Promise<{ Component: ComponentType }>;

/**
 * A module of routes/, which exports its screen as `Component`, shown with the whole catalog of its
 * language: the rest of it downloads beside the screen's code.
 */
const screen = (load: ScreenModule) =>
  lazyComponent(async () => {
    // The frame's module, with the language's provider, is not one the entry chunk loads itself.
    const [{ Component }, { WholeCatalog }] = await Promise.all([
      load(),
      import('../i18n/i18n-provider'),
      preloadMessages(browserLocale()),
    ]);
    return function WithWholeCatalog() {
      return (
        <WholeCatalog>
          <Component />
        </WholeCatalog>
      );
    };
  });
/** A screen of a first visit (the feed, log-in), whose texts are in the first part of each catalog (build/catalogs.ts). */
const firstScreen = (load: ScreenModule) => lazyComponent(async () => (await load()).Component);

const id = (params: Params, name: string) => params[name] ?? '';
const myLists = { asked: api.myQuestions, answered: api.myAnswered, liked: api.myLiked };
const userLists = { asked: api.userQuestions, answered: api.userAnswered, liked: api.userLiked };
/**
 * Someone's list: their profile, the list, their asked questions (which tell whether the profile is the viewer's) and
 * the countries (by which the profile names theirs in the reader's language).
 */
const userListData = (list: keyof typeof userLists) => (params: Params) => [
  api.userStats(id(params, 'userId')),
  userLists[list](id(params, 'userId')),
  api.userQuestions(id(params, 'userId')),
  api.countries,
];
const myListData = (list: keyof typeof myLists) => () => [api.myStats, myLists[list]];
/** A tab of the moderation screen: the viewer's role (from their account), the tab's list and the open count. */
const moderationData = (list: string) => () => [api.account, list, api.moderationOpenCount];

/** Screens shown at several addresses, loaded once for all of them. */
const userListScreen = screen(() => import('./routes/user'));
const myListScreen = screen(() => import('./routes/my-lists'));
const infoScreen = screen(() => import('./routes/info-pages'));
const searchScreen = screen(() => import('./routes/search'));
const moderationScreen = screen(() => import('./routes/moderation'));

/**
 * Every screen, each loaded on its first visit from its module in routes/. A screen shown at
 * several addresses learns from its route's handle what to show there.
 */
const screenRoutes: ScreenRoute[] = [
  {
    path: paths.quiz.path,
    audience: 'visitors',
    screen: screen(() => import('./routes/quiz')),
    data: () => [api.quizes],
  },
  {
    path: paths.register.path,
    audience: 'visitors',
    screen: screen(() => import('./routes/register')),
    data: () => [api.countries],
  },
  { path: paths.login.path, audience: 'visitors', screen: firstScreen(() => import('./routes/login')) },
  { path: paths.forgotPassword.path, audience: 'visitors', screen: screen(() => import('./routes/forgot-password')) },
  // Opened from a mail, maybe where someone else is signed in: the new password signs its owner in instead.
  { path: paths.resetPassword.path, audience: 'anyone', screen: screen(() => import('./routes/reset-password')) },
  // Opened from the mail to a new address, signed in or not: the link's token is the proof.
  { path: paths.confirmEmail.path, audience: 'anyone', screen: screen(() => import('./routes/confirm-email')) },
  {
    path: paths.home.path,
    audience: 'members',
    screen: firstScreen(() => import('./routes/home')),
    data: () => feedScreenData,
  },
  {
    path: paths.category.path,
    audience: 'members',
    screen: screen(() => import('./routes/category')),
    data: (params) => [api.category(id(params, 'category')), api.categories],
  },
  {
    path: paths.tag.path,
    audience: 'members',
    screen: screen(() => import('./routes/tag')),
    data: (params) => [api.tag(id(params, 'tag'))],
  },
  {
    path: paths.question.path,
    audience: 'members',
    screen: screen(() => import('./routes/question')),
    data: (params) => [api.question(id(params, 'questionId'))],
  },
  {
    path: paths.breakdown.path,
    audience: 'members',
    screen: screen(() => import('./routes/breakdown')),
    data: (params) => [api.breakdown(id(params, 'questionId')), api.countries],
  },
  {
    path: paths.relate.path,
    audience: 'members',
    screen: screen(() => import('./routes/relate')),
    data: (params) => [api.relate(id(params, 'firstId'), id(params, 'secondId'))],
  },
  {
    path: paths.settings.path,
    audience: 'members',
    screen: screen(() => import('./routes/settings')),
    data: () => [api.settings],
  },
  {
    path: paths.myAccount.path,
    audience: 'members',
    screen: screen(() => import('./routes/my-account')),
    data: () => [api.account, api.myStats, api.countries, api.categories],
  },
  {
    path: paths.create.path,
    audience: 'members',
    screen: screen(() => import('./routes/create')),
    data: () => [api.categories],
  },
  {
    path: paths.user.path,
    audience: 'members',
    screen: userListScreen,
    handle: { list: 'asked' } satisfies ListHandle,
    data: userListData('asked'),
  },
  {
    path: paths.userAnswered.path,
    audience: 'members',
    screen: userListScreen,
    handle: { list: 'answered' } satisfies ListHandle,
    data: userListData('answered'),
  },
  {
    path: paths.userLikes.path,
    audience: 'members',
    screen: userListScreen,
    handle: { list: 'liked' } satisfies ListHandle,
    data: userListData('liked'),
  },
  {
    path: paths.wall.path,
    audience: 'members',
    screen: myListScreen,
    handle: { list: 'asked' } satisfies ListHandle,
    data: myListData('asked'),
  },
  {
    path: paths.answered.path,
    audience: 'members',
    screen: myListScreen,
    handle: { list: 'answered' } satisfies ListHandle,
    data: myListData('answered'),
  },
  {
    path: paths.likes.path,
    audience: 'members',
    screen: myListScreen,
    handle: { list: 'liked' } satisfies ListHandle,
    data: myListData('liked'),
  },
  {
    path: paths.connections.path,
    audience: 'members',
    screen: screen(() => import('./routes/connections')),
    data: () => [api.connections],
  },
  {
    path: paths.notifications.path,
    audience: 'members',
    screen: screen(() => import('./routes/notifications')),
    data: () => [api.notifications],
  },
  {
    path: paths.search.path,
    audience: 'members',
    screen: searchScreen,
    handle: { tab: 'questions' } satisfies SearchHandle,
  },
  {
    path: paths.searchPeople.path,
    audience: 'members',
    screen: searchScreen,
    handle: { tab: 'people' } satisfies SearchHandle,
  },
  {
    path: paths.trending.path,
    audience: 'members',
    screen: screen(() => import('./routes/trending')),
    data: () => [api.trending, api.categories],
  },
  {
    path: paths.moderation.path,
    audience: 'members',
    screen: moderationScreen,
    handle: { tab: 'open' } satisfies ModerationHandle,
    data: moderationData(`${api.moderationReports}?status=open`),
  },
  {
    path: paths.moderationClosed.path,
    audience: 'members',
    screen: moderationScreen,
    handle: { tab: 'closed' } satisfies ModerationHandle,
    data: moderationData(`${api.moderationReports}?status=closed`),
  },
  {
    path: paths.moderationLog.path,
    audience: 'members',
    screen: moderationScreen,
    handle: { tab: 'log' } satisfies ModerationHandle,
    data: moderationData(api.moderationLog),
  },
  {
    path: paths.moderationPeople.path,
    audience: 'members',
    screen: moderationScreen,
    handle: { tab: 'people' } satisfies ModerationHandle,
  },
  {
    path: paths.myReports.path,
    audience: 'members',
    screen: screen(() => import('./routes/my-reports')),
    data: () => [api.reports],
  },
  {
    path: paths.contact.path,
    audience: 'anyone',
    screen: infoScreen,
    handle: { page: 'contact' } satisfies InfoPageHandle,
  },
  { path: paths.rules.path, audience: 'anyone', screen: screen(() => import('./routes/rules')) },
  {
    path: paths.privacy.path,
    audience: 'anyone',
    screen: infoScreen,
    handle: { page: 'privacy' } satisfies InfoPageHandle,
  },
  {
    path: paths.stats.path,
    audience: 'anyone',
    screen: screen(() => import('./routes/stats')),
    data: () => [api.siteStats],
  },
];

const notFound: ScreenRoute = { path: '*', audience: 'anyone', screen: screen(() => import('./routes/not-found')) };

/** The route at `pathname`, and its parameters. */
function screenAt(pathname: string): { route: ScreenRoute; params: Params } {
  for (const route of screenRoutes) {
    const match = matchPath(route.path, pathname);
    if (match) return { route, params: match.params };
  }
  return { route: notFound, params: {} };
}

/**
 * Starts what the screen at `location` needs as soon as the app goes there, beside each other
 * rather than one after the other: its code, and the API requests its hooks will make (a
 * signed-in screen's only with a token). The feed's first page is also put in the data cache as
 * soon as it answers, so that its cards show in its first render.
 */
function startScreen({ pathname }: Pick<Location, 'pathname'>): Promise<unknown> {
  const { route, params } = screenAt(pathname);
  if (route.audience !== 'members' || isSignedIn()) route.data?.(params).forEach(prefetch);
  if (route.path === paths.home.path)
    // The feed's screen imports the same module; a failure is the screen's to report when it renders.
    void import('../features/questions/api/get-feed').then(
      ({ keepStartedFeed }) => keepStartedFeed(),
      () => undefined,
    );
  return route.screen.preload();
}

/** Visitors go to log in, and back here after. */
function MembersOnly() {
  const { pathname, search } = useLocation();
  if (isSignedIn()) return <Outlet />;
  const back = pathname === paths.home.getHref() ? null : `${pathname}${search}`;
  return <Navigate to={withDestination(paths.login.getHref(), back)} replace />;
}

/** The quiz, sign-up and log-in screens have nothing for someone already signed in: on to where they were headed. */
function VisitorsOnly() {
  const { search } = useLocation();
  if (!isSignedIn()) return <Outlet />;
  return <Navigate to={destinationIn(new URLSearchParams(search)) ?? paths.home.getHref()} replace />;
}

/** The frame of every screen, loaded beside the first one (root.tsx). */
const loadFrame = () => import('./root');
/**
 * The first part of the language's catalog downloads beside the frame's code rather than after
 * it, and the frame waits for it: the app takes over a page the server rendered without a loading screen between
 * (i18n/i18n-provider.tsx).
 */
const Frame = lazyComponent(
  async () => (await Promise.all([loadFrame(), preloadFirstMessages(browserLocale())]))[0].Component,
);
/** What shows when the frame itself failed: the same words as a screen's failure, on their own. */
const FrameError = lazyComponent(async () => (await loadFrame()).FrameError);

/** The frame's code, its catalog and the screen at `location`: all the app needs to show its first screen at once. */
export function startApp(location: Pick<Location, 'pathname'>): Promise<unknown> {
  return Promise.all([Frame.preload(), FrameError.preload(), startScreen(location)]);
}

const screenElement = ({ path, screen: Screen, handle }: ScreenRoute): RouteObject => ({
  path,
  element: (
    <RouteHandleContext value={handle}>
      <Screen />
    </RouteHandleContext>
  ),
});
const forAudience = (audience: Audience) =>
  screenRoutes.filter((route) => route.audience === audience).map(screenElement);

const routes: RouteObject[] = [
  {
    element: (
      <ErrorBoundary fallback={<FrameError />}>
        <Frame />
      </ErrorBoundary>
    ),
    children: [
      { element: <VisitorsOnly />, children: forAudience('visitors') },
      { element: <MembersOnly />, children: forAudience('members') },
      ...forAudience('anyone'),
      screenElement(notFound),
    ],
  },
];

function AppRoutes() {
  return useRoutes(routes);
}

/** The app's screens inside their frame, at the location of `history`: the browser's, or a test's. */
export function App({ history }: { history: AppHistory }) {
  return (
    <HistoryRouter history={history} onNavigate={startScreen}>
      <AppRoutes />
    </HistoryRouter>
  );
}
