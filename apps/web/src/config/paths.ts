/** Every screen's route pattern and the link that leads to it. */
type Id = number | string;

export const paths = {
  home: { path: '/', getHref: () => '/' },
  category: { path: '/category/:category', getHref: (category: Id) => `/category/${category}` },
  tag: { path: '/tag/:tag', getHref: (tag: string) => `/tag/${encodeURIComponent(tag)}` },
  question: { path: '/question/:questionId', getHref: (question: Id) => `/question/${question}` },
  quiz: { path: '/quiz', getHref: () => '/quiz' },
  register: { path: '/register', getHref: () => '/register' },
  login: { path: '/login', getHref: () => '/login' },
  breakdown: { path: '/breakdown/:questionId', getHref: (question: Id) => `/breakdown/${question}` },
  relate: { path: '/relate/:firstId/:secondId', getHref: (first: Id, second: Id) => `/relate/${first}/${second}/` },
  contact: { path: '/contact', getHref: () => '/contact' },
  rules: { path: '/rules', getHref: () => '/rules' },
  privacy: { path: '/privacy', getHref: () => '/privacy' },
  stats: { path: '/stats', getHref: () => '/stats' },
  settings: { path: '/settings', getHref: () => '/settings' },
  myAccount: { path: '/myaccount', getHref: () => '/myaccount' },
  create: { path: '/create', getHref: () => '/create' },
  user: { path: '/user/:userId', getHref: (user: Id) => `/user/${user}` },
  userAnswered: { path: '/user/:userId/answered', getHref: (user: Id) => `/user/${user}/answered` },
  userLikes: { path: '/user/:userId/likes', getHref: (user: Id) => `/user/${user}/likes` },
  wall: { path: '/wall', getHref: () => '/wall' },
  answered: { path: '/answered', getHref: () => '/answered' },
  likes: { path: '/likes', getHref: () => '/likes' },
  connections: { path: '/connections', getHref: () => '/connections' },
} as const;
