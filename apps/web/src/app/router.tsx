import { api } from '@pollscope/contract';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type Params, type RouteObject } from 'react-router';
import { Loading } from '../components/ui/loading';
import { paths } from '../config/paths';
import { preloadMessages } from '../i18n/catalogs';
import { browserLocale } from '../i18n/locales';
import { isSignedIn } from '../lib/auth-token';
import { destinationIn, withDestination } from '../lib/destination';
import { prefetch } from '../lib/prefetch';
import { feedScreenData } from './first-screen';
import type { InfoPageHandle, ListHandle, ModerationHandle, SearchHandle } from './route-handle';

/** Screens for signed-in people send visitors to log in, and back here after. */
export const requireSignedIn = ({ request }: LoaderFunctionArgs) => {
  if (isSignedIn()) return null;
  const { pathname, search } = new URL(request.url);
  return redirect(
    withDestination(paths.login.getHref(), pathname === paths.home.getHref() ? null : `${pathname}${search}`),
  );
};
/** The quiz, sign-up and log-in screens have nothing for someone already signed in: on to where they were headed. */
export const requireVisitor = ({ request }: LoaderFunctionArgs) =>
  isSignedIn() ? redirect(destinationIn(new URL(request.url).searchParams) ?? paths.home.getHref()) : null;

/**
 * A loader that starts the screen's API requests (the paths its hooks ask for) as soon as its
 * route matches, beside the download of its code, instead of once that code has arrived and
 * rendered. A request of a signed-in screen waits for a token.
 */
function loadingData(pathsOf: (params: Params) => string[], { signedIn = true } = {}) {
  return ({ params }: LoaderFunctionArgs) => {
    if (!signedIn || isSignedIn()) pathsOf(params).forEach(prefetch);
    return null;
  };
}
/**
 * The feed's loader also has its first page put in the data cache as soon as the request started
 * for it answers (by the page's first script, src/early-data.ts, or by this loader), so that the
 * screen shows its cards in its first render rather than asking for them once rendered.
 */
const startFeedData = loadingData(() => feedScreenData);
const loadFeed = (args: LoaderFunctionArgs) => {
  startFeedData(args);
  // The feed's screen imports the same module; a failure is the router's to report when it asks for that screen.
  void import('../features/questions/api/get-feed').then(
    ({ keepStartedFeed }) => keepStartedFeed(),
    () => undefined,
  );
  return null;
};
const id = (params: Params, name: string) => params[name] ?? '';
const myLists = { asked: api.myQuestions, answered: api.myAnswered, liked: api.myLiked };
const userLists = { asked: api.userQuestions, answered: api.userAnswered, liked: api.userLiked };
/**
 * Someone's list: their profile, the list, their asked questions (which tell whether the profile is the viewer's) and
 * the countries (by which the profile names theirs).
 */
const userListData = (list: keyof typeof userLists) =>
  loadingData((params) => [
    api.userStats(id(params, 'userId')),
    userLists[list](id(params, 'userId')),
    api.userQuestions(id(params, 'userId')),
    // Which names the country the profile shows in the reader's language.
    api.countries,
  ]);
const myListData = (list: keyof typeof myLists) => loadingData(() => [api.myStats, myLists[list]]);
/** A tab of the moderation screen: the viewer's role (from their account), the tab's list and the open count. */
const moderationData = (list: string) => loadingData(() => [api.account, list, api.moderationOpenCount]);

/** Screens shown at several addresses, loaded once for all of them. */
const userListScreen = () => import('./routes/user');
const myListScreen = () => import('./routes/my-lists');
const infoScreen = () => import('./routes/info-pages');
const searchScreen = () => import('./routes/search');
const moderationScreen = () => import('./routes/moderation');

/**
 * Every screen, each loaded on its first visit from its module in routes/, which exports it as
 * `Component` (the name React Router's lazy routes take). A screen shown at several addresses
 * learns from its route's handle what to show there. A screen that fails (its code not downloaded,
 * an error while rendering) shows the frame's error screen in its place; a failure of the frame
 * itself shows the same on its own (root.tsx).
 */
