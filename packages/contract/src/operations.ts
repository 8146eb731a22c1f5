/** How the API documentation names one call: a stable name for generated clients, and a line for people. */
export interface Operation {
  operationId: string;
  summary: string;
}

/**
 * Every call of the API, keyed `METHOD path` with the path as the server's route declares it
 * (`:name` for a parameter). The server copies each entry into its route's OpenAPI operation and
 * refuses to start when a call under /api has none (apps/server/src/plugins/app/operations.ts).
 */
export const operations: Record<string, Operation> = {
  'GET /api/health': { operationId: 'getHealth', summary: 'Whether the server is up' },
  'GET /api/ready': { operationId: 'getReady', summary: 'Whether this instance can serve: its database and Redis answer' },

  'GET /api/polls/countries/': { operationId: 'listCountries', summary: 'Countries people can live in' },
  'GET /api/polls/categories/': { operationId: 'listCategories', summary: 'Question categories' },
  'GET /api/polls/quizes/': { operationId: 'listQuizQuestions', summary: 'The quiz a visitor takes before signing up' },

  'POST /api/auth/register/': { operationId: 'register', summary: 'Sign up, with the quiz answers as first votes' },
  'POST /api/login/': { operationId: 'logIn', summary: 'Sign in and get a token' },
  'POST /api/auth/logout/': { operationId: 'logOut', summary: 'Sign out of this session' },
  'GET /api/auth/settings/': { operationId: 'getSettings', summary: 'Your email and notification setting' },
  'POST /api/auth/settings/': {
    operationId: 'updateSettings',
    summary: 'Change your notification setting, your password, or ask for a new email (mailed a link to confirm it)',
  },
  'POST /api/auth/email/confirm/': { operationId: 'confirmEmail', summary: 'Make a new email yours, with the token of the link mailed to it' },
  'GET /api/auth/account/': { operationId: 'getAccount', summary: 'Your personal info' },
  'POST /api/auth/account/': { operationId: 'updateAccount', summary: 'Change your personal info' },

  'GET /api/polls/questions/': { operationId: 'getFeed', summary: 'Questions from the people you follow, and the question of the day' },
  'GET /api/polls/category/:category/': { operationId: 'listCategoryQuestions', summary: 'Questions in a category' },
  'GET /api/polls/tag/:tag/': { operationId: 'listTagQuestions', summary: 'Questions with a tag' },
  'GET /api/polls/question/:id/': { operationId: 'getQuestion', summary: 'One question' },
  'POST /api/polls/create/': { operationId: 'createQuestion', summary: 'Ask a question' },
  'POST /api/polls/answer/:id/': { operationId: 'answerQuestion', summary: 'Answer a question and see its result' },
  'POST /api/polls/like/:id/': { operationId: 'likeQuestion', summary: 'Like a question' },
  'POST /api/polls/unlike/:id/': { operationId: 'unlikeQuestion', summary: 'Take back a like' },
  'POST /api/polls/pass/:id/': { operationId: 'passQuestion', summary: 'Hide a question from your lists' },
  'POST /api/polls/unpass/:id/': { operationId: 'unpassQuestion', summary: 'Show a hidden question again' },
  'GET /api/polls/user/questions/': { operationId: 'listMyQuestions', summary: 'Questions you asked' },
  'GET /api/polls/user/answered/': { operationId: 'listMyAnswered', summary: 'Questions you answered' },
  'GET /api/polls/user/liked/': { operationId: 'listMyLiked', summary: 'Questions you liked' },
  'GET /api/polls/user/:user/questions/': { operationId: 'listUserQuestions', summary: 'Questions someone asked' },
  'GET /api/polls/user/:user/answered/': { operationId: 'listUserAnswered', summary: 'Questions someone answered' },
  'GET /api/polls/user/:user/liked/': { operationId: 'listUserLiked', summary: 'Questions someone liked' },
  'GET /api/polls/live/:id/': { operationId: 'getLiveResult', summary: 'A question’s result as votes and likes arrive' },

  'GET /api/polls/stats/': { operationId: 'getMyStats', summary: 'How many questions you asked, answered and liked' },
  'GET /api/polls/stats/:user/': { operationId: 'getUserStats', summary: 'Someone’s profile and counts' },
  'GET /api/auth/connections/': { operationId: 'listConnections', summary: 'The people you follow' },
  'POST /api/auth/follow/:user/': { operationId: 'follow', summary: 'Follow someone' },
  'POST /api/auth/unfollow/:user/': { operationId: 'unfollow', summary: 'Stop following someone' },
  'POST /api/auth/ban/:user/': { operationId: 'block', summary: 'Block someone' },
  'POST /api/auth/unban/:user/': { operationId: 'unblock', summary: 'Unblock someone' },

  'GET /api/notifications/': { operationId: 'listNotifications', summary: 'Your notifications, newest first, and how many are unread' },
  'POST /api/notifications/read/': { operationId: 'markNotificationsRead', summary: 'Mark some or all of your notifications read' },
  'GET /api/notifications/live/': { operationId: 'getUnreadCount', summary: 'Your unread count as it changes' },
  'GET /api/unsubscribe/': { operationId: 'showUnsubscribe', summary: 'The page of a notification mail’s unsubscribe link, with a button' },
  'POST /api/unsubscribe/': { operationId: 'unsubscribe', summary: 'Turn notification mail off from its link, without signing in' },
  'GET /api/push/key/': { operationId: 'getPushKey', summary: 'The public VAPID key to subscribe to push with' },
  'POST /api/push/subscriptions/': { operationId: 'subscribeToPush', summary: 'Push your notifications to this device (its PushSubscription)' },
  'DELETE /api/push/subscriptions/': { operationId: 'unsubscribeFromPush', summary: 'Stop pushing your notifications to this device' },

  'GET /api/polls/search/': { operationId: 'searchQuestions', summary: 'Questions whose title, tags or choices hold the words searched, best match first' },
  'GET /api/polls/trending/': { operationId: 'listTrendingQuestions', summary: 'The questions answered most in the last 24 hours' },
  'GET /api/auth/people/': { operationId: 'searchPeople', summary: 'People whose first name starts with the words searched' },
  'GET /api/auth/suggestions/': { operationId: 'listSuggestions', summary: 'People you may want to follow, each with the reason' },

  'GET /api/polls/breakdown/:id/': { operationId: 'getBreakdown', summary: 'A question and the filters its breakdown offers' },
  'POST /api/polls/breakdown/:id/': { operationId: 'filterBreakdown', summary: 'A question’s result among voters of one gender, age range or country' },
  'GET /api/polls/breakdown/:id/csv': { operationId: 'downloadBreakdown', summary: 'Download a breakdown as CSV' },
  'GET /api/polls/relate/:a/:b/': { operationId: 'getRelate', summary: 'Two questions and how their answers go together' },
  'POST /api/polls/relate/:a/:b/': { operationId: 'filterRelate', summary: 'The first question’s result among voters of one choice of the second' },
  'GET /api/polls/relate/:a/:b/csv': { operationId: 'downloadRelate', summary: 'Download a relate table as CSV' },
  'GET /api/polls/related/:id/': { operationId: 'listRelatedQuestions', summary: 'Questions whose answers go with this one’s' },

  'POST /api/auth/password-reset/': { operationId: 'requestPasswordReset', summary: 'Mail a link to choose a new password, if an account has this address' },
  'POST /api/auth/password-reset/confirm/': { operationId: 'resetPassword', summary: 'Choose a new password with a mailed link, and sign in' },
  'GET /api/auth/export/': { operationId: 'exportAccount', summary: 'Download everything stored about you, as JSON' },
  'POST /api/auth/delete/': { operationId: 'deleteAccount', summary: 'Delete your account and everything of yours' },

  'POST /api/reports/': { operationId: 'report', summary: 'Report a question or a person to the moderators' },
  'GET /api/reports/': { operationId: 'listMyReports', summary: 'Your reports, and what came of each' },
  'GET /api/moderation/reports/': { operationId: 'listReportedTargets', summary: 'Reported questions and people, most reported first (moderators)' },
  'GET /api/moderation/open/': { operationId: 'countOpenReports', summary: 'How many reported targets wait for a decision (moderators)' },
  'POST /api/moderation/actions/': { operationId: 'moderate', summary: 'Dismiss, remove, restore, suspend, unsuspend or warn (moderators)' },
  'POST /api/moderation/roles/': { operationId: 'setRole', summary: 'Make a person a moderator or a member again (admins)' },
  'GET /api/moderation/log/': { operationId: 'listModerationLog', summary: 'Every moderator action, newest first (moderators)' },

  'GET /api/polls/site-stats/': { operationId: 'getSiteStats', summary: 'How many people, questions, answers and likes the site has' },
  'GET /api/polls/site-stats/chart.svg': { operationId: 'getAnswersChart', summary: 'Chart of the answers given per day over the last 30 days' },

  'GET /api/polls/question/:id/card.png': { operationId: 'getQuestionCard', summary: 'A question’s picture for link previews, without its result (1200×630 PNG)' },
};
