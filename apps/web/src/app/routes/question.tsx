import { displayId, type Question } from '@pollscope/contract';
import { FormattedMessage } from 'react-intl';
import { useParams, useSearchParams } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { ArrowLeftIcon } from '../../components/ui/icons';
import { Loading } from '../../components/ui/loading';
import { useErrorText } from '../../hooks/use-error-text';
import { useGoBack } from '../../hooks/use-go-back';
import { RelatedQuestions } from '../../features/insights/components/related-questions';
import { useQuestion } from '../../features/questions/api/get-question';
import { QuestionCard } from '../../features/questions/components/question-card';
import { RelateTray } from '../../features/questions/components/relate-tray';
import { VotingWindow } from '../../features/questions/components/voting-window';
import { ANSWER_PARAMETER } from '../../features/questions/voting-window';

export function Component() {
  const { questionId = '' } = useParams();
  // Opened by an embed to vote (features/questions/voting-window.ts).
  const answer = useSearchParams()[0].get(ANSWER_PARAMETER);
  const { data: question, error, mutate } = useQuestion(questionId);
  const goBack = useGoBack();
  const errorText = useErrorText();
  const card = {
    onChange: (updated: Question) => void mutate(updated, { revalidate: false }),
    onPassedChange: () => void mutate(),
    renderAfterAnswer: (answered: Question) => <RelatedQuestions question={answered} />,
  };
  return (
    <div className="page">
      <div>
        <Button variant="ghost" size="small" onClick={goBack}>
          <ArrowLeftIcon className="questions-directional-icon" />
          <FormattedMessage id="questionPage.back" />
        </Button>
      </div>
      {error && <Banner tone="error">{errorText(error)}</Banner>}
      {!question && !error && <Loading />}
      {question && (
        <>
          <title>{`${displayId('QID', question.qid)} · POLLSCOPE`}</title>
          <h1 className="sr-only">
            <FormattedMessage id="questionPage.heading" values={{ qid: displayId('QID', question.qid) }} />
          </h1>
          <RelateTray />
          {answer === null ? (
            <QuestionCard {...card} question={question} />
          ) : (
            <VotingWindow {...card} question={question} answer={answer} />
          )}
        </>
      )}
    </div>
  );
}
