import { displayId } from '@pollscope/contract';
import { FormattedMessage } from 'react-intl';
import { useParams } from 'react-router';
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

export function Component() {
  const { questionId = '' } = useParams();
  const { data: question, error, mutate } = useQuestion(questionId);
  const goBack = useGoBack();
  const errorText = useErrorText();
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
          <QuestionCard
            question={question}
            onChange={(updated) => void mutate(updated, { revalidate: false })}
            onPassedChange={() => void mutate()}
            renderAfterAnswer={(answered) => <RelatedQuestions question={answered} />}
          />
        </>
      )}
    </div>
  );
}
