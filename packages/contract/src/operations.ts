import { z } from 'zod';
import {
  accountExportSchema,
  deleteAccountBodySchema,
  passwordResetAnswerSchema,
  passwordResetBodySchema,
  passwordResetConfirmBodySchema,
} from './account-life.js';
import { healthSchema, pageQuerySchema, readySchema } from './common.js';
import { peopleQuerySchema, peopleSchema, searchQuerySchema, suggestionsSchema, trendingSchema } from './discovery.js';
import {
  breakdownFilterBodySchema,
  breakdownInfoSchema,
  breakdownResultSchema,
  relateBodySchema,
  relateCsvQuerySchema,
  relatedListSchema,
  relatePairSchema,
  relateResultSchema,
} from './insights.js';
import { oembedQuerySchema, oembedResponseSchema } from './embed.js';
import { liveResultSchema } from './live.js';
import {
  moderationActionBodySchema,
  moderationLogEntrySchema,
  moderationLogPageSchema,
  moderationLogQuerySchema,
  moderationOpenCountSchema,
  moderationReportPageSchema,
  moderationReportsQuerySchema,
  myReportPageSchema,
  myReportsQuerySchema,
  reportBodySchema,
  reportCreatedSchema,
  roleBodySchema,
  roleSetSchema,
} from './moderation.js';
import { notificationPageSchema, notificationsReadBodySchema, unreadSchema } from './notifications.js';
import { pushKeySchema, pushSubscriptionBodySchema, pushUnsubscribeBodySchema } from './push.js';
import {
  answerBodySchema,
  createQuestionBodySchema,
  createQuestionResponseSchema,
  feedSchema,
  likedSchema,
  passedSchema,
  questionPageSchema,
  questionSchema,
} from './questions.js';
import { categoryListSchema, countryListSchema, quizListSchema, siteStatsSchema } from './reference.js';
import { blockedSchema, connectedSchema, connectionListSchema, statsSchema, userStatsSchema } from './social.js';
import {
  accountSchema,
  accountUpdateBodySchema,
  emailConfirmAnswerSchema,
  emailConfirmBodySchema,
  loginBodySchema,
  registerBodySchema,
  settingsSchema,
  settingsUpdateBodySchema,
  tokenResponseSchema,
} from './users.js';

/** How the API documentation names one call: a stable name for generated clients, and a line for people. */
export interface Operation {
  operationId: string;
  summary: string;
}

/** A call's shapes: its query and body when it takes them, and the body of its success answer. */
export interface ApiRoute extends Operation {
  query?: z.ZodType;
  body?: z.ZodType;
  /** The schema of the answer's JSON, or the media type of the file it sends. */
  response: z.ZodType | 'text/csv' | 'text/html' | 'image/png' | 'image/svg+xml';
}

/** The answer of a call that sends no content (204), or says only that it was done (201). */
const noContent = z.null();

/**
 * Every call of the API, keyed `METHOD path` with the path as the server's route declares it
 * (`:name` for a parameter), with its shapes: the web app's client and its test stubs take the
 * types and checks of a call from here. The server copies each entry's operationId and summary
 * into its route's OpenAPI operation and refuses to start when a call under /api has none, or
 * an entry has no call (apps/server/src/plugins/app/operations.ts).
 */
