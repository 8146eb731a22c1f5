import type { Question } from '@pollscope/contract';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/loading';
import { PageHeader } from '../../../components/ui/page-header';
import { Tabs } from '../../../components/ui/tabs';
import { paths } from '../../../config/paths';
import { useOpenCount } from '../api/get-open-count';
import { moderates, useRole } from '../api/get-role';
import { ModerationLog } from './moderation-log';
import { ReportQueue } from './report-queue';
import { RoleForm } from './role-form';
import './moderation.css';

/** The parts of the moderation screen, each at an address of its own. */
export type ModerationTab = 'open' | 'closed' | 'log' | 'people';

interface ModerationViewProps {
  tab: ModerationTab;
  /** A reported question as people see it: the app's question card. */
  renderQuestion: (question: Question) => ReactNode;
}

/** The moderators' screen: open and closed reports, the log of actions, and for admins who moderates. */
export function ModerationView({ tab, renderQuestion }: ModerationViewProps) {
  const role = useRole();
  const moderator = moderates(role);
  const open = useOpenCount(moderator);
  const intl = useIntl();
  if (role === undefined) return <Loading />;
  if (!moderator)
    return (
      <div className="page">
        <EmptyState title={intl.formatMessage({ id: 'moderation.moderatorsOnly.title' })}>
          <p>
            <FormattedMessage
              id="moderation.moderatorsOnly.text"
              values={{ link: (chunks) => <Link to={paths.rules.getHref()}>{chunks}</Link> }}
            />
          </p>
        </EmptyState>
      </div>
    );

  const tabs = [
    { label: intl.formatMessage({ id: 'moderation.tab.open' }), to: paths.moderation.getHref() },
    { label: intl.formatMessage({ id: 'moderation.tab.closed' }), to: paths.moderationClosed.getHref() },
    { label: intl.formatMessage({ id: 'moderation.tab.log' }), to: paths.moderationLog.getHref() },
    ...(role === 'admin'
      ? [{ label: intl.formatMessage({ id: 'moderation.tab.people' }), to: paths.moderationPeople.getHref() }]
      : []),
  ];
  return (
    <div className="page">
      <PageHeader
        eyebrow={<FormattedMessage id={role === 'admin' ? 'moderation.role.admin' : 'moderation.role.moderator'} />}
        title={<FormattedMessage id="moderation.title" />}
        subtitle={
          open === undefined ? undefined : <FormattedMessage id="moderation.waiting" values={{ count: open }} />
        }
      />
      <Tabs label={intl.formatMessage({ id: 'moderation.tabs' })} tabs={tabs} />
      {tab === 'open' && <ReportQueue status="open" renderQuestion={renderQuestion} />}
      {tab === 'closed' && <ReportQueue status="closed" renderQuestion={renderQuestion} />}
      {tab === 'log' && <ModerationLog />}
      {tab === 'people' &&
        (role === 'admin' ? <RoleForm /> : <EmptyState title={intl.formatMessage({ id: 'moderation.adminsOnly' })} />)}
    </div>
  );
}
