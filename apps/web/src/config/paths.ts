/** Every screen's route pattern and the link that leads to it. */
type Id = number | string;

/** A screen at one address, without parameters. */
const fixed = (path: string) => ({ path, getHref: () => path });

/**
 * The feed's address, also apart from the table: the page's first script (src/early-data.ts) carries no more than it
 * uses.
 */
export const homePath = '/';

export const paths = {
  home: fixed(homePath),
  category: { path: '/category/:category', getHref: (category: Id) => `/category/${category}` },
  tag: { path: '/tag/:tag', getHref: (tag: string) => `/tag/${encodeURIComponent(tag)}` },
  question: { path: '/question/:questionId', getHref: (question: Id) => `/question/${question}` },
  quiz: fixed('/quiz'),
  register: fixed('/register'),
  login: fixed('/login'),
  breakdown: { path: '/breakdown/:questionId', getHref: (question: Id) => `/breakdown/${question}` },
  relate: { path: '/relate/:firstId/:secondId', getHref: (first: Id, second: Id) => `/relate/${first}/${second}/` },
  contact: fixed('/contact'),
  rules: fixed('/rules'),
  privacy: fixed('/privacy'),
  stats: fixed('/stats'),
  settings: fixed('/settings'),
  myAccount: fixed('/myaccount'),
  create: fixed('/create'),
  user: { path: '/user/:userId', getHref: (user: Id) => `/user/${user}` },
  userAnswered: { path: '/user/:userId/answered', getHref: (user: Id) => `/user/${user}/answered` },
  userLikes: { path: '/user/:userId/likes', getHref: (user: Id) => `/user/${user}/likes` },
  wall: fixed('/wall'),
  answered: fixed('/answered'),
  likes: fixed('/likes'),
  connections: fixed('/connections'),
  notifications: fixed('/notifications'),
  /** Search: the questions found, and the people, each a tab of its own with the words in `q`. */
  search: { path: '/search', getHref: (query = '') => (query ? `/search?q=${encodeURIComponent(query)}` : '/search') },
  searchPeople: {
    path: '/search/people',
    getHref: (query = '') => (query ? `/search/people?q=${encodeURIComponent(query)}` : '/search/people'),
  },
  trending: fixed('/trending'),
  /**
   * Moderation (moderators and admins): the open reports, the closed ones, the log of actions, and (admins) who
   * moderates.
   */
  moderation: fixed('/moderation'),
  moderationClosed: fixed('/moderation/closed'),
  moderationLog: fixed('/moderation/log'),
  moderationPeople: fixed('/moderation/people'),
  /** What the viewer reported, and what came of it. */
  myReports: fixed('/reports'),
  forgotPassword: fixed('/forgot-password'),
  /** Where a forgotten-password mail's link leads, with its token. */
  resetPassword: {
    path: '/reset-password',
    getHref: (token: string) => `/reset-password?token=${encodeURIComponent(token)}`,
  },
  /** Where the mail to a new email leads, with the token that confirms it. */
  confirmEmail: {
    path: '/confirm-email',
    getHref: (token: string) => `/confirm-email?token=${encodeURIComponent(token)}`,
  },
} as const;