export const apiRoutes = {
  'GET /api/health': { operationId: 'getHealth', summary: 'Whether the server is up', response: healthSchema },
  'GET /api/ready': {
    operationId: 'getReady',
    summary: 'Whether this instance can serve: its database and Redis answer',
    response: readySchema,
  },

  'GET /api/polls/countries/': {
    operationId: 'listCountries',
    summary: 'Countries people can live in',
    response: countryListSchema,
  },
  'GET /api/polls/categories/': {
    operationId: 'listCategories',
    summary: 'Question categories',
    response: categoryListSchema,
  },
  'GET /api/polls/quizes/': {
    operationId: 'listQuizQuestions',
    summary: 'The quiz a visitor takes before signing up',
    response: quizListSchema,
  },

  'POST /api/auth/register/': {
    operationId: 'register',
    summary: 'Sign up, with the quiz answers as first votes',
    body: registerBodySchema,
    response: tokenResponseSchema,
  },
  'POST /api/login/': {
    operationId: 'logIn',
    summary: 'Sign in and get a token',
    body: loginBodySchema,
    response: tokenResponseSchema,
  },
  'POST /api/auth/logout/': { operationId: 'logOut', summary: 'Sign out of this session', response: noContent },
  'GET /api/auth/settings/': {
    operationId: 'getSettings',
    summary: 'Your email and notification setting',
    response: settingsSchema,
  },
  'POST /api/auth/settings/': {
    operationId: 'updateSettings',
    summary: 'Change your notification setting, your password, or ask for a new email (mailed a link to confirm it)',
    body: settingsUpdateBodySchema,
    response: settingsSchema,
  },
  'POST /api/auth/email/confirm/': {
    operationId: 'confirmEmail',
    summary: 'Make a new email yours, with the token of the link mailed to it',
    body: emailConfirmBodySchema,
    response: emailConfirmAnswerSchema,
  },
  'GET /api/auth/account/': { operationId: 'getAccount', summary: 'Your personal info', response: accountSchema },
  'POST /api/auth/account/': {
    operationId: 'updateAccount',
    summary: 'Change your personal info',
    body: accountUpdateBodySchema,
    response: accountSchema,
  },

  'GET /api/polls/questions/': {
    operationId: 'getFeed',
    summary: 'Questions from the people you follow, and the question of the day',
    query: pageQuerySchema,
    response: feedSchema,
  },
  'GET /api/polls/category/:category/': {
    operationId: 'listCategoryQuestions',
    summary: 'Questions in a category',
    query: pageQuerySchema,
    response: questionPageSchema,
  },
  'GET /api/polls/tag/:tag/': {
    operationId: 'listTagQuestions',
    summary: 'Questions with a tag',
    query: pageQuerySchema,
    response: questionPageSchema,
  },
  'GET /api/polls/question/:id/': { operationId: 'getQuestion', summary: 'One question', response: questionSchema },
  'POST /api/polls/create/': {
    operationId: 'createQuestion',
    summary: 'Ask a question',
    body: createQuestionBodySchema,
    response: createQuestionResponseSchema,
  },
  'POST /api/polls/answer/:id/': {
    operationId: 'answerQuestion',
    summary: 'Answer a question and see its result',
    body: answerBodySchema,
    response: questionSchema,
  },
  'POST /api/polls/like/:id/': { operationId: 'likeQuestion', summary: 'Like a question', response: likedSchema },
  'POST /api/polls/unlike/:id/': { operationId: 'unlikeQuestion', summary: 'Take back a like', response: likedSchema },
  'POST /api/polls/pass/:id/': {
    operationId: 'passQuestion',
    summary: 'Hide a question from your lists',
    response: passedSchema,
  },
  'POST /api/polls/unpass/:id/': {
    operationId: 'unpassQuestion',
    summary: 'Show a hidden question again',
    response: passedSchema,
  },
  'GET /api/polls/user/questions/': {
    operationId: 'listMyQuestions',
    summary: 'Questions you asked',
    query: pageQuerySchema,
    response: questionPageSchema,
  },
  'GET /api/polls/user/answered/': {
    operationId: 'listMyAnswered',
    summary: 'Questions you answered',
    query: pageQuerySchema,
    response: questionPageSchema,
  },
  'GET /api/polls/user/liked/': {
    operationId: 'listMyLiked',
    summary: 'Questions you liked',
    query: pageQuerySchema,
    response: questionPageSchema,
  },
  'GET /api/polls/user/:user/questions/': {
    operationId: 'listUserQuestions',
    summary: 'Questions someone asked',
    query: pageQuerySchema,
    response: questionPageSchema,
  },
  'GET /api/polls/user/:user/answered/': {
    operationId: 'listUserAnswered',
    summary: 'Questions someone answered',
    query: pageQuerySchema,
    response: questionPageSchema,
  },
  'GET /api/polls/user/:user/liked/': {
    operationId: 'listUserLiked',
    summary: 'Questions someone liked',
    query: pageQuerySchema,
    response: questionPageSchema,
  },
  'GET /api/polls/live/:id/': {
    operationId: 'getLiveResult',
    summary: 'A question’s result as votes and likes arrive',
    response: liveResultSchema,
  },

  'GET /api/polls/stats/': {
    operationId: 'getMyStats',
    summary: 'How many questions you asked, answered and liked',
    response: statsSchema,
  },
  'GET /api/polls/stats/:user/': {
    operationId: 'getUserStats',
    summary: 'Someone’s profile and counts',
    response: userStatsSchema,
  },
  'GET /api/auth/connections/': {
    operationId: 'listConnections',
    summary: 'The people you follow',
    response: connectionListSchema,
  },
  'POST /api/auth/follow/:user/': { operationId: 'follow', summary: 'Follow someone', response: connectedSchema },
  'POST /api/auth/unfollow/:user/': {
    operationId: 'unfollow',
    summary: 'Stop following someone',
    response: connectedSchema,
  },
  'POST /api/auth/ban/:user/': { operationId: 'block', summary: 'Block someone', response: blockedSchema },
  'POST /api/auth/unban/:user/': { operationId: 'unblock', summary: 'Unblock someone', response: blockedSchema },

  'GET /api/notifications/': {
    operationId: 'listNotifications',
    summary: 'Your notifications, newest first, and how many are unread',
    query: pageQuerySchema.pick({ cursor: true }),
    response: notificationPageSchema,
  },
  'POST /api/notifications/read/': {
    operationId: 'markNotificationsRead',
    summary: 'Mark some or all of your notifications read',
    body: notificationsReadBodySchema,
    response: unreadSchema,
  },
  'GET /api/notifications/live/': {
    operationId: 'getUnreadCount',
    summary: 'Your unread count as it changes',
    response: unreadSchema,
  },
  'GET /api/unsubscribe/': {
    operationId: 'showUnsubscribe',
    summary: 'The page of a notification mail’s unsubscribe link, with a button',
    response: 'text/html',
  },
  'POST /api/unsubscribe/': {
    operationId: 'unsubscribe',
    summary: 'Turn notification mail off from its link, without signing in',
    response: 'text/html',
  },
  'GET /api/push/key/': {
    operationId: 'getPushKey',
    summary: 'The public VAPID key to subscribe to push with',
    response: pushKeySchema,
  },
  'POST /api/push/subscriptions/': {
    operationId: 'subscribeToPush',
    summary: 'Push your notifications to this device (its PushSubscription)',
    body: pushSubscriptionBodySchema,
    response: noContent,
  },
  'DELETE /api/push/subscriptions/': {
    operationId: 'unsubscribeFromPush',
    summary: 'Stop pushing your notifications to this device',
    body: pushUnsubscribeBodySchema,
    response: noContent,
  },

  'GET /api/polls/search/': {
    operationId: 'searchQuestions',
    summary: 'Questions whose title, tags or choices hold the words searched, best match first',
    query: searchQuerySchema,
    response: questionPageSchema,
  },
  'GET /api/polls/trending/': {
    operationId: 'listTrendingQuestions',
    summary: 'The questions answered most in the last 24 hours',
    response: trendingSchema,
  },
  'GET /api/auth/people/': {
    operationId: 'searchPeople',
    summary: 'People whose first name starts with the words searched',
    query: peopleQuerySchema,
    response: peopleSchema,
  },
  'GET /api/auth/suggestions/': {
    operationId: 'listSuggestions',
    summary: 'People you may want to follow, each with the reason',
    response: suggestionsSchema,
  },

  'GET /api/polls/breakdown/:id/': {
    operationId: 'getBreakdown',
    summary: 'A question and the filters its breakdown offers',
    response: breakdownInfoSchema,
  },
  'POST /api/polls/breakdown/:id/': {
    operationId: 'filterBreakdown',
    summary: 'A question’s result among voters of one gender, age range or country',
    body: breakdownFilterBodySchema,
    response: breakdownResultSchema,
  },
  'GET /api/polls/breakdown/:id/csv': {
    operationId: 'downloadBreakdown',
    summary: 'Download a breakdown as CSV',
    query: breakdownFilterBodySchema,
    response: 'text/csv',
  },
  'GET /api/polls/relate/:a/:b/': {
    operationId: 'getRelate',
    summary: 'Two questions and how their answers go together',
    response: relatePairSchema,
  },
  'POST /api/polls/relate/:a/:b/': {
    operationId: 'filterRelate',
    summary: 'The first question’s result among voters of one choice of the second',
    body: relateBodySchema,
    response: relateResultSchema,
  },
  'GET /api/polls/relate/:a/:b/csv': {
    operationId: 'downloadRelate',
    summary: 'Download a relate table as CSV',
    query: relateCsvQuerySchema,
    response: 'text/csv',
  },
  'GET /api/polls/related/:id/': {
    operationId: 'listRelatedQuestions',
    summary: 'Questions whose answers go with this one’s',
    response: relatedListSchema,
  },

  'POST /api/auth/password-reset/': {
    operationId: 'requestPasswordReset',
    summary: 'Mail a link to choose a new password, if an account has this address',
    body: passwordResetBodySchema,
    response: passwordResetAnswerSchema,
  },
  'POST /api/auth/password-reset/confirm/': {
    operationId: 'resetPassword',
    summary: 'Choose a new password with a mailed link, and sign in',
    body: passwordResetConfirmBodySchema,
    response: tokenResponseSchema,
  },
  'GET /api/auth/export/': {
    operationId: 'exportAccount',
    summary: 'Download everything stored about you, as JSON',
    response: accountExportSchema,
  },
  'POST /api/auth/delete/': {
    operationId: 'deleteAccount',
    summary: 'Delete your account and everything of yours',
    body: deleteAccountBodySchema,
    response: noContent,
  },

  'POST /api/reports/': {
    operationId: 'report',
    summary: 'Report a question or a person to the moderators',
    body: reportBodySchema,
    response: reportCreatedSchema,
  },
  'GET /api/reports/': {
    operationId: 'listMyReports',
    summary: 'Your reports, and what came of each',
    query: myReportsQuerySchema,
    response: myReportPageSchema,
  },
  'GET /api/moderation/reports/': {
    operationId: 'listReportedTargets',
    summary: 'Reported questions and people, most reported first (moderators)',
    query: moderationReportsQuerySchema,
    response: moderationReportPageSchema,
  },
  'GET /api/moderation/open/': {
    operationId: 'countOpenReports',
    summary: 'How many reported targets wait for a decision (moderators)',
    response: moderationOpenCountSchema,
  },
  'POST /api/moderation/actions/': {
    operationId: 'moderate',
    summary: 'Dismiss, remove, restore, suspend, unsuspend or warn (moderators)',
    body: moderationActionBodySchema,
    response: moderationLogEntrySchema,
  },
  'POST /api/moderation/roles/': {
    operationId: 'setRole',
    summary: 'Make a person a moderator or a member again (admins)',
    body: roleBodySchema,
    response: roleSetSchema,
  },
  'GET /api/moderation/log/': {
    operationId: 'listModerationLog',
    summary: 'Every moderator action, newest first (moderators)',
    query: moderationLogQuerySchema,
    response: moderationLogPageSchema,
  },

  'GET /api/polls/site-stats/': {
    operationId: 'getSiteStats',
    summary: 'How many people, questions, answers and likes the site has',
    response: siteStatsSchema,
  },
  'GET /api/polls/site-stats/chart.svg': {
    operationId: 'getAnswersChart',
    summary: 'Chart of the answers given per day over the last 30 days',
    response: 'image/svg+xml',
  },

  'GET /api/polls/question/:id/card.png': {
    operationId: 'getQuestionCard',
    summary: 'A question’s picture for link previews, without its result (1200×630 PNG)',
    response: 'image/png',
  },
  'GET /api/oembed': {
    operationId: 'getOembed',
    summary: 'oEmbed for a question’s page: the frame of its embed',
    query: oembedQuerySchema,
    response: oembedResponseSchema,
  },
} as const satisfies Record<string, ApiRoute>;

