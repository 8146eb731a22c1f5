import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { Loading } from '../components/ui/loading';
import { paths } from '../config/paths';
import { isSignedIn } from '../lib/auth-token';
import type { InfoPageHandle, ListHandle } from './route-handle';

/** Screens for signed-in people send visitors to log in. */
export const requireSignedIn = () => (isSignedIn() ? null : redirect(paths.login.getHref()));
/** The quiz, sign-up and log-in screens have nothing for someone already signed in. */
export const requireVisitor = () => (isSignedIn() ? redirect(paths.home.getHref()) : null);

/** Screens shown at several addresses, loaded once for all of them. */
const userListScreen = () => import('./routes/user');
const myListScreen = () => import('./routes/my-lists');
const infoScreen = () => import('./routes/info-pages');

/**
 * Every screen, each loaded on its first visit from its module in routes/, which exports it as
 * `Component` (the name React Router's lazy routes take). A screen shown at several addresses
 * learns from its route's handle what to show there. The root has no error element of its own,
 * so an unexpected failure shows the router's default error screen.
 */
export const routes: RouteObject[] = [
  {
    lazy: () => import('./root'),
    hydrateFallbackElement: <Loading />,
    children: [
      {
        loader: requireVisitor,
        children: [
          { path: paths.quiz.path, lazy: () => import('./routes/quiz') },
          { path: paths.register.path, lazy: () => import('./routes/register') },
          { path: paths.login.path, lazy: () => import('./routes/login') },
          { path: paths.forgotPassword.path, lazy: () => import('./routes/forgot-password') },
        ],
      },
      // Opened from a mail, maybe where someone else is signed in: the new password signs its owner in instead.
      { path: paths.resetPassword.path, lazy: () => import('./routes/reset-password') },
      {
        loader: requireSignedIn,
        children: [
          { path: paths.home.path, lazy: () => import('./routes/home') },
          { path: paths.category.path, lazy: () => import('./routes/category') },
          { path: paths.tag.path, lazy: () => import('./routes/tag') },
          { path: paths.question.path, lazy: () => import('./routes/question') },
          { path: paths.breakdown.path, lazy: () => import('./routes/breakdown') },
          { path: paths.relate.path, lazy: () => import('./routes/relate') },
          { path: paths.settings.path, lazy: () => import('./routes/settings') },
          { path: paths.myAccount.path, lazy: () => import('./routes/my-account') },
          { path: paths.create.path, lazy: () => import('./routes/create') },
          { path: paths.user.path, handle: { list: 'asked' } satisfies ListHandle, lazy: userListScreen },
          { path: paths.userAnswered.path, handle: { list: 'answered' } satisfies ListHandle, lazy: userListScreen },
          { path: paths.userLikes.path, handle: { list: 'liked' } satisfies ListHandle, lazy: userListScreen },
          { path: paths.wall.path, handle: { list: 'asked' } satisfies ListHandle, lazy: myListScreen },
          { path: paths.answered.path, handle: { list: 'answered' } satisfies ListHandle, lazy: myListScreen },
          { path: paths.likes.path, handle: { list: 'liked' } satisfies ListHandle, lazy: myListScreen },
          { path: paths.connections.path, lazy: () => import('./routes/connections') },
          { path: paths.notifications.path, lazy: () => import('./routes/notifications') },
        ],
      },
      { path: paths.contact.path, handle: { page: 'contact' } satisfies InfoPageHandle, lazy: infoScreen },
      { path: paths.rules.path, handle: { page: 'rules' } satisfies InfoPageHandle, lazy: infoScreen },
      { path: paths.privacy.path, handle: { page: 'privacy' } satisfies InfoPageHandle, lazy: infoScreen },
      { path: paths.stats.path, lazy: () => import('./routes/stats') },
      { path: '*', lazy: () => import('./routes/not-found') },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