export const routes: RouteObject[] = [
  {
    // The language's catalog downloads beside the frame's code rather than after it, and the frame waits for it: the
    // app takes over a page the server rendered without a loading screen between (i18n/i18n-provider.tsx).
    lazy: async () => (await Promise.all([import('./root'), preloadMessages(browserLocale())]))[0],
    hydrateFallbackElement: <Loading />,
    children: [
      {
        // A screen that fails says so inside the frame, in its language: root.tsx, asked for by the frame already.
        lazy: () => import('./root').then(({ ScreenError }) => ({ ErrorBoundary: ScreenError })),
        children: [
          {
            loader: requireVisitor,
            children: [
              {
                path: paths.quiz.path,
                loader: loadingData(() => [api.quizes], { signedIn: false }),
                lazy: () => import('./routes/quiz'),
              },
              {
                path: paths.register.path,
                loader: loadingData(() => [api.countries], { signedIn: false }),
                lazy: () => import('./routes/register'),
              },
              { path: paths.login.path, lazy: () => import('./routes/login') },
              { path: paths.forgotPassword.path, lazy: () => import('./routes/forgot-password') },
            ],
          },
          // Opened from a mail, maybe where someone else is signed in: the new password signs its owner in instead.
          { path: paths.resetPassword.path, lazy: () => import('./routes/reset-password') },
          // Opened from the mail to a new address, signed in or not: the link's token is the proof.
          { path: paths.confirmEmail.path, lazy: () => import('./routes/confirm-email') },
          {
            loader: requireSignedIn,
            children: [
              { path: paths.home.path, loader: loadFeed, lazy: () => import('./routes/home') },
              {
                path: paths.category.path,
                loader: loadingData((params) => [api.category(id(params, 'category')), api.categories]),
                lazy: () => import('./routes/category'),
              },
              {
                path: paths.tag.path,
                loader: loadingData((params) => [api.tag(id(params, 'tag'))]),
                lazy: () => import('./routes/tag'),
              },
              {
                path: paths.question.path,
                loader: loadingData((params) => [api.question(id(params, 'questionId'))]),
                lazy: () => import('./routes/question'),
              },
              {
                path: paths.breakdown.path,
                loader: loadingData((params) => [api.breakdown(id(params, 'questionId')), api.countries]),
                lazy: () => import('./routes/breakdown'),
              },
              {
                path: paths.relate.path,
                loader: loadingData((params) => [api.relate(id(params, 'firstId'), id(params, 'secondId'))]),
                lazy: () => import('./routes/relate'),
              },
              {
                path: paths.settings.path,
                loader: loadingData(() => [api.settings]),
                lazy: () => import('./routes/settings'),
              },
              {
                path: paths.myAccount.path,
                loader: loadingData(() => [api.account, api.myStats, api.countries, api.categories]),
                lazy: () => import('./routes/my-account'),
              },
              {
                path: paths.create.path,
                loader: loadingData(() => [api.categories]),
                lazy: () => import('./routes/create'),
              },
              {
                path: paths.user.path,
                handle: { list: 'asked' } satisfies ListHandle,
                loader: userListData('asked'),
                lazy: userListScreen,
              },
              {
                path: paths.userAnswered.path,
                handle: { list: 'answered' } satisfies ListHandle,
                loader: userListData('answered'),
                lazy: userListScreen,
              },
              {
                path: paths.userLikes.path,
                handle: { list: 'liked' } satisfies ListHandle,
                loader: userListData('liked'),
                lazy: userListScreen,
              },
              {
                path: paths.wall.path,
                handle: { list: 'asked' } satisfies ListHandle,
                loader: myListData('asked'),
                lazy: myListScreen,
              },
              {
                path: paths.answered.path,
                handle: { list: 'answered' } satisfies ListHandle,
                loader: myListData('answered'),
                lazy: myListScreen,
              },
              {
                path: paths.likes.path,
                handle: { list: 'liked' } satisfies ListHandle,
                loader: myListData('liked'),
                lazy: myListScreen,
              },
              {
                path: paths.connections.path,
                loader: loadingData(() => [api.connections]),
                lazy: () => import('./routes/connections'),
              },
              {
                path: paths.notifications.path,
                loader: loadingData(() => [api.notifications]),
                lazy: () => import('./routes/notifications'),
              },
              { path: paths.search.path, handle: { tab: 'questions' } satisfies SearchHandle, lazy: searchScreen },
              { path: paths.searchPeople.path, handle: { tab: 'people' } satisfies SearchHandle, lazy: searchScreen },
              {
                path: paths.trending.path,
                loader: loadingData(() => [api.trending, api.categories]),
                lazy: () => import('./routes/trending'),
              },
              {
                path: paths.moderation.path,
                handle: { tab: 'open' } satisfies ModerationHandle,
                loader: moderationData(`${api.moderationReports}?status=open`),
                lazy: moderationScreen,
              },
              {
                path: paths.moderationClosed.path,
                handle: { tab: 'closed' } satisfies ModerationHandle,
                loader: moderationData(`${api.moderationReports}?status=closed`),
                lazy: moderationScreen,
              },
              {
                path: paths.moderationLog.path,
                handle: { tab: 'log' } satisfies ModerationHandle,
                loader: moderationData(api.moderationLog),
                lazy: moderationScreen,
              },
              {
                path: paths.moderationPeople.path,
                handle: { tab: 'people' } satisfies ModerationHandle,
                lazy: moderationScreen,
              },
              {
                path: paths.myReports.path,
                loader: loadingData(() => [api.reports]),
                lazy: () => import('./routes/my-reports'),
              },
            ],
          },
          { path: paths.contact.path, handle: { page: 'contact' } satisfies InfoPageHandle, lazy: infoScreen },
          { path: paths.rules.path, lazy: () => import('./routes/rules') },
          { path: paths.privacy.path, handle: { page: 'privacy' } satisfies InfoPageHandle, lazy: infoScreen },
          {
            path: paths.stats.path,
            loader: loadingData(() => [api.siteStats], { signedIn: false }),
            lazy: () => import('./routes/stats'),
          },
          { path: '*', lazy: () => import('./routes/not-found') },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