/** Each call's operationId and summary, for the API documentation. */
export const operations: Record<string, Operation> = Object.fromEntries(
  Object.entries(apiRoutes).map(([call, { operationId, summary }]) => [call, { operationId, summary }]),
);

export type ApiRoutes = typeof apiRoutes;
export type ApiCall = keyof ApiRoutes;
export type ApiMethod = ApiCall extends `${infer Method} ${string}` ? Method : never;
/** The path patterns of the calls made with `method`. */
export type ApiPathOf<Method extends ApiMethod> = ApiCall extends infer Call
  ? Call extends `${Method} ${infer Path}`
    ? Path
    : never
  : never;

/** The parameters a path pattern names (`:id`), each a number or a string. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [Key in Name]: number | string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [Key in Name]: number | string }
    : Record<never, never>;

type RouteField<Call extends ApiCall, Field extends string> = ApiRoutes[Call] extends {
  [Key in Field]: infer Schema extends z.ZodType;
}
  ? Schema
  : never;

/** The body of a call's success answer, as the app reads it. */
export type ApiResponse<Call extends ApiCall> = z.output<RouteField<Call, 'response'>>;
/** The body of a call's success answer, as a test may write it (defaults left out). */
export type ApiResponseInput<Call extends ApiCall> = z.input<RouteField<Call, 'response'>>;
/** What a call takes as its body; never for a call without one. */
export type ApiBody<Call extends ApiCall> = z.input<RouteField<Call, 'body'>>;
/** What a call takes as its query; never for a call without one. */
export type ApiQuery<Call extends ApiCall> = z.input<RouteField<Call, 'query'>>;
