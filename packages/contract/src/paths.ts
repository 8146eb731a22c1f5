/** The API's paths, shared by the server's routes and the web app's client. */
export const api = {
  countries: '/api/polls/countries/',
  categories: '/api/polls/categories/',
  quizes: '/api/polls/quizes/',
  feed: '/api/polls/questions/',
  category: (id: number | string) => `/api/polls/category/${id}/`,
  tag: (name: string) => `/api/polls/tag/${encodeURIComponent(name)}/`,
  question: (id: number | string) => `/api/polls/question/${id}/`,
  /**
   * The question's picture for link previews, 1200×630 PNG (public); the share page `/q/{id}` names it as its og:image.
   */
  questionCard: (id: number | string) => `/api/polls/question/${id}/card.png`,
  breakdown: (id: number | string) => `/api/polls/breakdown/${id}/`,
  relate: (a: number | string, b: number | string) => `/api/polls/relate/${a}/${b}/`,
  related: (id: number | string) => `/api/polls/related/${id}/`,
  /** CSV downloads, with the breakdown filter as query parameters (min_age, max_age, country, gender)… */
  breakdownCsv: (id: number | string) => `/api/polls/breakdown/${id}/csv`,
  /** …and with `choice` of the second question (every choice when left out). */
  relateCsv: (a: number | string, b: number | string) => `/api/polls/relate/${a}/${b}/csv`,
  /** The server is up and answering (public). */
  health: '/api/health',
  /** The database (and Redis, when configured) answer: send this instance requests (public). */
  ready: '/api/ready',
  answer: (id: number | string) => `/api/polls/answer/${id}/`,
  like: (id: number | string) => `/api/polls/like/${id}/`,
  unlike: (id: number | string) => `/api/polls/unlike/${id}/`,
  pass: (id: number | string) => `/api/polls/pass/${id}/`,
  unpass: (id: number | string) => `/api/polls/unpass/${id}/`,
  create: '/api/polls/create/',
  myStats: '/api/polls/stats/',
  userStats: (user: number | string) => `/api/polls/stats/${user}/`,
  myQuestions: '/api/polls/user/questions/',
  myAnswered: '/api/polls/user/answered/',
  myLiked: '/api/polls/user/liked/',
  userQuestions: (user: number | string) => `/api/polls/user/${user}/questions/`,
  userAnswered: (user: number | string) => `/api/polls/user/${user}/answered/`,
  userLiked: (user: number | string) => `/api/polls/user/${user}/liked/`,
  siteStats: '/api/polls/site-stats/',
  /** Server-sent events with the question's fresh result (contract: live.ts). */
  live: (id: number | string) => `/api/polls/live/${id}/`,
  login: '/api/login/',
  logout: '/api/auth/logout/',
  register: '/api/auth/register/',
  settings: '/api/auth/settings/',
  /** Makes a new email the account's, with the token mailed to it (public). */
  confirmEmail: '/api/auth/email/confirm/',
  account: '/api/auth/account/',
  connections: '/api/auth/connections/',
  follow: (user: number | string) => `/api/auth/follow/${user}/`,
  unfollow: (user: number | string) => `/api/auth/unfollow/${user}/`,
  ban: (user: number | string) => `/api/auth/ban/${user}/`,
  unban: (user: number | string) => `/api/auth/unban/${user}/`,
  /** The caller's notifications (contract: notifications.ts), marking them read, and their unread count live. */
  notifications: '/api/notifications/',
  notificationsRead: '/api/notifications/read/',
  notificationsLive: '/api/notifications/live/',
  /** Questions by their words, a page at a time (contract: discovery.ts)… */
  search: (q: string) => `/api/polls/search/?q=${encodeURIComponent(q)}`,
  /** …the questions answered most in the last 24 hours, people by first name, and people to follow. */
  trending: '/api/polls/trending/',
  people: (q: string) => `/api/auth/people/?q=${encodeURIComponent(q)}`,
  suggestions: '/api/auth/suggestions/',
  /**
   * Notification mail's unsubscribe link, without signing in: POST turns it off, GET shows a button that does (public).
   */
  unsubscribe: (token: string) => `/api/unsubscribe/?token=${encodeURIComponent(token)}`,
  /**
   * An account's life (contract: account-life.ts): a forgotten password (public), the caller's data, deleting the
   * account.
   */
  passwordReset: '/api/auth/password-reset/',
  passwordResetConfirm: '/api/auth/password-reset/confirm/',
  exportAccount: '/api/auth/export/',
  deleteAccount: '/api/auth/delete/',
  /**
   * Moderation (contract: moderation.ts): anyone signed in reports (POST) and reads what came of their reports (GET);
   * moderators and admins read the queue and act.
   */
  reports: '/api/reports/',
  moderationReports: '/api/moderation/reports/',
  moderationActions: '/api/moderation/actions/',
  moderationRoles: '/api/moderation/roles/',
  moderationLog: '/api/moderation/log/',
  /** The number of open reported targets, for the header's shield (moderators and admins). */
  moderationOpenCount: '/api/moderation/open/',
  /** Web push (contract: push.ts): the public VAPID key (public), and this device's subscription. */
  pushKey: '/api/push/key/',
  pushSubscriptions: '/api/push/subscriptions/',
} as const;
