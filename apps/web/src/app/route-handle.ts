import { createContext, use } from 'react';
import type { ModerationTab } from '../features/moderation/components/moderation-view';
import type { UserListKind } from '../features/questions/api/get-user-questions';

/** Which list of questions the routes sharing a list screen show. */
export interface ListHandle {
  list: UserListKind;
}

/** The static pages of the info screen. */
export type InfoPageName = 'contact' | 'privacy';

/** Which static page the routes sharing the info screen show. */
export interface InfoPageHandle {
  page: InfoPageName;
}

/** Which tab of the search screen a route shows: the questions found, or the people. */
export interface SearchHandle {
  tab: 'questions' | 'people';
}

/** Which part of the moderation screen a route shows. */
export interface ModerationHandle {
  tab: ModerationTab;
}

/** What a route tells the screen it shows (app/router.tsx). */
export type RouteHandle = ListHandle | InfoPageHandle | SearchHandle | ModerationHandle;

/** Given by the router around each screen. */
export const RouteHandleContext = createContext<RouteHandle | undefined>(undefined);

/** The handle of the route on screen: what a screen module shared by several routes is to show there. */
export function useRouteHandle<Handle extends RouteHandle>(): Handle {
  return use(RouteHandleContext) as Handle;
}

/** What a screen that sends the person to log in tells the log-in screen. */
export interface LoginState {
  /** Their account was just deleted. */
  accountDeleted?: boolean;
}
