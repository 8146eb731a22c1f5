import type { Question } from '@pollscope/contract';
import type { ReactNode } from 'react';
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
  if (role === undefined) return <Loading />;
  if (!moderator)
    return (
      <div className="page">
        <EmptyState title="For moderators only">
          <p>
            Moderators look at what people report and act on it under the{' '}
            <Link to={paths.rules.getHref()}>community rules</Link>.
          </p>
        </EmptyState>
      </div>
    );

  const tabs = [
    { label: 'Open', to: paths.moderation.getHref() },
    { label: 'Closed', to: paths.moderationClosed.getHref() },
    { label: 'Log', to: paths.moderationLog.getHref() },
    ...(role === 'admin' ? [{ label: 'Moderators', to: paths.moderationPeople.getHref() }] : []),
  ];
  return (
    <div className="page">
      <PageHeader
        eyebrow={role === 'admin' ? 'Admin' : 'Moderator'}
        title="Moderation"
        subtitle={
          open === undefined
            ? undefined
            : open === 0
              ? 'Nothing waits for a moderator.'
              : `${open} reported ${open === 1 ? 'question or person waits' : 'questions and people wait'} for a moderator.`
        }
      />
      <Tabs label="Moderation" tabs={tabs} />
      {tab === 'open' && <ReportQueue status="open" renderQuestion={renderQuestion} />}
      {tab === 'closed' && <ReportQueue status="closed" renderQuestion={renderQuestion} />}
      {tab === 'log' && <ModerationLog />}
      {tab === 'people' && (role === 'admin' ? <RoleForm /> : <EmptyState title="For admins only" />)}
    </div>
  );
}
