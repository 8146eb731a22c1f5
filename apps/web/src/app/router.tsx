import { createBrowserRouter, redirect, type DataRouter, type RouteObject } from 'react-router';
import { Loading } from '../components/ui/loading';
import { paths } from '../config/paths';
import { onUnauthorized } from '../lib/api-client';
import { isSignedIn } from '../lib/auth-token';

/** Screens for signed-in people send visitors to log in. */
export const requireSignedIn = () => (isSignedIn() ? null : redirect(paths.login.getHref()));
/** The quiz, sign-up and log-in screens have nothing for someone already signed in. */
export const requireVisitor = () => (isSignedIn() ? redirect(paths.home.getHref()) : null);

/**
 * Every screen, each loaded on first visit. The root has no error element of its own, so an
 * unexpected failure shows the router's default error screen.
 */
export const routes: RouteObject[] = [
  {
    lazy: async () => ({ Component: (await import('./root')).Root }),
    hydrateFallbackElement: <Loading />,
    children: [
      {
        loader: requireVisitor,
        children: [
          { path: paths.quiz.path, lazy: async () => ({ Component: (await import('./routes/quiz')).QuizRoute }) },
          { path: paths.register.path, lazy: async () => ({ Component: (await import('./routes/register')).RegisterRoute }) },
          { path: paths.login.path, lazy: async () => ({ Component: (await import('./routes/login')).LoginRoute }) },
        ],
      },
      {
        loader: requireSignedIn,
        children: [
          { path: paths.home.path, lazy: async () => ({ Component: (await import('./routes/home')).HomeRoute }) },
          { path: paths.category.path, lazy: async () => ({ Component: (await import('./routes/category')).CategoryRoute }) },
          { path: paths.tag.path, lazy: async () => ({ Component: (await import('./routes/tag')).TagRoute }) },
          { path: paths.question.path, lazy: async () => ({ Component: (await import('./routes/question')).QuestionRoute }) },
          { path: paths.breakdown.path, lazy: async () => ({ Component: (await import('./routes/breakdown')).BreakdownRoute }) },
          { path: paths.relate.path, lazy: async () => ({ Component: (await import('./routes/relate')).RelateRoute }) },
          { path: paths.settings.path, lazy: async () => ({ Component: (await import('./routes/settings')).SettingsRoute }) },
          { path: paths.myAccount.path, lazy: async () => ({ Component: (await import('./routes/my-account')).MyAccountRoute }) },
          { path: paths.create.path, lazy: async () => ({ Component: (await import('./routes/create')).CreateRoute }) },
          { path: paths.user.path, lazy: async () => ({ Component: (await import('./routes/user')).UserAskedRoute }) },
          { path: paths.userAnswered.path, lazy: async () => ({ Component: (await import('./routes/user')).UserAnsweredRoute }) },
          { path: paths.userLikes.path, lazy: async () => ({ Component: (await import('./routes/user')).UserLikedRoute }) },
          { path: paths.wall.path, lazy: async () => ({ Component: (await import('./routes/my-lists')).WallRoute }) },
          { path: paths.answered.path, lazy: async () => ({ Component: (await import('./routes/my-lists')).AnsweredRoute }) },
          { path: paths.likes.path, lazy: async () => ({ Component: (await import('./routes/my-lists')).LikesRoute }) },
          { path: paths.connections.path, lazy: async () => ({ Component: (await import('./routes/connections')).ConnectionsRoute }) },
        ],
      },
      { path: paths.contact.path, lazy: async () => ({ Component: (await import('./routes/info-pages')).ContactRoute }) },
      { path: paths.rules.path, lazy: async () => ({ Component: (await import('./routes/info-pages')).RulesRoute }) },
      { path: paths.privacy.path, lazy: async () => ({ Component: (await import('./routes/info-pages')).PrivacyRoute }) },
      { path: paths.stats.path, lazy: async () => ({ Component: (await import('./routes/stats')).StatsRoute }) },
      { path: '*', lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundRoute }) },
    ],
  },
];

/** A 401 or 403 anywhere has already dropped the token; take the person to log in again. */
export function sendToLoginWhenSessionEnds(router: Pick<DataRouter, 'navigate'>): () => void {
  return onUnauthorized(() => void router.navigate(paths.login.getHref(), { replace: true }));
}

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  sendToLoginWhenSessionEnds(router);
  return router;
}
