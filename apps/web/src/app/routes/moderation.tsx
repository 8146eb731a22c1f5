import { useIntl } from 'react-intl';
import { ModerationView } from '../../features/moderation/components/moderation-view';
import { QuestionCard } from '../../features/questions/components/question-card';
import { useRouteHandle, type ModerationHandle } from '../route-handle';

/** The moderators' screen, showing each reported question as the app's question card; the route names the tab. */
export function Component() {
  const intl = useIntl();
  const { tab } = useRouteHandle<ModerationHandle>();
  return (
    <>
      <title>{intl.formatMessage({ id: 'moderation.pageTitle' })}</title>
      <ModerationView tab={tab} renderQuestion={(question) => <QuestionCard question={question} />} />
    </>
  );
}
