import { useDeferredValue, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../../components/ui/button';
import { Banner } from '../../../components/ui/banner';
import { EmptyState } from '../../../components/ui/empty-state';
import { useErrorText } from '../../../hooks/use-error-text';
import type { QuestionPages } from '../api/question-pages';
import { QuestionCard } from './question-card';
import { RelateTray } from './relate-tray';

interface QuestionListProps {
  list: QuestionPages;
  emptyMessage: string;
  label: string;
  /** Shown under the empty message, such as people to follow under an empty feed. */
  whenEmpty?: ReactNode;
}

function Skeletons() {
  const intl = useIntl();
  return (
    <div className="stack" aria-busy="true" aria-label={intl.formatMessage({ id: 'questions.list.loading' })}>
      <div className="skeleton" />
      <div className="skeleton" />
    </div>
  );
}

/** The cards shown before the others when a list first comes: about what a laptop or a tall phone shows at once. */
const FIRST_CARDS = 3;

/**
 * The list's cards: when they first come, the first few at once and the others right after, in
 * the background, since rendering and laying out a whole page of cards before the first paint
 * would hold back the ones on screen.
 */
function Cards({ list }: { list: QuestionPages }) {
  const questions = useDeferredValue(list.questions, list.questions.slice(0, FIRST_CARDS));
  return questions.map((question) => (
    <QuestionCard
      key={question.id}
      question={question}
      onChange={(updated) => void list.update(updated)}
      onPassedChange={() => void list.reload()}
    />
  ));
}

/** A page of question cards with "Load more"; hiding a question reloads the list. */
export function QuestionList({ list, emptyMessage, label, whenEmpty }: QuestionListProps) {
  const errorText = useErrorText();
  if (list.isLoading) return <Skeletons />;
  if (list.error && list.questions.length === 0) return <Banner tone="error">{errorText(list.error)}</Banner>;
  if (list.questions.length === 0)
    return (
      <>
        <EmptyState title={emptyMessage} />
        {whenEmpty}
      </>
    );
  return (
    <section className="stack" aria-label={label}>
      <RelateTray />
      <Cards list={list} />
      {list.hasMore && (
        <Button className="load-more" block pending={list.isLoadingMore} onClick={() => void list.loadMore()}>
          <FormattedMessage id="questions.list.loadMore" />
        </Button>
      )}
    </section>
  );
}
