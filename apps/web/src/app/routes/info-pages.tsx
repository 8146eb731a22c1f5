import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { PageHeader } from '../../components/ui/page-header';
import { useRouteHandle, type InfoPageHandle, type InfoPageName } from '../route-handle';

const pages: Record<InfoPageName, { title: string; text: ReactNode }> = {
  contact: {
    title: 'Contact',
    text: (
      <>
        <p>Questions, ideas or something that does not look right? We would love to hear from you.</p>
        <p>
          Write to <a href="mailto:hello@pollscope.app">hello@pollscope.app</a> and we will get back to you within two
          working days.
        </p>
      </>
    ),
  },
  privacy: {
    title: 'Privacy',
    text: (
      <>
        <p>Your votes are counted, never shown one by one.</p>
        <ul>
          <li>Results show percentages and averages only, and only to people who have voted.</li>
          <li>Breakdowns and comparisons show nothing for groups too small to keep a person's vote private.</li>
          <li>Your email is used to sign in and, if you choose, for notifications. It is never shown to others.</li>
          <li>
            Your profile shows other members your first name, your birth date and age, the country you live in, how many
            questions you asked, answered and liked, and which ones: never how you answered them.
          </li>
          <li>
            A question you ask can be shared outside POLLSCOPE. Anyone with its link can open its page without an
            account: it shows the question, its choices, how many have voted and your first name, never the result.
          </li>
          <li>
            On <Link to={paths.myAccount.getHref()}>your account</Link> you can download everything stored about you, or
            delete your account: it goes at once, with everything of yours, and results are counted again without your
            votes.
          </li>
        </ul>
      </>
    ),
  },
};

/** The contact and privacy pages; the route names the page. */
export function Component() {
  const { title, text } = pages[useRouteHandle<InfoPageHandle>().page];
  return (
    <div className="page">
      <title>{`${title} · POLLSCOPE`}</title>
      <PageHeader title={title} />
      <div className="card prose">{text}</div>
    </div>
  );
}
